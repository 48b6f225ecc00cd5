/* strata-events-view.c: the Events page, every event of a Trace Event
 * file in a table
 *
 * As Perfetto's slice table and Firefox Profiler's marker table: each
 * slice, instant, async and object event with its start, duration, name,
 * category, thread and args, sortable by any column but args, filtered
 * by text, cut to the timeline's selected range when there is one. The
 * selection is the timeline's: a row picked here is selected there, and
 * a call or event picked there is found here; Enter zooms to it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-accessible.h"
#include "strata-event-table-row.h"
#include "strata-events-view.h"
#include "strata-table-column.h"
#include "strata-units.h"

typedef enum
{
  COLUMN_START,
  COLUMN_DURATION,
  COLUMN_NAME,
  COLUMN_CATEGORY,
  COLUMN_THREAD,
  N_SORTED_COLUMNS,
} Column;

struct _StrataEventsView
{
  GtkWidget           parent_instance;

  StrataSession      *session;
  StrataEventTable   *table;
  gboolean            stale;      /* the trace or range changed while hidden */
  gboolean            syncing;

  GtkWidget          *box;
  GtkWidget          *entry;
  GtkWidget          *status;
  GtkWidget          *column_view;
  GtkSingleSelection *selection;
};

G_DEFINE_FINAL_TYPE (StrataEventsView, strata_events_view, GTK_TYPE_WIDGET)

/* ---- Cells ---- */

static char *
cell_text (gpointer row,
           gpointer data)
{
  StrataEventsView *self = g_object_get_data (G_OBJECT (data), "strata-events-view");
  Column column = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (data), "strata-column"));
  const StrataEventTableEntry *entry = strata_event_table_row_get (row);
  gint64 duration;

  if (self->table == NULL)
    return NULL;
  switch (column)
    {
    case COLUMN_START:
      return strata_units_format_duration (strata_event_table_entry_start (self->table, entry) -
                                           strata_trace_get_start (strata_event_table_get_trace (self->table)));
    case COLUMN_DURATION:
      duration = strata_event_table_entry_duration (self->table, entry);
      /* An instant has no duration, not one of 0 s. */
      return duration > 0 || entry->thread != STRATA_NO_THREAD ? strata_units_format_duration (duration) : NULL;
    case COLUMN_NAME:
      return g_strdup (strata_event_table_entry_name (self->table, entry));
    case COLUMN_CATEGORY:
      return g_strdup (strata_event_table_entry_category (self->table, entry));
    case COLUMN_THREAD:
    default:
      return g_strdup (strata_event_table_entry_thread (self->table, entry));
    }
}

/* Args come from the file a batch at a time: the cell asks again when
 * the table says a batch came in. */
static void
bind_args (GtkListItem *item)
{
  StrataEventsView *self = g_object_get_data (G_OBJECT (item), "strata-events-view");
  gpointer row = gtk_list_item_get_item (item);
  GtkWidget *label = gtk_list_item_get_child (item);
  const char *args = NULL;

  if (label == NULL)
    return;
  if (row != NULL && self->table != NULL)
    args = strata_event_table_entry_args (self->table, strata_event_table_row_get (row));
  gtk_label_set_text (GTK_LABEL (label), args != NULL ? args : "…");
}

static void
setup_args_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               StrataEventsView         *self)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  gtk_list_item_set_child (item, label);
  g_object_set_data (G_OBJECT (item), "strata-events-view", self);
}

static void
bind_args_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              StrataEventsView         *self)
{
  gulong id = g_signal_connect_swapped (self->table, "args-read", G_CALLBACK (bind_args), item);

  g_object_set_data (G_OBJECT (item), "strata-args-handler", GSIZE_TO_POINTER (id));
  g_object_set_data_full (G_OBJECT (item), "strata-args-table", g_object_ref (self->table), g_object_unref);
  bind_args (item);
}

static void
unbind_args_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *item,
                StrataEventsView         *self)
{
  GObject *table = g_object_get_data (G_OBJECT (item), "strata-args-table");

  if (table != NULL)
    g_signal_handler_disconnect (table, GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (item), "strata-args-handler")));
  g_object_set_data (G_OBJECT (item), "strata-args-table", NULL);
}

static void
add_args_column (StrataEventsView *self)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkColumnViewColumn) column = NULL;

  g_signal_connect (factory, "setup", G_CALLBACK (setup_args_cb), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_args_cb), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_args_cb), self);
  column = gtk_column_view_column_new (_("Args"), factory);
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_column_set_expand (column, TRUE);
  gtk_column_view_append_column (GTK_COLUMN_VIEW (self->column_view), column);
}

static void
add_column (StrataEventsView *self,
            const char       *title,
            Column            column,
            int               fixed_width)
{
  g_autoptr(GtkColumnViewColumn) view_column = NULL;
  /* The column carries what its cells need: the view and which column. */
  GObject *spec = g_object_new (G_TYPE_OBJECT, NULL);

  g_object_set_data (spec, "strata-events-view", self);
  g_object_set_data (spec, "strata-column", GINT_TO_POINTER (column));
  view_column = strata_table_column_new (title, column <= COLUMN_DURATION ? STRATA_TABLE_CELL_NUMBER : STRATA_TABLE_CELL_TEXT,
                                         cell_text, spec, strata_table_column_sorter_new (column, NULL, NULL));
  g_object_set_data_full (G_OBJECT (view_column), "strata-column-spec", spec, g_object_unref);
  if (fixed_width > 0)
    gtk_column_view_column_set_fixed_width (view_column, fixed_width);
  gtk_column_view_append_column (GTK_COLUMN_VIEW (self->column_view), view_column);
}

/* ---- The list ---- */

static void
update_status (StrataEventsView *self)
{
  g_autofree char *shown = NULL, *all = NULL, *text = NULL;
  guint n_shown, n_all;
  gboolean ranged;

  if (self->table == NULL)
    {
      gtk_label_set_text (GTK_LABEL (self->status), "");
      return;
    }
  n_shown = g_list_model_get_n_items (G_LIST_MODEL (self->table));
  n_all = strata_event_table_get_n_all (self->table);
  shown = strata_units_format_count (n_shown);
  all = strata_units_format_count (n_all);
  ranged = strata_session_get_selection_range (self->session, NULL, NULL);
  if (n_shown == n_all)
    /* Translators: how many events the Events page lists */
    text = g_strdup_printf (ngettext ("%s event", "%s events", n_all), all);
  else if (ranged)
    /* Translators: events listed, of all, in the timeline's selected range */
    text = g_strdup_printf (ngettext ("%s of %s event, in the selected range", "%s of %s events, in the selected range", n_all),
                            shown, all);
  else
    /* Translators: events listed, of all */
    text = g_strdup_printf (ngettext ("%s of %s event", "%s of %s events", n_all), shown, all);
  gtk_label_set_text (GTK_LABEL (self->status), text);
}

static void follow_selected_item (StrataEventsView *self);

static void
sorter_changed_cb (StrataEventsView *self)
{
  gboolean descending;
  int column;

  if (self->table == NULL)
    return;
  /* The table sorts itself: the header only says by what. */
  column = strata_table_column_probe_sort (gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->column_view)), &descending);
  self->syncing = TRUE;
  if (column < 0)
    strata_event_table_sort (self->table, STRATA_EVENT_TABLE_BY_START, FALSE);
  else
    strata_event_table_sort (self->table, (StrataEventTableSort) column, descending);
  self->syncing = FALSE;
  follow_selected_item (self);
}

static void
row_selected_cb (StrataEventsView *self)
{
  StrataEventTableRow *row = gtk_single_selection_get_selected_item (self->selection);
  const StrataEventTableEntry *entry;

  if (self->syncing || row == NULL)
    return;
  entry = strata_event_table_row_get (row);
  self->syncing = TRUE;
  if (entry->thread == STRATA_NO_THREAD)
    strata_session_select_event (self->session, entry->index);
  else
    strata_session_select_call (self->session, &(StrataSliceRef) { entry->thread, entry->depth, entry->index });
  self->syncing = FALSE;
}

/* The list inside the column view, whose "list.scroll-to-item" action
 * scrolls a row into view: GTK 4.8 has no API for column views to do it. */
static void
scroll_to (StrataEventsView *self,
           guint             position)
{
#if GTK_CHECK_VERSION (4, 12, 0)
  gtk_column_view_scroll_to (GTK_COLUMN_VIEW (self->column_view), position, NULL, GTK_LIST_SCROLL_NONE, NULL);
#else
  for (GtkWidget *child = gtk_widget_get_first_child (self->column_view); child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      gtk_widget_activate_action (child, "list.scroll-to-item", "u", position);
#endif
}

/* The timeline's selection, found in the list. */
static void
follow_selected_item (StrataEventsView *self)
{
  StrataEventTableEntry entry = { STRATA_NO_THREAD, 0, 0 };
  StrataSliceRef call;
  guint event, position = GTK_INVALID_LIST_POSITION;
  StrataSelectedKind kind;

  if (self->table == NULL || self->syncing)
    return;
  kind = strata_session_get_selected_item (self->session, &call, &event);
  if (kind == STRATA_SELECTED_CALL)
    entry = (StrataEventTableEntry) { call.thread, call.depth, call.index };
  else if (kind == STRATA_SELECTED_EVENT)
    entry.index = event;
  if (kind == STRATA_SELECTED_CALL || kind == STRATA_SELECTED_EVENT)
    position = strata_event_table_find (self->table, &entry);
  self->syncing = TRUE;
  gtk_single_selection_set_selected (self->selection, position);
  self->syncing = FALSE;
  if (position != GTK_INVALID_LIST_POSITION)
    scroll_to (self, position);
}

static void
apply_range (StrataEventsView *self)
{
  gint64 start, end;

  self->syncing = TRUE;
  if (strata_session_get_selection_range (self->session, &start, &end))
    strata_event_table_set_range (self->table, start, end);
  else
    strata_event_table_clear_range (self->table);
  self->syncing = FALSE;
}

/* Built when first shown: a file's millions of events cost nothing
 * until someone looks at them. */
static void
refresh (StrataEventsView *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);

  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->stale = TRUE;
      return;
    }
  self->stale = FALSE;
  if (trace != NULL && (self->table == NULL || strata_event_table_get_trace (self->table) != trace))
    {
      g_set_object (&self->table, strata_event_table_new (trace));
      g_object_unref (self->table);
      strata_event_table_set_filter (self->table, gtk_editable_get_text (GTK_EDITABLE (self->entry)));
      self->syncing = TRUE;
      gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->table));
      self->syncing = FALSE;
      sorter_changed_cb (self);
    }
  if (self->table != NULL)
    apply_range (self);
  update_status (self);
  follow_selected_item (self);
}

static void
trace_changed_cb (StrataEventsView *self)
{
  self->syncing = TRUE;
  gtk_single_selection_set_model (self->selection, NULL);
  self->syncing = FALSE;
  g_clear_object (&self->table);
  refresh (self);
}

static void
range_changed_cb (StrataEventsView *self)
{
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)) || self->table == NULL)
    {
      self->stale = TRUE;
      return;
    }
  apply_range (self);
  update_status (self);
  follow_selected_item (self);
}

static void
selected_item_changed_cb (StrataEventsView *self)
{
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    follow_selected_item (self);
}

static void
filter_changed_cb (StrataEventsView *self)
{
  if (self->table == NULL)
    return;
  self->syncing = TRUE;
  strata_event_table_set_filter (self->table, gtk_editable_get_text (GTK_EDITABLE (self->entry)));
  self->syncing = FALSE;
  update_status (self);
  follow_selected_item (self);
}

/**
 * strata_events_view_activate:
 *
 * As Enter or a double click on the row at @position: selects its event
 * in the timeline and zooms to it.
 */
void
strata_events_view_activate (StrataEventsView *self,
                             guint             position)
{
  g_return_if_fail (STRATA_IS_EVENTS_VIEW (self));

  strata_events_view_select (self, position);
  strata_session_zoom_to_selected_item (self->session);
}

/* ---- Building ---- */

static void
build (StrataEventsView *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *scroller = gtk_scrolled_window_new ();

  self->entry = gtk_search_entry_new ();
  g_object_set (self->entry, "placeholder-text", _("Filter by name, category or thread"), NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->entry), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Filter Events"), -1);
  gtk_widget_set_size_request (self->entry, 320, -1);
  g_signal_connect_swapped (self->entry, "search-changed", G_CALLBACK (filter_changed_cb), self);
  self->status = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->status), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->status), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (self->status, "dim-label");
  gtk_widget_set_hexpand (self->status, TRUE);
  gtk_box_append (GTK_BOX (bar), self->entry);
  gtk_box_append (GTK_BOX (bar), self->status);
  g_object_set (bar, "margin-start", 6, "margin-end", 6, "margin-top", 6, NULL);

  self->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (row_selected_cb), self);
  self->column_view = gtk_column_view_new (GTK_SELECTION_MODEL (g_object_ref (self->selection)));
  gtk_widget_add_css_class (self->column_view, "data-table");
  strata_accessible_name_children (self->column_view, _("Events"));
  add_column (self, _("Start"), COLUMN_START, 110);
  add_column (self, _("Duration"), COLUMN_DURATION, 100);
  add_column (self, _("Name"), COLUMN_NAME, 240);
  add_column (self, _("Category"), COLUMN_CATEGORY, 150);
  add_column (self, _("Thread"), COLUMN_THREAD, 200);
  add_args_column (self);
  g_signal_connect_swapped (gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->column_view)), "changed",
                            G_CALLBACK (sorter_changed_cb), self);
  g_signal_connect_swapped (self->column_view, "activate", G_CALLBACK (strata_events_view_activate), self);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->column_view);
  gtk_widget_set_vexpand (scroller, TRUE);

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_box_append (GTK_BOX (self->box), bar);
  gtk_box_append (GTK_BOX (self->box), scroller);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
}

static void
strata_events_view_dispose (GObject *object)
{
  StrataEventsView *self = STRATA_EVENTS_VIEW (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->selection);
  g_clear_object (&self->table);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (strata_events_view_parent_class)->dispose (object);
}

static void
strata_events_view_map (GtkWidget *widget)
{
  StrataEventsView *self = STRATA_EVENTS_VIEW (widget);

  GTK_WIDGET_CLASS (strata_events_view_parent_class)->map (widget);
  if (self->stale)
    refresh (self);
}

static void
strata_events_view_class_init (StrataEventsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strata_events_view_dispose;
  widget_class->map = strata_events_view_map;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "eventsview");
}

static void
strata_events_view_init (StrataEventsView *self)
{
  self->stale = TRUE;
  build (self);
}

GtkWidget *
strata_events_view_new (StrataSession *session)
{
  StrataEventsView *self;

  g_return_val_if_fail (STRATA_IS_SESSION (session), NULL);

  self = g_object_new (STRATA_TYPE_EVENTS_VIEW, NULL);
  self->session = g_object_ref (session);
  g_signal_connect_object (session, "notify::trace", G_CALLBACK (trace_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "names-changed", G_CALLBACK (trace_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "selection-range-changed", G_CALLBACK (range_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "selected-item-changed", G_CALLBACK (selected_item_changed_cb), self, G_CONNECT_SWAPPED);
  return GTK_WIDGET (self);
}

/* Returns: (transfer none) (nullable): the events on show */
StrataEventTable *
strata_events_view_get_table (StrataEventsView *self)
{
  g_return_val_if_fail (STRATA_IS_EVENTS_VIEW (self), NULL);

  return self->table;
}

/* Returns: the selected row's position, or GTK_INVALID_LIST_POSITION */
guint
strata_events_view_get_selected (StrataEventsView *self)
{
  g_return_val_if_fail (STRATA_IS_EVENTS_VIEW (self), GTK_INVALID_LIST_POSITION);

  return gtk_single_selection_get_selected (self->selection);
}

/* As a click on the row at @position: its event is selected everywhere. */
void
strata_events_view_select (StrataEventsView *self,
                           guint             position)
{
  g_return_if_fail (STRATA_IS_EVENTS_VIEW (self));

  gtk_single_selection_set_selected (self->selection, position);
}

void
strata_events_view_set_filter (StrataEventsView *self,
                               const char       *text)
{
  g_return_if_fail (STRATA_IS_EVENTS_VIEW (self));

  gtk_editable_set_text (GTK_EDITABLE (self->entry), text);
  filter_changed_cb (self);
}

/* The line above the list: "120 of 5,000 events, in the selected range". */
const char *
strata_events_view_get_status (StrataEventsView *self)
{
  g_return_val_if_fail (STRATA_IS_EVENTS_VIEW (self), NULL);

  return gtk_label_get_text (GTK_LABEL (self->status));
}
