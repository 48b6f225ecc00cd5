/* strata-window-mapping.c: Deobfuscate With Mapping File…
 *
 * A release build's trace or heap dump says "a.b.c (I)V"; its build's
 * mapping.txt says what that was. The mapping is read in a worker (only
 * the classes the file names are kept), the names shown everywhere, and
 * the header says a mapping is applied. The file itself is never written:
 * the mapping is remembered for the trace's file for as long as Strata
 * runs, so opening it again shows the same names.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-trace-mapping.h"
#include "strata-window-private.h"

/* Trace file URI → its mapping's GFile, for this run of Strata. */
static GHashTable *remembered;

static GHashTable *
remembered_mappings (void)
{
  if (remembered == NULL)
    remembered = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  return remembered;
}

static void
remember (StrataTrace *trace,
          GFile       *mapping)
{
  char *uri = g_file_get_uri (strata_trace_get_file (trace));

  if (mapping != NULL)
    g_hash_table_insert (remembered_mappings (), uri, g_object_ref (mapping));
  else
    {
      g_hash_table_remove (remembered_mappings (), uri);
      g_free (uri);
    }
}

/* A mapping being read is given up (another one, another trace, Cancel). */
void
_strata_window_stop_mapping (StrataWindow *self)
{
  if (self->mapping_cancellable != NULL)
    g_cancellable_cancel (self->mapping_cancellable);
  g_clear_object (&self->mapping_cancellable);
}

static void
show_names (StrataWindow *self)
{
  strata_session_names_changed (self->session);
  _strata_window_update_actions (self);
  /* The header says which names are shown. */
  _strata_window_refresh_titles (self);
}

static void
mapped_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(StrataWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTraceNames) names = strata_trace_map_names_finish (result, &error);
  StrataTrace *trace = strata_session_get_trace (self->session);
  g_autoptr(GFile) mapping = NULL;

  /* Cancelled: another mapping, another trace, or the window went. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  mapping = g_steal_pointer (&self->mapping);
  g_clear_object (&self->mapping_cancellable);
  if (names == NULL || trace == NULL)
    {
      g_autofree char *name = _strata_file_get_display_name (mapping);
      /* Translators: a mapping file's name, then why it could not be used */
      g_autofree char *message = g_strdup_printf (_("Could not deobfuscate with “%s”: %s"), name,
                                                  error != NULL ? error->message : "");

      _strata_window_show_task_bar (self, message, FALSE);
      return;
    }
  strata_trace_names_apply (names, trace);
  self->mapping = g_steal_pointer (&mapping);
  remember (trace, self->mapping);
  /* A mapping of another build names methods wrongly: that first, then
   * the lines it could not read. */
  if (strata_trace_names_get_fit_warning (names) != NULL || strata_trace_names_get_problems (names) != NULL)
    {
      g_autofree char *message = g_strjoin (" ", strata_trace_names_get_fit_warning (names) ? strata_trace_names_get_fit_warning (names) : "",
                                            strata_trace_names_get_problems (names) ? strata_trace_names_get_problems (names) : "", NULL);

      _strata_window_show_task_bar (self, g_strstrip (message), FALSE);
    }
  else
    _strata_window_hide_task_bar (self);
  show_names (self);
}

/**
 * strata_window_deobfuscate:
 *
 * Shows the names @mapping (a ProGuard or R8 mapping.txt) gives the
 * classes and methods of the trace on show.
 */
void
strata_window_deobfuscate (StrataWindow *self,
                           GFile        *mapping)
{
  StrataTrace *trace;
  g_autofree char *name = NULL;
  g_autofree char *message = NULL;

  g_return_if_fail (STRATA_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (mapping));

  if ((trace = strata_session_get_trace (self->session)) == NULL)
    return;
  _strata_window_stop_mapping (self);
  /* The worker reads the names as loaded. */
  if (strata_trace_is_renamed (trace))
    {
      strata_trace_restore_names (trace);
      show_names (self);
    }
  g_set_object (&self->mapping, mapping);
  self->mapping_cancellable = g_cancellable_new ();
  name = _strata_file_get_display_name (mapping);
  /* Translators: %s is a mapping file's name */
  message = g_strdup_printf (_("Reading the mapping “%s”…"), name);
  _strata_window_show_task_bar (self, message, TRUE);
  gtk_progress_bar_pulse (GTK_PROGRESS_BAR (self->compare_progress));
  strata_trace_map_names_async (trace, mapping, self->mapping_cancellable, mapped_cb, g_object_ref (self));
}

/* Show Obfuscated Names: the names the file has, and forget the mapping. */
void
strata_window_remove_mapping (StrataWindow *self)
{
  StrataTrace *trace;

  g_return_if_fail (STRATA_IS_WINDOW (self));

  if ((trace = strata_session_get_trace (self->session)) == NULL || !strata_trace_is_renamed (trace))
    return;
  strata_trace_restore_names (trace);
  g_clear_object (&self->mapping);
  remember (trace, NULL);
  show_names (self);
}

/* Returns: whether a mapping is being read. */
gboolean
strata_window_get_mapping_busy (StrataWindow *self)
{
  g_return_val_if_fail (STRATA_IS_WINDOW (self), FALSE);

  return self->mapping_cancellable != NULL;
}

/* A trace opened again gets the mapping it had in this run. */
void
_strata_window_apply_remembered_mapping (StrataWindow *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  g_autofree char *uri = NULL;
  GFile *mapping;

  /* A mapping still being read was for the trace before. */
  _strata_window_stop_mapping (self);
  g_clear_object (&self->mapping);
  if (trace == NULL || remembered == NULL)
    return;
  uri = g_file_get_uri (strata_trace_get_file (trace));
  if ((mapping = g_hash_table_lookup (remembered, uri)) != NULL)
    strata_window_deobfuscate (self, mapping);
}

/**
 * _strata_window_remembered_mapping:
 *
 * Returns: (transfer none) (nullable): the mapping shown for @file in this
 *   run of Strata, for a baseline loaded from it
 */
GFile *
_strata_window_remembered_mapping (GFile *file)
{
  g_autofree char *uri = g_file_get_uri (file);

  return remembered != NULL ? g_hash_table_lookup (remembered, uri) : NULL;
}

/* Returns: (nullable): "deobfuscated with mapping.txt" while one is shown */
char *
_strata_window_describe_mapping (StrataWindow *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  g_autofree char *name = NULL;

  if (trace == NULL || self->mapping == NULL || !strata_trace_is_renamed (trace))
    return NULL;
  name = _strata_file_get_display_name (self->mapping);
  /* Translators: in the header bar's subtitle; %s is a mapping file's name */
  return g_strdup_printf (_("deobfuscated with %s"), name);
}

void
_strata_window_dispose_mapping (StrataWindow *self)
{
  _strata_window_stop_mapping (self);
  g_clear_object (&self->mapping);
}
