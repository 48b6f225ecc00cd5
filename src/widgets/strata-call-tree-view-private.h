/* strata-call-tree-view-private.h: the parts of the call tree view
 *
 * The view is split by what it shows: the table
 * (strata-call-tree-view-table.c), the flame graph
 * (strata-call-tree-view-flame.c), the transforms' menu and export
 * (strata-call-tree-view-actions.c); strata-call-tree-view.c holds them
 * together and follows the session's StrataCallTreeHistory, which owns
 * the trees and transforms.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-call-tree-history.h"
#include "strata-call-tree-view.h"
#include "strata-clock-columns.h"

G_BEGIN_DECLS

struct _StrataCallTreeView
{
  GtkWidget              parent_instance;

  StrataSession         *session;
  StrataCallTreeHistory *history;       /* the session's: trees and transforms */
  guint                  focus_tick;    /* the row just revealed is scrolled to and focused */
  guint                  focus_frames;  /* frames since: the rows are laid out after one */
  gboolean               syncing;       /* selecting a row for the timeline's call */
  gboolean               syncing_bar;   /* selecting a row for the flame graph's bar */
  StrataClockColumns    *clock_columns; /* the columns by clock, and the trace they are for */
  GtkWidget             *transform_bar;
  GtkWidget             *transform_label;
  GtkWidget             *menu;

  GtkWidget             *box;
  GtkWidget             *bottom_up_button;
  GtkWidget             *flame_button;
  GtkWidget             *butterfly_button;
  GtkWidget             *stack;
  GtkWidget             *butterfly;     /* StrataButterflyView */
  GtkWidget             *column_view;
  GtkSingleSelection    *selection;
  GtkWidget             *flame;
  GtkWidget             *flame_bar;
  GtkWidget             *breadcrumb;
  GtkWidget             *zoom_out_button;
  GtkWidget             *search_entry;
  GtkWidget             *search_share;
  GtkWidget             *status;
  /* The differential flame graph: the baseline's tree shaped as the one
   * shown, and its nodes matched to it. */
  GtkWidget             *diff_button;
  GCancellable          *baseline_cancellable;
  StrataCallTree        *baseline_tree;
  guint32               *baseline_match;
  StrataCallTree        *matched_tree;  /* the tree they match */
};

#define STRATA_CALL_TREE_VIEW_ANY_ROW GTK_INVALID_LIST_POSITION

static inline StrataCallTree *
strata_call_tree_view_shown_tree (StrataCallTreeView *self)
{
  return strata_call_tree_history_get_tree (self->history);
}

/* The table */
GtkWidget           *strata_call_tree_view_build_tree_page   (StrataCallTreeView *self);
void                 strata_call_tree_view_fill_table        (StrataCallTreeView *self);
guint                strata_call_tree_view_open_path         (GListModel         *model,
                                                              const GArray       *codes,
                                                              gboolean            last);
GtkWidget           *strata_call_tree_view_row_expander      (GtkWidget          *widget,
                                                              guint               position);
guint                strata_call_tree_view_row_at            (StrataCallTreeView *self,
                                                              double              x,
                                                              double              y);
void                 strata_call_tree_view_focus_selected_row_soon (StrataCallTreeView *self);
StrataCallTreePlace *strata_call_tree_view_current_place     (StrataCallTreeView *self);
void                 strata_call_tree_view_reveal_place      (StrataCallTreeView        *self,
                                                              const StrataCallTreePlace *place);
void                 strata_call_tree_view_selected_item_changed (StrataCallTreeView *self);
GtkEventController  *strata_call_tree_view_hot_path_keys     (StrataCallTreeView *self);
gboolean             strata_call_tree_view_copy_path         (GtkWidget          *widget,
                                                              GVariant           *args,
                                                              gpointer            data);

/* The flame graph */
GtkWidget           *strata_call_tree_view_build_flame_page  (StrataCallTreeView *self);
void                 strata_call_tree_view_fill_flame        (StrataCallTreeView *self);
void                 strata_call_tree_view_zoom_along        (StrataCallTreeView *self,
                                                              const GArray       *codes);
void                 strata_call_tree_view_comparison_changed (StrataCallTreeView *self);
void                 strata_call_tree_view_forget_baseline   (StrataCallTreeView *self);
void                 strata_call_tree_view_sync_bar          (StrataCallTreeView *self);

/* The butterfly */
guint32              strata_call_tree_view_selected_code     (StrataCallTreeView *self);

/* Actions */
void                 strata_call_tree_view_class_init_actions (GtkWidgetClass     *widget_class);
GtkWidget           *strata_call_tree_view_build_menu        (StrataCallTreeView *self);
void                 strata_call_tree_view_add_menu_gestures (StrataCallTreeView *self);
GtkWidget           *strata_call_tree_view_export_button_new (void);

G_END_DECLS
