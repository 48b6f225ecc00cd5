/* strata-profile-view-columns.c: the profile table's columns and cells
 *
 * A name column, then per clock the inclusive and exclusive times and
 * shares, calls and time per call. Cells come from templates in the
 * resources; the headers' sorter only picks which key the model sorts by
 * (see apply_sort()), so a million rows sort in the model, not in GTK.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-accessible.h"
#include "strata-cell-scope.h"
#include "strata-cell-text.h"
#include "strata-clock-columns.h"
#include "strata-palette.h"
#include "strata-profile-view-private.h"
#include "strata-table-column.h"
#include "strata-units.h"
#include "strata-widgets.h"

/* ---- Cells ---- */

/* Times; for sampled traces, sample counts (never seconds). */
static char *
format_time (StrataProfileView *self,
             guint              clock,
             gint64             time)
{
  StrataTrace *trace = strata_session_get_trace (self->session);

  if (time < 0)
    return g_strdup ("");
  if (trace == NULL)
    return strata_units_format_duration (time);
  return strata_trace_format_weight (trace, clock, time, FALSE);
}

char *
profile_view_cell_text (StrataProfileView *self,
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
      return format_time (self, spec->clock, strata_profile_row_get_inclusive (row, spec->clock));
    case COLUMN_EXCL_PCT:
      return edge ? g_strdup ("") : strata_units_format_percent (strata_profile_row_get_exclusive (row, spec->clock), total);
    case COLUMN_EXCL:
      return format_time (self, spec->clock, strata_profile_row_get_exclusive (row, spec->clock));
    case COLUMN_CALLS:
      if (edge)
        /* Calls through one caller/callee edge, out of all calls to the callee */
        return g_strdup_printf ("%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT,
                                strata_profile_row_get_calls (row), strata_profile_row_get_total_calls (row));
      return g_strdup_printf ("%" G_GUINT64_FORMAT "+%" G_GUINT64_FORMAT,
                              strata_profile_row_get_calls (row), strata_profile_row_get_recursive_calls (row));
    case COLUMN_PER_CALL:
      return format_time (self, spec->clock, strata_profile_row_get_time_per_call (row, spec->clock));
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
  profile_view_follow_selected_method (self);
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
  g_autofree char *clipped = NULL;
  const char *name = strata_units_clip_for_display (strata_profile_row_get_name (row), &clipped);
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
  StrataProfileRowKind kind = strata_profile_row_get_kind (row);
  gboolean method = kind == STRATA_PROFILE_ROW_METHOD;
  gboolean expandable = method && strata_profile_model_is_expandable (self->model, gtk_list_item_get_position (item));
  /* Callers and callees say what they are, not only by their colour.
   * Translators: a caller of the expanded method, before its name */
  g_autofree char *shown = kind == STRATA_PROFILE_ROW_PARENT ? g_strdup_printf (_("Parent · %s"), text)
                           /* Translators: a method the expanded one calls, before its name */
                           : kind == STRATA_PROFILE_ROW_CHILD ? g_strdup_printf (_("Child · %s"), text) : NULL;

  gtk_widget_set_margin_start (box, method ? 0 : 2 * SWATCH_SIZE);
  gtk_widget_set_visible (arrow, method);
  gtk_widget_set_opacity (arrow, expandable ? 1 : 0);
  if (method)
    update_arrow (row, arrow);
  g_object_set_data (G_OBJECT (arrow), "strata-item", item);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (swatch), draw_swatch, self, NULL);
  g_object_set_data (G_OBJECT (swatch), "method", GUINT_TO_POINTER (strata_profile_row_get_method (row)));
  gtk_widget_queue_draw (swatch);
  strata_cell_text_set_text (STRATA_CELL_TEXT (label), shown != NULL ? shown : text);
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
  g_autofree char *text = profile_view_cell_text (spec->view, row, spec);

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

void
profile_view_apply_sort (StrataProfileView *self)
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
  profile_view_follow_selected_method (self);
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

/* A column of sample counts ("25362 samples") is wider than one of times. */
static gboolean
counts_samples (StrataProfileView *self,
                ColumnKind         kind,
                guint              clock)
{
  StrataTrace *trace = strata_profile_get_trace (self->profile);

  return (kind == COLUMN_INCL || kind == COLUMN_EXCL || kind == COLUMN_PER_CALL) && clock < strata_trace_get_n_clocks (trace) &&
         strata_trace_get_clock_kind (trace, clock) == STRATA_CLOCK_SAMPLES;
}

static GtkColumnViewColumn *
create_column (StrataProfileView *self,
               ColumnKind         kind,
               guint              clock)
{
  ColumnSpec *spec = g_new0 (ColumnSpec, 1);
  g_autoptr(StrataCellScope) scope = strata_cell_scope_new (spec);
  GtkListItemFactory *factory;
  g_autofree char *title = NULL;
  g_autofree char *id = NULL;
  GtkColumnViewColumn *column;
  g_autoptr(GtkSorter) sorter = NULL;
  int on_clock = kind == COLUMN_NAME || kind == COLUMN_CALLS ? -1 : (int) clock;

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

  title = strata_clock_columns_dup_title (self->clock_columns, column_title (kind), on_clock);

  column = gtk_column_view_column_new (title, factory);
  id = g_strdup_printf ("%s-%u", column_id (kind), clock);
  g_object_set_data_full (G_OBJECT (column), "strata-id", g_steal_pointer (&id), g_free);
  strata_clock_columns_add (self->clock_columns, column, on_clock);
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_column_set_expand (column, kind == COLUMN_NAME);
  gtk_column_view_column_set_fixed_width (column, kind == COLUMN_NAME ? NAME_COLUMN_WIDTH
                                                  : counts_samples (self, kind, clock) ? SAMPLES_COLUMN_WIDTH
                                                  : NUMBER_COLUMN_WIDTH);
  sorter = GTK_SORTER (gtk_custom_sorter_new (probe_compare, spec, NULL));
  gtk_column_view_column_set_sorter (column, sorter);
  return column;
}

void
profile_view_build_columns (StrataProfileView *self)
{
  static const ColumnKind per_clock[] = { COLUMN_INCL_PCT, COLUMN_INCL, COLUMN_EXCL_PCT, COLUMN_EXCL };
  guint n_clocks = strata_profile_get_n_clocks (self->profile);
  GtkColumnView *view = GTK_COLUMN_VIEW (self->column_view);
  g_autoptr(GtkColumnViewColumn) name = NULL;
  g_autoptr(GtkColumnViewColumn) calls = NULL;
  GtkColumnViewColumn *first_incl = NULL;

  strata_table_column_remove_all (view);
  strata_clock_columns_set_trace (self->clock_columns, strata_profile_get_trace (self->profile));
  name = create_column (self, COLUMN_NAME, 0);
  calls = create_column (self, COLUMN_CALLS, 0);
  gtk_column_view_append_column (view, name);
  for (guint c = 0; c < n_clocks; c++)
    for (guint k = 0; k < G_N_ELEMENTS (per_clock); k++)
      {
        g_autoptr(GtkColumnViewColumn) column = create_column (self, per_clock[k], c);

        gtk_column_view_append_column (view, column);
        if (first_incl == NULL && per_clock[k] == COLUMN_INCL)
          first_incl = column;
      }
  /* Calls made from samples have no count or time of their own. */
  for (guint c = 0; !strata_trace_get_calls_are_samples (strata_profile_get_trace (self->profile)) && c <= n_clocks; c++)
    {
      g_autoptr(GtkColumnViewColumn) column = c == 0 ? g_object_ref (calls) : create_column (self, COLUMN_PER_CALL, c - 1);

      gtk_column_view_append_column (view, column);
    }

  /* Largest first; see probe_compare(). */
  gtk_column_view_sort_by_column (view, first_incl, GTK_SORT_ASCENDING);
}

