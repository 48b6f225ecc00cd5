/* strata-profile-view.c: traceview's profile panel
 *
 * StrataProfileModel (the methods, sorted and filtered, each expanded one
 * followed by its parents and children) → GtkSingleSelection →
 * GtkColumnView. The column headers pick the model's sort. Selection is
 * shared with the timeline through the session.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-accessible.h"
#include "strata-cell-scope.h"
#include "strata-cell-text.h"
#include "strata-palette.h"
#include "strata-profile-view-private.h"
#include "strata-thread-picker.h"
#include "strata-units.h"
#include "strata-widgets.h"

G_DEFINE_FINAL_TYPE (StrataProfileView, strata_profile_view, GTK_TYPE_WIDGET)


/* ---- Models ---- */

static void
update_matches_label (StrataProfileView *self)
{
  g_autofree char *text = NULL;
  guint n = strata_profile_view_get_n_matches (self);

  if (self->needle == NULL || *self->needle == '\0')
    text = g_strdup_printf (ngettext ("%'u method", "%'u methods", n), n);
  else
    text = g_strdup_printf (ngettext ("%'u match", "%'u matches", n), n);
  gtk_label_set_label (GTK_LABEL (self->matches_label), text);
}

static void
show_profile (StrataProfileView *self,
              StrataProfile     *profile)
{
  if (!g_set_object (&self->profile, profile))
    return;

  g_clear_object (&self->model);
  if (profile == NULL)
    {
      gtk_single_selection_set_model (self->selection, NULL);
      return;
    }

  self->model = strata_profile_model_new (profile);
  strata_profile_model_set_filter (self->model, self->needle);
  /* A new thread or range keeps the columns, their order and the sort. */
  if (self->columns_stale)
    profile_view_build_columns (self);
  self->columns_stale = FALSE;
  profile_view_apply_sort (self);
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->model));
  profile_view_follow_selected_method (self);
  update_matches_label (self);
}

/* ---- Threads ---- */

static void
fill_threads (StrataProfileView *self)
{
  strata_thread_picker_fill (self->thread_names, self->thread_indexes, strata_session_get_trace (self->session));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->thread_dropdown), 0);
}

static void refresh_profile (StrataProfileView *self);

/* The selector picked a thread: the session restricts the profile. */
static void
thread_selected_cb (StrataProfileView *self)
{
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->thread_dropdown));

  if (selected == GTK_INVALID_LIST_POSITION || selected > self->thread_indexes->len)
    return;
  strata_session_set_profile_thread (self->session,
                                     selected == 0 ? -1 : (int) g_array_index (self->thread_indexes, guint, selected - 1));
}

/* The session's thread, shown in the selector (another view or a test may
 * have set it), then the profile for it. */
static void
profile_thread_changed_cb (StrataProfileView *self)
{
  int thread = strata_session_get_profile_thread (self->session);
  guint position = 0;

  for (guint i = 0; thread >= 0 && i < self->thread_indexes->len; i++)
    if (g_array_index (self->thread_indexes, guint, i) == (guint) thread)
      position = i + 1;
  if (gtk_drop_down_get_selected (GTK_DROP_DOWN (self->thread_dropdown)) != position)
    gtk_drop_down_set_selected (GTK_DROP_DOWN (self->thread_dropdown), position);
  refresh_profile (self);
}

static void
thread_profile_ready_cb (GObject      *object,
                         GAsyncResult *result,
                         gpointer      user_data)
{
  g_autoptr(StrataProfileView) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataProfile) profile = strata_profile_new_finish (result, &error);

  /* A cancelled profile has a newer one coming. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  gtk_widget_set_visible (self->busy_box, FALSE);
  if (profile != NULL)
    show_profile (self, profile);
  else
    g_warning ("Could not compute the profile: %s", error->message);
}

/* The profile on show follows the thread selector and, when "Selected
 * Range" is on, the session's time range; computed off the main thread. */
static void
refresh_profile (StrataProfileView *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  gboolean by_range = strata_session_get_range_only (self->session);
  int thread = strata_session_get_profile_thread (self->session);
  StrataProfileRange range;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  gtk_widget_set_visible (self->busy_box, FALSE);
  if (trace == NULL)
    return;

  range.clock = strata_session_get_clock (self->session);
  by_range = by_range && strata_session_get_selection_range (self->session, &range.start, &range.end);
  if (thread < 0 && !by_range)
    {
      /* The session computes the whole trace's profile; until then, say so. */
      gtk_widget_set_visible (self->busy_box, strata_session_get_profile (self->session) == NULL);
      show_profile (self, strata_session_get_profile (self->session));
      return;
    }

  gtk_widget_set_visible (self->busy_box, TRUE);
  self->cancellable = g_cancellable_new ();
  strata_profile_new_for_range_async (trace, thread, by_range ? &range : NULL, self->cancellable,
                                      thread_profile_ready_cb, g_object_ref (self));
}

static void
selection_range_changed_cb (StrataProfileView *self)
{
  gint64 start, end;
  gboolean has_range = strata_session_get_selection_range (self->session, &start, &end);

  gtk_widget_set_sensitive (self->range_button, has_range);
  if (!has_range)
    strata_session_set_range_only (self->session, FALSE);
  if (strata_session_get_range_only (self->session))
    refresh_profile (self);
}

/* ---- Selection ---- */

StrataProfileRow *
profile_view_selected_row (StrataProfileView *self)
{
  return gtk_single_selection_get_selected_item (self->selection);
}

void
profile_view_set_expanded (StrataProfileView *self,
                           guint              position,
                           gboolean           expanded)
{
  if (self->model != NULL && position != GTK_INVALID_LIST_POSITION)
    {
      strata_profile_model_set_expanded (self->model, position, expanded);
      profile_view_follow_selected_method (self);
    }
}

static void
selection_changed_cb (StrataProfileView *self)
{
  StrataProfileRow *row = profile_view_selected_row (self);
  guint32 method;

  if (self->syncing || row == NULL)
    return;
  method = strata_profile_row_get_method (row);
  if (method == STRATA_PROFILE_TOPLEVEL)
    return;

  self->syncing = TRUE;
  strata_session_set_selected_method (self->session, method);
  self->syncing = FALSE;
}

/* Finds the method's own row (not a parent or child row). */
static guint
find_method_position (StrataProfileView *self,
                      guint32            method)
{
  guint position = self->model != NULL ? strata_profile_model_find_method (self->model, method) : G_MAXUINT;

  return position == G_MAXUINT ? GTK_INVALID_LIST_POSITION : position;
}

/* Rows stay in their places while their content moves: after a sort,
 * filter or expansion the selection goes to where the selected method
 * is now. */
void
profile_view_follow_selected_method (StrataProfileView *self)
{
  guint32 method = strata_session_get_selected_method (self->session);
  guint position = method == STRATA_NO_METHOD ? GTK_INVALID_LIST_POSITION : find_method_position (self, method);
  StrataProfileRow *row = profile_view_selected_row (self);

  /* A parent or child row of the method may be the one selected. */
  if (row != NULL && strata_profile_row_get_method (row) == method)
    return;
  self->syncing = TRUE;
  gtk_single_selection_set_selected (self->selection, position);
  self->syncing = FALSE;
}

/* GTK 4.8 has no scrolling API for column views (its list's
 * "list.scroll-to-item" action leaves rows unrendered there): rows are of
 * one height, so the position gives the offset. */
void
profile_view_scroll_to_position (StrataProfileView *self,
                                 guint              position)
{
  GtkWidget *scroller = gtk_widget_get_parent (self->column_view);
  GtkAdjustment *adjustment;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->selection));
  double row_height, page;

  if (!GTK_IS_SCROLLED_WINDOW (scroller) || n == 0)
    return;
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  row_height = gtk_adjustment_get_upper (adjustment) / n;
  page = gtk_adjustment_get_page_size (adjustment);
  gtk_adjustment_set_value (adjustment, MAX (0, position * row_height - page / 3));
}

static void
select_position (StrataProfileView *self,
                 guint              position)
{
  self->syncing = TRUE;
  gtk_single_selection_set_selected (self->selection, position);
  self->syncing = FALSE;
  if (position != GTK_INVALID_LIST_POSITION)
    profile_view_scroll_to_position (self, position);
}

static void
session_method_changed_cb (StrataProfileView *self)
{
  guint32 method = strata_session_get_selected_method (self->session);
  StrataProfileRow *row = profile_view_selected_row (self);

  if (self->syncing || self->profile == NULL)
    return;
  if (row != NULL && strata_profile_row_get_method (row) == method)
    return;
  select_position (self, method == STRATA_NO_METHOD ? GTK_INVALID_LIST_POSITION
                                                    : find_method_position (self, method));
}

/* Enter or double-click: a method opens or closes; a parent or child row
 * jumps to that method's own row. */
static void
activate_cb (StrataProfileView *self,
             guint              position)
{
  g_autoptr(StrataProfileRow) row = g_list_model_get_item (G_LIST_MODEL (self->selection), position);
  guint32 method;

  if (row == NULL)
    return;
  if (strata_profile_row_get_kind (row) == STRATA_PROFILE_ROW_METHOD)
    {
      profile_view_set_expanded (self, position, !strata_profile_model_get_expanded (self->model, position));
      return;
    }

  method = strata_profile_row_get_method (row);
  if (method == STRATA_PROFILE_TOPLEVEL)
    return;
  if (find_method_position (self, method) == GTK_INVALID_LIST_POSITION)
    gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  select_position (self, find_method_position (self, method));
  strata_session_set_selected_method (self->session, method);
}

/* ---- Public ---- */

void
strata_profile_view_set_filter (StrataProfileView *self,
                                const char        *text)
{
  g_return_if_fail (STRATA_IS_PROFILE_VIEW (self));

  g_free (self->needle);
  self->needle = g_strdup (text);
  if (self->model != NULL)
    {
      strata_profile_model_set_filter (self->model, text);
      profile_view_follow_selected_method (self);
    }
  update_matches_label (self);
}

static void
search_changed_cb (StrataProfileView *self)
{
  strata_profile_view_set_filter (self, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
}

/**
 * strata_profile_view_select_match:
 * @backwards: the previous match rather than the next
 *
 * Moves the selection to the next (or previous) method row the filter
 * lets through, wrapping around; parent and child rows are skipped.
 *
 * Returns: FALSE when there is no method to go to
 */
gboolean
strata_profile_view_select_match (StrataProfileView *self,
                                  gboolean           backwards)
{
  GListModel *rows;
  guint n, current;

  g_return_val_if_fail (STRATA_IS_PROFILE_VIEW (self), FALSE);

  rows = G_LIST_MODEL (self->selection);
  n = g_list_model_get_n_items (rows);
  current = gtk_single_selection_get_selected (self->selection);
  for (guint step = 1; step <= n; step++)
    {
      guint position = current == GTK_INVALID_LIST_POSITION
                       ? (backwards ? n - step : step - 1)
                       : (backwards ? (current + n - step) % n : (current + step) % n);
      g_autoptr(StrataProfileRow) row = g_list_model_get_item (rows, position);

      if (strata_profile_row_get_kind (row) != STRATA_PROFILE_ROW_METHOD)
        continue;
      select_position (self, position);
      strata_session_set_selected_method (self->session, strata_profile_row_get_method (row));
      return TRUE;
    }
  return FALSE;
}

/* Enter and Ctrl+G: the next match; Shift+Enter and Shift+Ctrl+G: the
 * previous one. The focus stays in the entry to go on typing. */
static void
next_match_cb (StrataProfileView *self)
{
  if (!strata_profile_view_select_match (self, FALSE))
    gtk_widget_error_bell (self->search_entry);
}

static void
previous_match_cb (StrataProfileView *self)
{
  if (!strata_profile_view_select_match (self, TRUE))
    gtk_widget_error_bell (self->search_entry);
}

static gboolean
shift_enter_cb (GtkWidget *entry,
                GVariant  *args,
                gpointer   user_data)
{
  previous_match_cb (user_data);
  return TRUE;
}

/* Escape: a filter is cleared; an empty one hands the keys to the table. */
static void
stop_search_cb (StrataProfileView *self)
{
  if (*gtk_editable_get_text (GTK_EDITABLE (self->search_entry)) != '\0')
    gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  else
    gtk_widget_child_focus (self->column_view, GTK_DIR_TAB_FORWARD);
}

static void
add_shift_enter (StrataProfileView *self)
{
  GtkEventController *controller = gtk_shortcut_controller_new ();
  GtkShortcutAction *action = gtk_callback_action_new (shift_enter_cb, self, NULL);

  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Return, GDK_SHIFT_MASK), action));
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_KP_Enter, GDK_SHIFT_MASK),
                                                          g_object_ref (action)));
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  gtk_widget_add_controller (self->search_entry, controller);
}

guint
strata_profile_view_get_n_matches (StrataProfileView *self)
{
  g_return_val_if_fail (STRATA_IS_PROFILE_VIEW (self), 0);

  return self->model != NULL ? strata_profile_model_get_n_matches (self->model) : 0;
}

/**
 * strata_profile_view_get_profile:
 *
 * Returns: (transfer none) (nullable): the profile on show
 */
StrataProfile *
strata_profile_view_get_profile (StrataProfileView *self)
{
  g_return_val_if_fail (STRATA_IS_PROFILE_VIEW (self), NULL);

  return self->profile;
}

/**
 * strata_profile_view_get_rows:
 *
 * Returns: (transfer none): the rows as shown: sorted, filtered; each
 *   item a StrataProfileRow
 */
GListModel *
strata_profile_view_get_rows (StrataProfileView *self)
{
  g_return_val_if_fail (STRATA_IS_PROFILE_VIEW (self), NULL);

  return G_LIST_MODEL (self->selection);
}

/* Whether the method at @position shows its parents and children. */
gboolean
strata_profile_view_get_expanded (StrataProfileView *self,
                                  guint              position)
{
  g_return_val_if_fail (STRATA_IS_PROFILE_VIEW (self), FALSE);

  return self->model != NULL && strata_profile_model_get_expanded (self->model, position);
}

/**
 * strata_profile_view_get_column_view:
 *
 * Returns: (transfer none): the column view
 */
GtkColumnView *
strata_profile_view_get_column_view (StrataProfileView *self)
{
  g_return_val_if_fail (STRATA_IS_PROFILE_VIEW (self), NULL);

  return GTK_COLUMN_VIEW (self->column_view);
}

/* @column_id: "name", "incl-pct", "incl", "excl-pct", "excl", "calls" or
 * "per-call", then "-" and the clock. @order is the rows' order:
 * descending puts the largest number or the last name first. */
void
strata_profile_view_sort_by (StrataProfileView *self,
                             const char        *id,
                             GtkSortType        order)
{
  GListModel *columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (self->column_view));

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      const ColumnSpec *spec = g_object_get_data (G_OBJECT (gtk_column_view_column_get_factory (column)), "spec");

      if (g_strcmp0 (g_object_get_data (G_OBJECT (column), "strata-id"), id) != 0)
        continue;
      /* The headers' order is reversed for numbers; see probe_compare(). */
      if (spec->kind != COLUMN_NAME)
        order = order == GTK_SORT_ASCENDING ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING;
      gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (self->column_view), column, order);
    }
}

gboolean
strata_profile_view_expand_method (StrataProfileView *self,
                                   guint32            method)
{
  guint position = find_method_position (self, method);

  if (position == GTK_INVALID_LIST_POSITION)
    return FALSE;
  profile_view_set_expanded (self, position, TRUE);
  return TRUE;
}

/* ---- Session ---- */

static void
trace_changed_cb (StrataProfileView *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  self->columns_stale = TRUE;
  show_profile (self, NULL);
  fill_threads (self);
}

static void
profile_changed_cb (StrataProfileView *self)
{
  refresh_profile (self);
}

/* The same profile, with other names: its rows are made again. */
static void
names_changed_cb (StrataProfileView *self)
{
  g_clear_object (&self->profile);
  refresh_profile (self);
}

/* ---- GObject ---- */

/* The column headers' sorter picks the model's order; see apply_sort(). */
static void
build_models (StrataProfileView *self)
{
  GtkSorter *column_sorter = gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->column_view));

  self->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (GTK_COLUMN_VIEW (self->column_view), GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_object (self->selection, "notify::selected", G_CALLBACK (selection_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (column_sorter, "changed", G_CALLBACK (profile_view_apply_sort), self, G_CONNECT_SWAPPED);
}

GtkWidget *
strata_profile_view_new (StrataSession *session)
{
  StrataProfileView *self;

  g_return_val_if_fail (STRATA_IS_SESSION (session), NULL);

  self = g_object_new (STRATA_TYPE_PROFILE_VIEW, NULL);
  self->session = g_object_ref (session);
  g_signal_connect_object (session, "notify::trace", G_CALLBACK (trace_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::profile", G_CALLBACK (profile_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "names-changed", G_CALLBACK (names_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::selected-method", G_CALLBACK (session_method_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "selection-range-changed", G_CALLBACK (selection_range_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::profile-thread", G_CALLBACK (profile_thread_changed_cb),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::range-only", G_CALLBACK (refresh_profile), self, G_CONNECT_SWAPPED);
  trace_changed_cb (self);
  profile_changed_cb (self);

  return GTK_WIDGET (self);
}

static void
strata_profile_view_dispose (GObject *object)
{
  StrataProfileView *self = (StrataProfileView *)object;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->model);
  gtk_widget_dispose_template (GTK_WIDGET (self), STRATA_TYPE_PROFILE_VIEW);
  g_clear_object (&self->selection);
  g_clear_object (&self->profile);
  g_clear_object (&self->session);
  g_clear_object (&self->clock_columns);
  g_clear_pointer (&self->thread_indexes, g_array_unref);
  g_clear_pointer (&self->needle, g_free);

  G_OBJECT_CLASS (strata_profile_view_parent_class)->dispose (object);
}

static void
strata_profile_view_class_init (StrataProfileViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strata_profile_view_dispose;

  strata_profile_view_class_init_actions (widget_class);

  g_type_ensure (STRATA_TYPE_CELL_TEXT);
  strata_widgets_register_resources ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/stratatrace/Strata/strata-profile-view.ui");
  gtk_widget_class_bind_template_child (widget_class, StrataProfileView, box);
  gtk_widget_class_bind_template_child (widget_class, StrataProfileView, search_entry);
  gtk_widget_class_bind_template_child (widget_class, StrataProfileView, matches_label);
  gtk_widget_class_bind_template_child (widget_class, StrataProfileView, busy_box);
  gtk_widget_class_bind_template_child (widget_class, StrataProfileView, range_button);
  gtk_widget_class_bind_template_child (widget_class, StrataProfileView, thread_dropdown);
  gtk_widget_class_bind_template_child (widget_class, StrataProfileView, thread_names);
  gtk_widget_class_bind_template_child (widget_class, StrataProfileView, column_view);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, next_match_cb);
  gtk_widget_class_bind_template_callback (widget_class, previous_match_cb);
  gtk_widget_class_bind_template_callback (widget_class, stop_search_cb);
  gtk_widget_class_bind_template_callback (widget_class, thread_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, activate_cb);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "profileview");
}

static void
strata_profile_view_init (StrataProfileView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  strata_accessible_name_children (self->thread_dropdown, _("Thread"));
  add_shift_enter (self);
  strata_accessible_name_children (self->column_view, _("Profile"));

  self->thread_indexes = g_array_new (FALSE, FALSE, sizeof (guint));
  build_models (self);
  self->clock_columns = strata_clock_columns_new (GTK_WIDGET (self));
}
