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
#include "strata-profile-model.h"
#include "strata-profile-view.h"
#include "strata-units.h"
#include "strata-widgets.h"

#define SWATCH_SIZE 12   /* as in strata-profile-name-cell.ui */
#define NAME_CELL_UI "/io/github/stratatrace/Strata/strata-profile-name-cell.ui"
#define NUMBER_CELL_UI "/io/github/stratatrace/Strata/strata-profile-number-cell.ui"
#define NAME_COLUMN_WIDTH 420
#define NUMBER_COLUMN_WIDTH 96

typedef enum
{
  COLUMN_NAME,
  COLUMN_INCL_PCT,
  COLUMN_INCL,
  COLUMN_EXCL_PCT,
  COLUMN_EXCL,
  COLUMN_CALLS,
  COLUMN_PER_CALL,
} ColumnKind;

typedef struct
{
  ColumnKind         kind;
  guint              clock;
  StrataProfileView *view;
} ColumnSpec;

struct _StrataProfileView
{
  GtkWidget           parent_instance;

  StrataSession      *session;
  StrataProfile      *profile;       /* the one on show: whole trace or a thread */
  GCancellable       *cancellable;

  GtkWidget          *box;
  GtkWidget          *search_entry;
  GtkWidget          *matches_label;
  GtkWidget          *busy_box;       /* shown while a profile is computed */
  GtkWidget          *thread_dropdown;
  GtkWidget          *range_button;
  GtkStringList      *thread_names;
  GArray             *thread_indexes; /* dropdown position - 1 -> thread */
  GtkWidget          *column_view;
  StrataProfileModel *model;
  GtkSingleSelection *selection;
  const ColumnSpec   *probed;        /* see apply_sort() */
  GMenu              *column_menu;   /* which clocks have columns on show */
  GSimpleActionGroup *column_actions;
  gboolean            columns_stale; /* a new trace: its clocks decide the columns */
  char               *needle;
  gboolean            syncing;
};

G_DEFINE_FINAL_TYPE (StrataProfileView, strata_profile_view, GTK_TYPE_WIDGET)

static void follow_selected_method (StrataProfileView *self);

/* ---- Cells ---- */

static char *
format_time (StrataProfileRow *row,
             gint64            time)
{
  if (time < 0)
    return g_strdup ("");
  return strata_units_format_duration (time);
}

static char *
cell_text (StrataProfileView *self,
           StrataProfileRow  *row,
           const ColumnSpec  *spec)
{
  gint64 total = spec->clock < strata_profile_get_n_clocks (self->profile)
                 ? strata_profile_get_total (self->profile, spec->clock) : 0;
  gboolean edge = strata_profile_row_get_kind (row) != STRATA_PROFILE_ROW_METHOD;

  switch (spec->kind)
    {
    case COLUMN_INCL_PCT:
      return strata_units_format_percent (strata_profile_row_get_inclusive (row, spec->clock), total);
    case COLUMN_INCL:
      return format_time (row, strata_profile_row_get_inclusive (row, spec->clock));
    case COLUMN_EXCL_PCT:
      return edge ? g_strdup ("") : strata_units_format_percent (strata_profile_row_get_exclusive (row, spec->clock), total);
    case COLUMN_EXCL:
      return format_time (row, strata_profile_row_get_exclusive (row, spec->clock));
    case COLUMN_CALLS:
      if (edge)
        /* Calls through one caller/callee edge, out of all calls to the callee */
        return g_strdup_printf ("%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT,
                                strata_profile_row_get_calls (row), strata_profile_row_get_total_calls (row));
      return g_strdup_printf ("%" G_GUINT64_FORMAT "+%" G_GUINT64_FORMAT,
                              strata_profile_row_get_calls (row), strata_profile_row_get_recursive_calls (row));
    case COLUMN_PER_CALL:
      return format_time (row, strata_profile_row_get_time_per_call (row, spec->clock));
    case COLUMN_NAME:
    default:
      return g_strdup (strata_profile_row_get_name (row));
    }
}

static void
draw_swatch (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        user_data)
{
  StrataProfileView *self = user_data;
  guint32 method = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (area), "method"));
  const guint8 *colors = strata_session_get_colors (self->session);
  const StrataColor *color;

  if (method == STRATA_PROFILE_TOPLEVEL || colors == NULL ||
      method >= strata_trace_get_n_methods (strata_session_get_trace (self->session)))
    return;
  color = strata_palette_get_color (colors[method]);
  cairo_set_source_rgb (cr, color->red, color->green, color->blue);
  cairo_rectangle (cr, 0, (height - SWATCH_SIZE) / 2, SWATCH_SIZE, SWATCH_SIZE);
  cairo_fill (cr);
}

static void
update_arrow (StrataProfileRow *row,
              GtkWidget        *arrow)
{
  gboolean expanded = strata_profile_row_get_expanded (row);

  gtk_image_set_from_icon_name (GTK_IMAGE (arrow), expanded ? "pan-down-symbolic" : "pan-end-symbolic");
  gtk_accessible_update_state (GTK_ACCESSIBLE (arrow), GTK_ACCESSIBLE_STATE_EXPANDED, expanded, -1);
}

/* The cells' templates are in the resources (strata-profile-*-cell.ui);
 * their handlers get the column's ColumnSpec last, see StrataCellScope. */

static void
arrow_pressed (GtkGestureClick  *gesture,
               int               n_press,
               double            x,
               double            y,
               const ColumnSpec *spec)
{
  GtkWidget *arrow = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  GtkListItem *item = g_object_get_data (G_OBJECT (arrow), "strata-item");
  StrataProfileView *self = spec->view;
  guint position = item != NULL ? gtk_list_item_get_position (item) : GTK_INVALID_LIST_POSITION;

  if (self->model == NULL || position == GTK_INVALID_LIST_POSITION)
    return;
  strata_profile_model_set_expanded (self->model, position,
                                     !strata_profile_model_get_expanded (self->model, position));
  follow_selected_method (self);
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

/* Long names are cut in the middle; the tooltip has them whole. It is
 * made when asked for: setting one on every fill costs more than the
 * fill. */
static gboolean
name_tooltip (GtkWidget        *label,
              int               x,
              int               y,
              gboolean          keyboard,
              GtkTooltip       *tooltip,
              const ColumnSpec *spec)
{
  const char *text = strata_cell_text_get_text (STRATA_CELL_TEXT (label));

  if (text == NULL || *text == '\0')
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* GTK 4.8 names a column view row after its widget type; screen readers
 * get what the row is instead: kind, name, share of the first clock and
 * calls. The row is the cell's grandparent, found by its role. */
static void
label_row_for_screen_readers (StrataProfileView *self,
                              GtkWidget         *cell_child,
                              StrataProfileRow  *row,
                              gboolean           expandable)
{
  GtkWidget *widget = cell_child;
  gint64 total = strata_profile_get_n_clocks (self->profile) > 0 ? strata_profile_get_total (self->profile, 0) : 0;
  const char *name = strata_profile_row_get_name (row);
  g_autofree char *percent = NULL;
  g_autofree char *calls = NULL;
  g_autofree char *more = NULL;
  g_autofree char *label = NULL;

  while (widget != NULL && gtk_accessible_get_accessible_role (GTK_ACCESSIBLE (widget)) != GTK_ACCESSIBLE_ROLE_ROW)
    widget = gtk_widget_get_parent (widget);
  if (widget == NULL)
    return;
  percent = strata_units_format_percent (strata_profile_row_get_inclusive (row, 0), total);
  calls = strata_units_format_count (strata_profile_row_get_calls (row));
  switch (strata_profile_row_get_kind (row))
    {
    case STRATA_PROFILE_ROW_PARENT:
      more = strata_units_format_count (strata_profile_row_get_total_calls (row));
      /* Translators: a caller of the expanded method: name, share of the
       * time, calls through it out of all calls to the method */
      label = g_strdup_printf (_("Parent %s, %s inclusive, %s of %s calls"), name, percent, calls, more);
      break;
    case STRATA_PROFILE_ROW_CHILD:
      more = strata_units_format_count (strata_profile_row_get_total_calls (row));
      /* Translators: a callee of the expanded method, as for "Parent" */
      label = g_strdup_printf (_("Child %s, %s inclusive, %s of %s calls"), name, percent, calls, more);
      break;
    case STRATA_PROFILE_ROW_METHOD:
    default:
      more = strata_units_format_count (strata_profile_row_get_recursive_calls (row));
      /* Translators: a method: name, share of the time, calls + recursive calls */
      label = g_strdup_printf (_("%s, %s inclusive, %s+%s calls"), name, percent, calls, more);
      break;
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  if (expandable)
    gtk_accessible_update_state (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_STATE_EXPANDED,
                                 strata_profile_row_get_expanded (row), -1);
}

/* An arrow for methods that have parents or children, an indent for
 * those rows themselves. */
static void
bind_name (StrataProfileView *self,
           GtkListItem       *item,
           StrataProfileRow  *row,
           const char        *text)
{
  GtkWidget *box = gtk_list_item_get_child (item);
  GtkWidget *arrow = gtk_widget_get_first_child (box);
  GtkWidget *swatch = gtk_widget_get_next_sibling (arrow);
  GtkWidget *label = gtk_widget_get_last_child (box);
  gboolean method = strata_profile_row_get_kind (row) == STRATA_PROFILE_ROW_METHOD;
  gboolean expandable = method && strata_profile_model_is_expandable (self->model, gtk_list_item_get_position (item));

  gtk_widget_set_margin_start (box, method ? 0 : 2 * SWATCH_SIZE);
  gtk_widget_set_visible (arrow, method);
  gtk_widget_set_opacity (arrow, expandable ? 1 : 0);
  if (method)
    update_arrow (row, arrow);
  g_object_set_data (G_OBJECT (arrow), "strata-item", item);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (swatch), draw_swatch, self, NULL);
  g_object_set_data (G_OBJECT (swatch), "method", GUINT_TO_POINTER (strata_profile_row_get_method (row)));
  gtk_widget_queue_draw (swatch);
  strata_cell_text_set_text (STRATA_CELL_TEXT (label), text);
  label_row_for_screen_readers (self, box, row, expandable);
}

static void
set_kind_class (GtkWidget        *widget,
                StrataProfileRow *row)
{
  StrataProfileRowKind kind = strata_profile_row_get_kind (row);

  gtk_widget_remove_css_class (widget, "profile-parent");
  gtk_widget_remove_css_class (widget, "profile-child");
  if (kind == STRATA_PROFILE_ROW_PARENT)
    gtk_widget_add_css_class (widget, "profile-parent");
  else if (kind == STRATA_PROFILE_ROW_CHILD)
    gtk_widget_add_css_class (widget, "profile-child");
}

/* Fills the cell from its row; again whenever the row is pointed at
 * other content (the list was sorted or filtered). */
static void
fill_cell (StrataProfileRow *row,
           GtkListItem      *item)
{
  const ColumnSpec *spec = g_object_get_data (G_OBJECT (item), "spec");
  GtkWidget *child = gtk_list_item_get_child (item);
  g_autofree char *text = cell_text (spec->view, row, spec);

  if (spec->kind == COLUMN_NAME)
    bind_name (spec->view, item, row, text);
  else
    strata_cell_text_set_text (STRATA_CELL_TEXT (child), text);
  set_kind_class (child, row);
}

/* A cell shows another row, or none: it follows the new one. */
static void
cell_item_changed (GtkListItem      *item,
                   GParamSpec       *pspec,
                   const ColumnSpec *spec)
{
  StrataProfileRow *old = g_object_get_data (G_OBJECT (item), "strata-row");
  StrataProfileRow *row = gtk_list_item_get_item (item);

  if (old == row)
    return;
  if (old != NULL)
    g_signal_handlers_disconnect_by_func (old, fill_cell, item);
  g_object_set_data (G_OBJECT (item), "spec", (gpointer) spec);
  g_object_set_data_full (G_OBJECT (item), "strata-row", row ? g_object_ref (row) : NULL, g_object_unref);
  if (row == NULL)
    return;
  fill_cell (row, item);
  g_signal_connect_object (row, "changed", G_CALLBACK (fill_cell), item, 0);
}

/* ---- Sorting ---- */

/* Each column's sorter only says which column it is: the model sorts.
 * GTK 4.8 has no call for the column view's sort column, so apply_sort()
 * asks the view's sorter to compare two items and notes the first column
 * sorter it consults, that is the primary one; the sign of the answer
 * gives the order. A first click on a header sorts "ascending": names
 * A to Z, numbers largest first, as a profile is read. */
static int
probe_compare (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const ColumnSpec *spec = user_data;

  if (spec->view->probed == NULL)
    spec->view->probed = spec;
  return spec->kind == COLUMN_NAME ? GTK_ORDERING_SMALLER : GTK_ORDERING_LARGER;
}

static StrataProfileSortKey
sort_key (ColumnKind kind)
{
  switch (kind)
    {
    case COLUMN_NAME:
      return STRATA_PROFILE_SORT_NAME;
    case COLUMN_EXCL_PCT:
    case COLUMN_EXCL:
      return STRATA_PROFILE_SORT_EXCLUSIVE;
    case COLUMN_CALLS:
      return STRATA_PROFILE_SORT_CALLS;
    case COLUMN_PER_CALL:
      return STRATA_PROFILE_SORT_PER_CALL;
    case COLUMN_INCL_PCT:
    case COLUMN_INCL:
    default:
      return STRATA_PROFILE_SORT_INCLUSIVE;
    }
}

static void
apply_sort (StrataProfileView *self)
{
  GtkSorter *sorter;
  GtkOrdering order;

  /* Also called while the view is taken down, as its columns go. */
  if (self->model == NULL || self->column_view == NULL)
    return;
  sorter = gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->column_view));
  self->probed = NULL;
  /* Two different objects: a sorter finds any item equal to itself. */
  order = gtk_sorter_compare (sorter, self, self->selection);
  if (self->probed == NULL)
    strata_profile_model_set_sort (self->model, STRATA_PROFILE_SORT_INCLUSIVE, 0, TRUE);
  else
    strata_profile_model_set_sort (self->model, sort_key (self->probed->kind), self->probed->clock,
                                   order == GTK_ORDERING_LARGER);
  follow_selected_method (self);
  self->probed = NULL;
}

/* ---- Columns ---- */

static const char *
column_title (ColumnKind kind)
{
  switch (kind)
    {
    case COLUMN_INCL_PCT:
      return _("Incl %");
    case COLUMN_INCL:
      return _("Incl");
    case COLUMN_EXCL_PCT:
      return _("Excl %");
    case COLUMN_EXCL:
      return _("Excl");
    case COLUMN_CALLS:
      return _("Calls+Rec");
    case COLUMN_PER_CALL:
      return _("Time/Call");
    case COLUMN_NAME:
    default:
      return _("Name");
    }
}

static const char *
column_id (ColumnKind kind)
{
  static const char *ids[] = { "name", "incl-pct", "incl", "excl-pct", "excl", "calls", "per-call" };

  return ids[kind];
}

static GtkColumnViewColumn *
create_column (StrataProfileView *self,
               ColumnKind         kind,
               guint              clock,
               gboolean           two_clocks)
{
  ColumnSpec *spec = g_new0 (ColumnSpec, 1);
  g_autoptr(StrataCellScope) scope = strata_cell_scope_new (spec);
  GtkListItemFactory *factory;
  g_autofree char *title = NULL;
  g_autofree char *id = NULL;
  GtkColumnViewColumn *column;
  g_autoptr(GtkSorter) sorter = NULL;
  StrataTrace *trace = strata_profile_get_trace (self->profile);

  spec->kind = kind;
  spec->clock = clock;
  spec->view = self;
  gtk_builder_cscope_add_callback_symbols (GTK_BUILDER_CSCOPE (scope),
                                           "cell_item_changed", G_CALLBACK (cell_item_changed),
                                           "arrow_pressed", G_CALLBACK (arrow_pressed),
                                           "name_tooltip", G_CALLBACK (name_tooltip),
                                           NULL);
  factory = gtk_builder_list_item_factory_new_from_resource (GTK_BUILDER_SCOPE (scope),
                                                             kind == COLUMN_NAME ? NAME_CELL_UI : NUMBER_CELL_UI);
  g_object_set_data_full (G_OBJECT (factory), "spec", spec, g_free);

  if (two_clocks && kind != COLUMN_NAME && kind != COLUMN_CALLS)
    /* Translators: a column title and the clock it is on, e.g. "Incl CPU" */
    title = g_strdup_printf (_("%s %s"), column_title (kind),
                             strata_trace_get_clock_kind (trace, clock) == STRATA_CLOCK_THREAD_CPU
                             ? C_("clock", "CPU") : C_("clock", "Wall"));
  else
    title = g_strdup (column_title (kind));

  column = gtk_column_view_column_new (title, factory);
  id = g_strdup_printf ("%s-%u", column_id (kind), clock);
  g_object_set_data_full (G_OBJECT (column), "strata-id", g_steal_pointer (&id), g_free);
  if (two_clocks && kind != COLUMN_NAME && kind != COLUMN_CALLS)
    g_object_set_data (G_OBJECT (column), "strata-clock", GUINT_TO_POINTER (clock + 1));
  if (two_clocks)
    gtk_column_view_column_set_header_menu (column, G_MENU_MODEL (self->column_menu));
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_column_set_expand (column, kind == COLUMN_NAME);
  gtk_column_view_column_set_fixed_width (column, kind == COLUMN_NAME ? NAME_COLUMN_WIDTH : NUMBER_COLUMN_WIDTH);
  sorter = GTK_SORTER (gtk_custom_sorter_new (probe_compare, spec, NULL));
  gtk_column_view_column_set_sorter (column, sorter);
  return column;
}

static void
remove_columns (StrataProfileView *self)
{
  GListModel *columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (self->column_view));
  guint n;

  while ((n = g_list_model_get_n_items (columns)) > 0)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, n - 1);

      gtk_column_view_remove_column (GTK_COLUMN_VIEW (self->column_view), column);
    }
}

/* ---- Column menu: show or hide each clock's columns ---- */

static void
show_clock_columns (StrataProfileView *self,
                    guint              clock,
                    gboolean           visible)
{
  GListModel *columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (self->column_view));

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (column), "strata-clock")) == clock + 1)
        gtk_column_view_column_set_visible (column, visible);
    }
}

/* One clock's columns always stay: hiding both would leave only names. */
static void
change_clock_state_cb (GSimpleAction *action,
                       GVariant      *state,
                       gpointer       user_data)
{
  StrataProfileView *self = user_data;
  guint clock = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (action), "strata-clock"));
  g_autofree char *other_name = g_strdup_printf ("show-clock-%u", 1 - clock);
  GAction *other = g_action_map_lookup_action (G_ACTION_MAP (self->column_actions), other_name);
  g_autoptr(GVariant) other_state = other != NULL ? g_action_get_state (other) : NULL;

  if (!g_variant_get_boolean (state) && (other_state == NULL || !g_variant_get_boolean (other_state)))
    return;
  g_simple_action_set_state (action, state);
  show_clock_columns (self, clock, g_variant_get_boolean (state));
}

static void
fill_column_menu (StrataProfileView *self)
{
  StrataTrace *trace = strata_profile_get_trace (self->profile);

  g_menu_remove_all (self->column_menu);
  for (guint c = 0; c < 2; c++)
    {
      g_autofree char *name = g_strdup_printf ("show-clock-%u", c);
      g_autofree char *detailed = g_strdup_printf ("columns.%s", name);
      g_autoptr(GSimpleAction) action = NULL;

      g_action_map_remove_action (G_ACTION_MAP (self->column_actions), name);
      if (c >= strata_profile_get_n_clocks (self->profile))
        continue;
      action = g_simple_action_new_stateful (name, NULL, g_variant_new_boolean (TRUE));
      g_object_set_data (G_OBJECT (action), "strata-clock", GUINT_TO_POINTER (c));
      g_signal_connect_object (action, "change-state", G_CALLBACK (change_clock_state_cb), self, 0);
      g_action_map_add_action (G_ACTION_MAP (self->column_actions), G_ACTION (action));
      g_menu_append (self->column_menu,
                     strata_trace_get_clock_kind (trace, c) == STRATA_CLOCK_THREAD_CPU
                     ? _("CPU Time Columns") : _("Wall Time Columns"),
                     detailed);
    }
}

static void
build_columns (StrataProfileView *self)
{
  static const ColumnKind per_clock[] = { COLUMN_INCL_PCT, COLUMN_INCL, COLUMN_EXCL_PCT, COLUMN_EXCL };
  guint n_clocks = strata_profile_get_n_clocks (self->profile);
  GtkColumnView *view = GTK_COLUMN_VIEW (self->column_view);
  g_autoptr(GtkColumnViewColumn) name = create_column (self, COLUMN_NAME, 0, n_clocks > 1);
  g_autoptr(GtkColumnViewColumn) calls = create_column (self, COLUMN_CALLS, 0, n_clocks > 1);
  GtkColumnViewColumn *first_incl = NULL;

  remove_columns (self);
  fill_column_menu (self);
  gtk_column_view_append_column (view, name);
  for (guint c = 0; c < n_clocks; c++)
    for (guint k = 0; k < G_N_ELEMENTS (per_clock); k++)
      {
        g_autoptr(GtkColumnViewColumn) column = create_column (self, per_clock[k], c, n_clocks > 1);

        gtk_column_view_append_column (view, column);
        if (first_incl == NULL && per_clock[k] == COLUMN_INCL)
          first_incl = column;
      }
  gtk_column_view_append_column (view, calls);
  for (guint c = 0; c < n_clocks; c++)
    {
      g_autoptr(GtkColumnViewColumn) column = create_column (self, COLUMN_PER_CALL, c, n_clocks > 1);

      gtk_column_view_append_column (view, column);
    }

  /* Largest first; see probe_compare(). */
  gtk_column_view_sort_by_column (view, first_incl, GTK_SORT_ASCENDING);
}

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
    build_columns (self);
  self->columns_stale = FALSE;
  apply_sort (self);
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->model));
  follow_selected_method (self);
  update_matches_label (self);
}

/* ---- Threads ---- */

static void
fill_threads (StrataProfileView *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->thread_names));

  gtk_string_list_splice (self->thread_names, 0, n, NULL);
  g_array_set_size (self->thread_indexes, 0);
  gtk_string_list_append (self->thread_names, _("All Threads"));
  for (guint t = 0; trace != NULL && t < strata_trace_get_n_threads (trace); t++)
    {
      const StrataThread *thread = strata_trace_get_thread (trace, t);
      g_autofree char *label = NULL;
      g_autofree char *tid = NULL;

      if (thread->spans == NULL)
        continue;
      tid = g_strdup_printf ("%" G_GINT64_FORMAT, thread->tid);
      /* Translators: a thread's name and id in the thread selector */
      label = g_strdup_printf (_("%s (%s)"), strata_trace_get_string (trace, thread->name), tid);
      gtk_string_list_append (self->thread_names, label);
      g_array_append_val (self->thread_indexes, t);
    }
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

static StrataProfileRow *
selected_row (StrataProfileView *self)
{
  return gtk_single_selection_get_selected_item (self->selection);
}

static void
set_expanded (StrataProfileView *self,
              guint              position,
              gboolean           expanded)
{
  if (self->model != NULL && position != GTK_INVALID_LIST_POSITION)
    {
      strata_profile_model_set_expanded (self->model, position, expanded);
      follow_selected_method (self);
    }
}

static void
selection_changed_cb (StrataProfileView *self)
{
  StrataProfileRow *row = selected_row (self);
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
static void
follow_selected_method (StrataProfileView *self)
{
  guint32 method = strata_session_get_selected_method (self->session);
  guint position = method == STRATA_NO_METHOD ? GTK_INVALID_LIST_POSITION : find_method_position (self, method);
  StrataProfileRow *row = selected_row (self);

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
static void
scroll_to_position (StrataProfileView *self,
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
    scroll_to_position (self, position);
}

static void
session_method_changed_cb (StrataProfileView *self)
{
  guint32 method = strata_session_get_selected_method (self->session);
  StrataProfileRow *row = selected_row (self);

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
      set_expanded (self, position, !strata_profile_model_get_expanded (self->model, position));
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

/* ---- Copy and export ---- */

/**
 * strata_profile_view_format_row:
 *
 * Returns: (transfer full): the row's cells in column order, joined by
 *   @separator (CSV quoting when it is a comma)
 */
char *
strata_profile_view_format_row (StrataProfileView *self,
                                StrataProfileRow  *row,
                                char               separator)
{
  GListModel *columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (self->column_view));
  GString *line = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);
      GtkListItemFactory *factory = gtk_column_view_column_get_factory (column);
      g_autofree char *text = cell_text (self, row, g_object_get_data (G_OBJECT (factory), "spec"));

      if (i > 0)
        g_string_append_c (line, separator);
      if (separator == ',' && strpbrk (text, ",\"\n") != NULL)
        {
          g_auto(GStrv) parts = g_strsplit (text, "\"", -1);
          g_autofree char *escaped = g_strjoinv ("\"\"", parts);

          g_string_append_printf (line, "\"%s\"", escaped);
        }
      else
        g_string_append (line, text);
    }
  return g_string_free (line, FALSE);
}

static char *
format_header (StrataProfileView *self,
               char               separator)
{
  GListModel *columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (self->column_view));
  GString *line = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (i > 0)
        g_string_append_c (line, separator);
      g_string_append (line, gtk_column_view_column_get_title (column));
    }
  return g_string_free (line, FALSE);
}

/* ---- Keyboard: open and close methods ---- */

static void
expand_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  StrataProfileView *self = STRATA_PROFILE_VIEW (widget);

  set_expanded (self, gtk_single_selection_get_selected (self->selection), TRUE);
}

/* On a parent or child row, closing goes back to the method it belongs to. */
static void
collapse_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  StrataProfileView *self = STRATA_PROFILE_VIEW (widget);
  guint position = gtk_single_selection_get_selected (self->selection);
  guint owner;

  if (self->model == NULL || position == GTK_INVALID_LIST_POSITION)
    return;
  owner = strata_profile_model_get_owner (self->model, position);
  set_expanded (self, owner, FALSE);
  if (owner != position)
    {
      gtk_single_selection_set_selected (self->selection, owner);
      scroll_to_position (self, owner);
    }
}

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  StrataProfileView *self = STRATA_PROFILE_VIEW (widget);
  StrataProfileRow *row = selected_row (self);
  g_autofree char *text = NULL;

  if (row == NULL)
    return;
  text = strata_profile_view_format_row (self, row, '\t');
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
}

/**
 * strata_profile_view_export:
 *
 * Writes every row on show (methods, and the parents and children of
 * expanded ones) as CSV, or as TSV when the file name ends in .tsv.
 */
gboolean
strata_profile_view_export (StrataProfileView  *self,
                            GFile              *file,
                            GError            **error)
{
  g_autofree char *basename = g_file_get_basename (file);
  char separator = basename && g_str_has_suffix (basename, ".tsv") ? '\t' : ',';
  GListModel *rows = G_LIST_MODEL (self->selection);
  g_autofree char *header = format_header (self, separator);
  g_autoptr(GFileOutputStream) stream = NULL;
  g_autoptr(GOutputStream) out = NULL;

  /* Rows go out as they are formatted: the table is never held as text. */
  stream = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL, error);
  if (stream == NULL)
    return FALSE;
  out = g_buffered_output_stream_new_sized (G_OUTPUT_STREAM (stream), 64 * 1024);
  if (!g_output_stream_printf (out, NULL, NULL, error, "%s\n", header))
    return FALSE;
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(StrataProfileRow) row = g_list_model_get_item (rows, i);
      g_autofree char *line = strata_profile_view_format_row (self, row, separator);

      if (!g_output_stream_printf (out, NULL, NULL, error, "%s\n", line))
        return FALSE;
    }
  return g_output_stream_close (out, NULL, error);
}

static void
export_to (StrataProfileView *self,
           GFile             *file)
{
  g_autoptr(GError) error = NULL;

  if (!strata_profile_view_export (self, file, &error))
    g_warning ("Could not export the profile: %s", error->message);
}

#if GTK_CHECK_VERSION (4, 10, 0)
static void
save_dialog_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(StrataProfileView) self = user_data;
  g_autoptr(GFile) file = gtk_file_dialog_save_finish (GTK_FILE_DIALOG (object), result, NULL);

  if (file != NULL)
    export_to (self, file);
}

static void
run_export_dialog (StrataProfileView *self)
{
  g_autoptr(GtkFileDialog) dialog = gtk_file_dialog_new ();

  gtk_file_dialog_set_title (dialog, _("Export the Profile"));
  gtk_file_dialog_set_initial_name (dialog, "profile.csv");
  gtk_file_dialog_save (dialog, GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self))), NULL,
                        save_dialog_cb, g_object_ref (self));
}
#else
static void
save_response_cb (GtkNativeDialog   *native,
                  int                response,
                  StrataProfileView *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));

      if (file != NULL)
        export_to (self, file);
    }
  gtk_native_dialog_destroy (native);
  g_object_unref (native);
}

static void
run_export_dialog (StrataProfileView *self)
{
  GtkFileChooserNative *native;

  native = gtk_file_chooser_native_new (_("Export the Profile"),
                                        GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self))),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), "profile.csv");
  g_signal_connect_object (native, "response", G_CALLBACK (save_response_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}
#endif

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  run_export_dialog (STRATA_PROFILE_VIEW (widget));
}

static void
search_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  gtk_widget_grab_focus (STRATA_PROFILE_VIEW (widget)->search_entry);
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
      follow_selected_method (self);
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
  set_expanded (self, position, TRUE);
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
  g_signal_connect_object (column_sorter, "changed", G_CALLBACK (apply_sort), self, G_CONNECT_SWAPPED);
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
  g_clear_object (&self->column_menu);
  g_clear_object (&self->column_actions);
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

  gtk_widget_class_install_action (widget_class, "profile.copy", NULL, copy_action);
  gtk_widget_class_install_action (widget_class, "profile.export", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "profile.search", NULL, search_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "profile.copy", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "profile.search", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_slash, 0, "profile.search", NULL);
  gtk_widget_class_install_action (widget_class, "profile.expand", NULL, expand_action);
  gtk_widget_class_install_action (widget_class, "profile.collapse", NULL, collapse_action);

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
  self->column_menu = g_menu_new ();
  self->column_actions = g_simple_action_group_new ();
  gtk_widget_insert_action_group (GTK_WIDGET (self), "columns", G_ACTION_GROUP (self->column_actions));
}
