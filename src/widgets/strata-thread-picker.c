/* strata-thread-picker.c: the choice of the thread whose calls a panel
 * shows, or all of them
 *
 * A drop-down that is the session's profile thread: the profile, the call
 * tree and the flame graph show the same calls, whichever picked them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-accessible.h"
#include "strata-description.h"
#include "strata-thread-picker.h"

/**
 * strata_thread_picker_fill:
 * @indexes: (element-type guint): set to the thread of each label after
 *   the first ("All Threads")
 *
 * The threads with calls, as the picker lists them. The labels go in
 * with one splice: appended one at a time, each append made a drop-down
 * refilter, and 65,536 threads took 12 s.
 */
void
strata_thread_picker_fill (GtkStringList *names,
                           GArray        *indexes,
                           StrataTrace   *trace)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (names));
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);

  g_array_set_size (indexes, 0);
  g_ptr_array_add (labels, g_strdup (_("All Threads")));
  for (guint t = 0; trace != NULL && t < strata_trace_get_n_threads (trace); t++)
    {
      if (strata_trace_get_thread (trace, t)->spans == NULL)
        continue;
      g_ptr_array_add (labels, strata_describe_thread_short (trace, t));
      g_array_append_val (indexes, t);
    }
  g_ptr_array_add (labels, NULL);
  gtk_string_list_splice (names, 0, n, (const char * const *) labels->pdata);
}

static GArray *
indexes_of (GtkWidget *picker)
{
  return g_object_get_data (G_OBJECT (picker), "strata-thread-indexes");
}

static StrataSession *
session_of (GtkWidget *picker)
{
  return g_object_get_data (G_OBJECT (picker), "strata-session");
}

/* The session's thread, shown (another panel may have picked it). */
static void
show_thread (GtkWidget *picker)
{
  int thread = strata_session_get_profile_thread (session_of (picker));
  GArray *indexes = indexes_of (picker);
  guint position = 0;

  for (guint i = 0; thread >= 0 && i < indexes->len; i++)
    if (g_array_index (indexes, guint, i) == (guint) thread)
      position = i + 1;
  if (gtk_drop_down_get_selected (GTK_DROP_DOWN (picker)) != position)
    gtk_drop_down_set_selected (GTK_DROP_DOWN (picker), position);
}

static void
fill (GtkWidget *picker)
{
  GtkStringList *names = GTK_STRING_LIST (gtk_drop_down_get_model (GTK_DROP_DOWN (picker)));

  strata_thread_picker_fill (names, indexes_of (picker), strata_session_get_trace (session_of (picker)));
  show_thread (picker);
}

static void
picked (GtkWidget *picker)
{
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (picker));
  GArray *indexes = indexes_of (picker);

  if (selected == GTK_INVALID_LIST_POSITION || selected > indexes->len)
    return;
  strata_session_set_profile_thread (session_of (picker), selected == 0 ? -1 : (int) g_array_index (indexes, guint, selected - 1));
}

/**
 * strata_thread_picker_new:
 *
 * Returns: a drop-down of "All Threads" and each thread with calls, that
 *   is @session's profile thread both ways
 */
GtkWidget *
strata_thread_picker_new (StrataSession *session)
{
  GtkWidget *picker = gtk_drop_down_new (G_LIST_MODEL (gtk_string_list_new (NULL)), NULL);

  g_object_set_data_full (G_OBJECT (picker), "strata-session", g_object_ref (session), g_object_unref);
  g_object_set_data_full (G_OBJECT (picker), "strata-thread-indexes", g_array_new (FALSE, FALSE, sizeof (guint)),
                          (GDestroyNotify) g_array_unref);
  gtk_widget_set_tooltip_text (picker, _("The thread whose calls are shown, or all of them"));
  strata_accessible_name_children (picker, _("Thread"));
  gtk_widget_set_name (picker, "thread-picker");
  fill (picker);
  g_signal_connect_object (session, "notify::trace", G_CALLBACK (fill), picker, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::profile-thread", G_CALLBACK (show_thread), picker, G_CONNECT_SWAPPED);
  g_signal_connect (picker, "notify::selected", G_CALLBACK (picked), NULL);
  return picker;
}
