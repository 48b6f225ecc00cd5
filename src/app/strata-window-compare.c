/* strata-window-compare.c: Compare With…, loading a baseline beside the trace
 *
 * The second file loads with the same loader, off the main thread, while
 * the trace on show stays usable; a bar above the timeline shows progress
 * and can cancel, or says why the two cannot be compared. Its profile is
 * made off the main thread too, then handed to the session, which compares.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-compare-view.h"
#include "strata-heap-view.h"
#include "strata-timeline.h"
#include "strata-trace-mapping.h"
#include "strata-window-private.h"

/* The bar above the timeline: a baseline or a mapping loading (with
 * Cancel), or why it could not be used (with Close). */
void
_strata_window_show_task_bar (StrataWindow *self,
                              const char   *message,
                              gboolean      busy)
{
  gtk_label_set_label (GTK_LABEL (self->compare_label), message);
  gtk_widget_set_visible (self->compare_progress, busy);
  gtk_button_set_label (GTK_BUTTON (self->compare_button), busy ? _("_Cancel") : _("_Close"));
  gtk_widget_set_visible (self->compare_bar, TRUE);
}

void
_strata_window_hide_task_bar (StrataWindow *self)
{
  gtk_widget_set_visible (self->compare_bar, FALSE);
}

static void
fail (StrataWindow *self,
      GFile        *file,
      const GError *error)
{
  g_autofree char *name = _strata_file_get_display_name (file);
  /* Translators: %s is a file name, then why it cannot be compared */
  g_autofree char *message = g_strdup_printf (_("Could not compare with “%s”: %s"), name, error->message);

  _strata_window_show_task_bar (self, message, FALSE);
}

static void
clear_load (StrataWindow *self)
{
  if (self->compare_cancellable != NULL)
    g_cancellable_cancel (self->compare_cancellable);
  g_clear_object (&self->compare_cancellable);
  g_clear_object (&self->compare_loader);
}

static void
show_compare_page (StrataWindow *self)
{
  GtkNotebook *notebook = GTK_NOTEBOOK (self->details);

  gtk_notebook_set_current_page (notebook, gtk_notebook_page_num (notebook, self->compare_view));
}

static void
profile_ready_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(StrataWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataProfile) profile = strata_profile_new_finish (result, &error);
  g_autoptr(GFile) file = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->compare_loader == NULL)
    return;
  file = g_object_ref (strata_loader_get_file (self->compare_loader));
  g_clear_object (&self->compare_loader);
  g_clear_object (&self->compare_cancellable);
  if (profile == NULL || !strata_session_set_baseline (self->session, profile, &error))
    {
      fail (self, file, error);
      return;
    }
  _strata_window_hide_task_bar (self);
  show_compare_page (self);
  _strata_window_update_actions (self);
}

static void
baseline_mapped_cb (GObject      *source,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(StrataWindow) self = user_data;
  g_autoptr(StrataTraceNames) names = strata_trace_map_names_finish (result, NULL);
  StrataTrace *trace;

  if (self->compare_loader == NULL || g_cancellable_is_cancelled (self->compare_cancellable))
    return;
  trace = g_object_get_data (G_OBJECT (self->compare_loader), "baseline");
  /* A mapping that no longer reads leaves the names as loaded. */
  if (names != NULL)
    strata_trace_names_apply (names, trace);
  strata_profile_new_async (trace, -1, self->compare_cancellable, profile_ready_cb, g_object_ref (self));
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(StrataWindow) self = user_data;
  StrataLoader *loader = STRATA_LOADER (object);
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_loader_load_finish (loader, result, &error);
  StrataTrace *current = strata_session_get_trace (self->session);

  if (loader != self->compare_loader)
    return;
  if (trace == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      clear_load (self);
      _strata_window_hide_task_bar (self);
      return;
    }
  /* Say at once when the two cannot be compared, before profiling. */
  if (trace == NULL || current == NULL || !strata_comparison_check (trace, current, &error))
    {
      fail (self, strata_loader_get_file (loader), error);
      clear_load (self);
      return;
    }
  gtk_label_set_label (GTK_LABEL (self->compare_label), _("Comparing…"));
  /* A file deobfuscated earlier in this run is compared by those names. */
  if (_strata_window_remembered_mapping (strata_trace_get_file (trace)) != NULL)
    {
      g_object_set_data_full (G_OBJECT (loader), "baseline", g_object_ref (trace), g_object_unref);
      strata_trace_map_names_async (trace, _strata_window_remembered_mapping (strata_trace_get_file (trace)),
                                    self->compare_cancellable, baseline_mapped_cb, g_object_ref (self));
      return;
    }
  strata_profile_new_async (trace, -1, self->compare_cancellable, profile_ready_cb, g_object_ref (self));
}

static void
progress_cb (StrataWindow *self,
             GParamSpec   *pspec,
             StrataLoader *loader)
{
  g_autofree char *name = _strata_file_get_display_name (strata_loader_get_file (loader));
  /* Translators: %s is the file being loaded to compare the trace on show with */
  g_autofree char *message = g_strdup_printf (_("Loading “%s” to compare…"), name);

  gtk_label_set_label (GTK_LABEL (self->compare_label), message);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->compare_progress), strata_loader_get_fraction (loader));
}

/**
 * strata_window_compare_with:
 *
 * Loads @file as the baseline the trace on show is compared with: the
 * Compare page lists the differences once it is ready.
 */
void
strata_window_compare_with (StrataWindow *self,
                            GFile        *file)
{
  g_return_if_fail (STRATA_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  if (strata_session_get_trace (self->session) == NULL)
    return;
  clear_load (self);
  self->compare_loader = strata_loader_new (file);
  strata_loader_set_follow_weak (self->compare_loader, self->follow_weak);
  self->compare_cancellable = g_cancellable_new ();
  g_signal_connect_object (self->compare_loader, "notify::fraction", G_CALLBACK (progress_cb), self, G_CONNECT_SWAPPED);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->compare_progress), 0);
  _strata_window_show_task_bar (self, "", TRUE);
  progress_cb (self, NULL, self->compare_loader);
  strata_loader_load_async (self->compare_loader, self->compare_cancellable, load_cb, g_object_ref (self));
}

/* Returns: whether a baseline is loading. */
gboolean
strata_window_get_comparing (StrataWindow *self)
{
  g_return_val_if_fail (STRATA_IS_WINDOW (self), FALSE);

  return self->compare_loader != NULL;
}

static void
bar_button_cb (StrataWindow *self)
{
  clear_load (self);
  _strata_window_stop_mapping (self);
  _strata_window_hide_task_bar (self);
}

static void
show_new_instances_cb (StrataWindow      *self,
                       guint              row,
                       StrataCompareView *view)
{
  StrataComparison *comparison = strata_session_get_comparison (self->session);
  guint32 n;
  g_autofree guint32 *objects = NULL;
  g_autofree char *title = NULL;
  GtkNotebook *notebook = GTK_NOTEBOOK (self->details);

  if (comparison == NULL)
    return;
  if (strata_comparison_count_moved_classes (comparison, &n) > 0)
    {
      /* Ids are addresses: after a moving collection, a listing by id
       * would call every moved object new. */
      /* Translators: %s is a class name */
      title = g_strdup_printf (_("New instances of %s cannot be told by id: object ids moved between the dumps (a moving collector ran). Compare the counts instead."),
                               strata_comparison_get_row (comparison, row)->name);
      n = 0;
    }
  else
    {
      objects = strata_comparison_dup_new_objects (comparison, row, &n);
      /* Translators: a count of objects, then a class name */
      title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u new instance of %s", "%u new instances of %s", n),
                               n, strata_comparison_get_row (comparison, row)->name);
    }
  strata_heap_view_show_objects (STRATA_HEAP_VIEW (self->heap_view), title, objects, n);
  gtk_notebook_set_current_page (notebook, gtk_notebook_page_num (notebook, self->heap_view));
}

/* ---- The baseline's timeline ---- */

/**
 * _strata_window_build_timelines:
 * @timeline: the trace's timeline, in its scroller
 *
 * Returns: the timeline over the baseline's (hidden until asked for), in
 *   a pane; each on its own time axis, starting at its own start
 */
GtkWidget *
_strata_window_build_timelines (StrataWindow *self,
                                GtkWidget    *timeline)
{
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GActionGroup *actions;

  self->baseline_session = strata_session_new ();
  self->baseline_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  self->baseline_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->baseline_label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->baseline_label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_add_css_class (self->baseline_label, "heading");
  gtk_widget_add_css_class (self->baseline_box, "compare-bar");
  g_object_set (self->baseline_label, "margin-start", 6, "margin-top", 4, "margin-bottom", 4, NULL);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), strata_timeline_new (self->baseline_session));
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_box_append (GTK_BOX (self->baseline_box), self->baseline_label);
  gtk_box_append (GTK_BOX (self->baseline_box), scroller);
  gtk_widget_set_visible (self->baseline_box, FALSE);
  /* Keys in the baseline's timeline move it, not the trace's. */
  actions = strata_session_create_actions (self->baseline_session);
  gtk_widget_insert_action_group (self->baseline_box, "view", actions);
  g_object_unref (actions);

  gtk_paned_set_start_child (GTK_PANED (paned), timeline);
  gtk_paned_set_end_child (GTK_PANED (paned), self->baseline_box);
  gtk_paned_set_shrink_start_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (paned), FALSE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (paned), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Timelines"), -1);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.show-baseline", FALSE);
  return paned;
}

/* Shown while comparing two traces with calls and asked for; its methods
 * take the trace's colours. */
void
_strata_window_update_baseline_timeline (StrataWindow *self)
{
  StrataComparison *comparison = strata_session_get_comparison (self->session);
  gboolean traces = comparison != NULL && strata_comparison_get_kind (comparison) == STRATA_COMPARISON_PROFILE;
  StrataTrace *baseline = traces ? strata_comparison_get_trace (comparison, STRATA_SIDE_BASELINE) : NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.show-baseline", traces);
  if (!traces || !self->show_baseline)
    baseline = NULL;
  if (strata_session_get_trace (self->baseline_session) != baseline)
    strata_session_set_trace (self->baseline_session, baseline);
  if (baseline != NULL)
    {
      g_autofree char *name = _strata_file_get_display_name (strata_trace_get_file (baseline));
      /* Translators: over the timeline of the file compared with; %s is its name */
      g_autofree char *title = g_strdup_printf (_("Baseline: %s"), name);

      gtk_label_set_label (GTK_LABEL (self->baseline_label), title);
      strata_session_share_colors (self->baseline_session, strata_session_get_baseline_colors (self->session));
    }
  gtk_widget_set_visible (self->baseline_box, baseline != NULL);
}

/* The bar above the timeline, and the Compare page of the notebook. */
void
_strata_window_init_compare (StrataWindow *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);

  self->compare_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->compare_label), 0);
  /* A file's name fits on a line; a message (why a mapping may be
   * another build's, what it could not read) wraps to a few. */
  gtk_label_set_wrap (GTK_LABEL (self->compare_label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (self->compare_label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_lines (GTK_LABEL (self->compare_label), 3);
  gtk_label_set_ellipsize (GTK_LABEL (self->compare_label), PANGO_ELLIPSIZE_END);
  gtk_label_set_max_width_chars (GTK_LABEL (self->compare_label), 200);
  gtk_widget_set_hexpand (self->compare_label, TRUE);
  self->compare_progress = gtk_progress_bar_new ();
  gtk_widget_set_valign (self->compare_progress, GTK_ALIGN_CENTER);
  gtk_widget_set_size_request (self->compare_progress, 160, -1);
  self->compare_button = gtk_button_new_with_mnemonic (_("_Cancel"));
  g_signal_connect_swapped (self->compare_button, "clicked", G_CALLBACK (bar_button_cb), self);
  gtk_box_append (GTK_BOX (bar), self->compare_label);
  gtk_box_append (GTK_BOX (bar), self->compare_progress);
  gtk_box_append (GTK_BOX (bar), self->compare_button);
  gtk_widget_add_css_class (bar, "compare-bar");
  gtk_widget_set_visible (bar, FALSE);
  self->compare_bar = bar;

  self->compare_view = strata_compare_view_new (self->session);
  g_signal_connect_object (self->compare_view, "show-new-instances", G_CALLBACK (show_new_instances_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::comparison", G_CALLBACK (_strata_window_update_actions),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::comparison", G_CALLBACK (_strata_window_update_baseline_timeline),
                           self, G_CONNECT_SWAPPED);
}

void
_strata_window_dispose_compare (StrataWindow *self)
{
  clear_load (self);
  g_clear_object (&self->baseline_session);
}
