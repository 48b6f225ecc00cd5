/* strata-image-dialog.c: Export Image…, the timeline or flame graph as a picture
 *
 * A small window of choices: what to draw (the timeline, or the call
 * tree's flame graph as zoomed), for the timeline the range (as shown or
 * the whole trace) and whether all tracks or those in view, the width
 * (the widget's by default, so the picture is what the screen shows), the
 * style, and the format; then the save dialog. The picture is drawn by the
 * renderers the widgets draw with.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-export-dialog.h"
#include "strata-flame-graph.h"
#include "strata-image-dialog.h"
#include "strata-csv-export.h"

typedef struct
{
  GtkWidget          *window;
  StrataTimeline     *timeline;
  StrataCallTreeView *call_tree;
  GtkWidget          *what;
  GtkWidget          *range;
  GtkWidget          *all_tracks;
  GtkWidget          *width;
  GtkWidget          *style;
  GtkWidget          *format;
} Choices;

/* What was chosen, kept until the save dialog is done. */
typedef struct
{
  StrataTimeline     *timeline;
  StrataCallTree     *tree;          /* the flame graph's, or NULL for the timeline */
  guint32             zoom;
  gboolean            root_at_bottom;
  gboolean            whole_trace;
  gboolean            all_tracks;
  int                 dark;          /* -1: as shown */
  int                 width;
  StrataImageFormat   format;
} Plan;

static const char *const extensions[] = { "png", "svg", "pdf" };

static void
plan_free (Plan *plan)
{
  g_object_unref (plan->timeline);
  g_clear_object (&plan->tree);
  g_free (plan);
}

static void
choices_free (Choices *choices)
{
  g_object_unref (choices->timeline);
  g_object_unref (choices->call_tree);
  g_free (choices);
}

static gboolean
flame_chosen (Choices *choices)
{
  return gtk_drop_down_get_selected (GTK_DROP_DOWN (choices->what)) == 1;
}

static gboolean
export_cb (GtkWidget  *widget,
           GFile      *file,
           gpointer    data,
           GError    **error)
{
  Plan *plan = data;
  StrataSession *session = strata_timeline_get_session (plan->timeline);
  StrataImageOptions options = { plan->format, plan->width, 0, plan->dark == 1, strata_session_get_clock (session),
                                 strata_session_get_colors (session), FALSE };

  strata_image_format_for_file (file, &options.format);
  if (plan->tree != NULL)
    return strata_image_export_flame (plan->tree, plan->zoom, plan->root_at_bottom, &options, file, error);
  return strata_timeline_export_image_full (plan->timeline, &options, plan->whole_trace, plan->all_tracks,
                                            plan->dark, file, error);
}

static Plan *
plan_of (Choices *choices)
{
  Plan *plan = g_new0 (Plan, 1);
  guint style = gtk_drop_down_get_selected (GTK_DROP_DOWN (choices->style));

  plan->timeline = g_object_ref (choices->timeline);
  if (flame_chosen (choices))
    {
      StrataFlameGraph *flame = STRATA_FLAME_GRAPH (strata_call_tree_view_get_flame_graph (choices->call_tree));

      if (strata_flame_graph_get_tree (flame) != NULL)
        plan->tree = g_object_ref (strata_flame_graph_get_tree (flame));
      plan->zoom = strata_flame_graph_get_zoom (flame);
      plan->root_at_bottom = strata_flame_graph_get_flame (flame);
    }
  plan->whole_trace = gtk_drop_down_get_selected (GTK_DROP_DOWN (choices->range)) == 1;
  plan->all_tracks = gtk_check_button_get_active (GTK_CHECK_BUTTON (choices->all_tracks));
  plan->dark = style == 0 ? -1 : (int) style - 1;
  plan->width = gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (choices->width));
  plan->format = (StrataImageFormat) MIN (gtk_drop_down_get_selected (GTK_DROP_DOWN (choices->format)), 2);
  return plan;
}

static void
export_clicked_cb (Choices *choices)
{
  StrataSession *session = strata_timeline_get_session (choices->timeline);
  guint format = gtk_drop_down_get_selected (GTK_DROP_DOWN (choices->format));
  g_autofree char *base = strata_csv_export_name (strata_session_get_trace (session),
                                                    flame_chosen (choices) ? "flame-graph" : "timeline");
  /* strata_csv_export_name() names a .csv: the picture's extension instead. */
  g_autofree char *stem = g_str_has_suffix (base, ".csv") ? g_strndup (base, strlen (base) - 4) : g_strdup (base);
  g_autofree char *name = g_strconcat (stem, ".", extensions[MIN (format, 2)], NULL);

  strata_export_dialog_run_full (GTK_WIDGET (choices->timeline), _("Export Image"), name, export_cb,
                                 plan_of (choices), (GDestroyNotify) plan_free);
  gtk_window_close (GTK_WINDOW (choices->window));
}

static void
what_changed_cb (Choices *choices)
{
  gboolean flame = flame_chosen (choices);

  gtk_widget_set_sensitive (choices->range, !flame);
  gtk_widget_set_sensitive (choices->all_tracks, !flame);
}

static GtkWidget *
drop_down (const char *const *items)
{
  return gtk_drop_down_new_from_strings (items);
}

static void
add_row (GtkGrid    *grid,
         int         row,
         const char *label,
         GtkWidget  *control)
{
  GtkWidget *name = gtk_label_new_with_mnemonic (label);

  gtk_label_set_xalign (GTK_LABEL (name), 1);
  gtk_label_set_mnemonic_widget (GTK_LABEL (name), control);
  gtk_widget_set_hexpand (control, TRUE);
  gtk_grid_attach (grid, name, 0, row, 1, 1);
  gtk_grid_attach (grid, control, 1, row, 1, 1);
}

static GtkWidget *
build_grid (Choices  *choices,
            gboolean  has_tree,
            gboolean  flame_first)
{
  GtkWidget *grid = gtk_grid_new ();
  const char *whats[] = { _("Timeline"), _("Flame Graph"), NULL };
  const char *ranges[] = { _("Range on Show"), _("Whole Trace"), NULL };
  const char *styles[] = { _("As Shown"), _("Light"), _("Dark"), NULL };
  const char *formats[] = { _("PNG Image"), _("SVG Drawing"), _("PDF Document"), NULL };
  int width = gtk_widget_get_width (GTK_WIDGET (choices->timeline));

  gtk_grid_set_row_spacing (GTK_GRID (grid), 8);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  g_object_set (grid, "margin-start", 18, "margin-end", 18, "margin-top", 18, "margin-bottom", 12, NULL);
  choices->what = drop_down (whats);
  gtk_widget_set_sensitive (choices->what, has_tree);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (choices->what), has_tree && flame_first ? 1 : 0);
  choices->range = drop_down (ranges);
  choices->all_tracks = gtk_check_button_new_with_mnemonic (_("_All tracks, not only those scrolled to"));
  choices->width = gtk_spin_button_new_with_range (100, STRATA_IMAGE_MAX_SIDE, 100);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (choices->width), width > 0 ? width : 1600);
  choices->style = drop_down (styles);
  choices->format = drop_down (formats);
  add_row (GTK_GRID (grid), 0, _("_Picture"), choices->what);
  add_row (GTK_GRID (grid), 1, _("_Range"), choices->range);
  gtk_grid_attach (GTK_GRID (grid), choices->all_tracks, 1, 2, 1, 1);
  add_row (GTK_GRID (grid), 3, _("_Width (pixels)"), choices->width);
  add_row (GTK_GRID (grid), 4, _("_Style"), choices->style);
  add_row (GTK_GRID (grid), 5, _("_Format"), choices->format);
  g_signal_connect_swapped (choices->what, "notify::selected", G_CALLBACK (what_changed_cb), choices);
  what_changed_cb (choices);
  return grid;
}

/**
 * strata_image_dialog_present:
 * @flame_first: offer the flame graph first (it is on show)
 */
void
strata_image_dialog_present (GtkWindow          *parent,
                             StrataTimeline     *timeline,
                             StrataCallTreeView *call_tree,
                             gboolean            flame_first)
{
  Choices *choices = g_new0 (Choices, 1);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  GtkWidget *export = gtk_button_new_with_mnemonic (_("_Export…"));

  choices->timeline = g_object_ref (timeline);
  choices->call_tree = g_object_ref (call_tree);
  choices->window = gtk_window_new ();
  gtk_window_set_title (GTK_WINDOW (choices->window), _("Export Image"));
  gtk_window_set_modal (GTK_WINDOW (choices->window), TRUE);
  gtk_window_set_transient_for (GTK_WINDOW (choices->window), parent);
  gtk_window_set_resizable (GTK_WINDOW (choices->window), FALSE);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (choices->window), TRUE);
  g_object_set_data_full (G_OBJECT (choices->window), "choices", choices, (GDestroyNotify) choices_free);

  gtk_box_append (GTK_BOX (box), build_grid (choices, strata_call_tree_view_get_tree (call_tree) != NULL, flame_first));
  gtk_widget_set_halign (buttons, GTK_ALIGN_END);
  g_object_set (buttons, "margin-start", 18, "margin-end", 18, "margin-bottom", 18, NULL);
  gtk_widget_add_css_class (export, "suggested-action");
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (gtk_window_close), choices->window);
  g_signal_connect_swapped (export, "clicked", G_CALLBACK (export_clicked_cb), choices);
  gtk_box_append (GTK_BOX (buttons), cancel);
  gtk_box_append (GTK_BOX (buttons), export);
  gtk_box_append (GTK_BOX (box), buttons);
  gtk_window_set_child (GTK_WINDOW (choices->window), box);
  gtk_window_set_default_widget (GTK_WINDOW (choices->window), export);
  gtk_window_present (GTK_WINDOW (choices->window));
}
