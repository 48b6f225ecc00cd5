/* strata-profile-view-private.h: what the profile view's files share
 *
 * strata-profile-view.c is the widget (models, threads, selection,
 * search); -columns.c builds its columns and cells and picks the model's
 * sort from the headers; -export.c copies and exports rows as text.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-clock-columns.h"
#include "strata-profile-model.h"
#include "strata-profile-view.h"

G_BEGIN_DECLS

#define SWATCH_SIZE 12   /* as in strata-profile-name-cell.ui */
#define NAME_CELL_UI "/io/github/stratatrace/Strata/strata-profile-name-cell.ui"
#define NUMBER_CELL_UI "/io/github/stratatrace/Strata/strata-profile-number-cell.ui"
#define NAME_COLUMN_WIDTH 420
#define NUMBER_COLUMN_WIDTH 96
#define SAMPLES_COLUMN_WIDTH 136

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
  StrataClockColumns *clock_columns; /* which clocks have columns on show */
  gboolean            columns_stale; /* a new trace: its clocks decide the columns */
  char               *needle;
  gboolean            syncing;
};


/* strata-profile-view.c */
void               profile_view_follow_selected_method    (StrataProfileView *self);
StrataProfileRow  *profile_view_selected_row              (StrataProfileView *self);
void               profile_view_set_expanded              (StrataProfileView *self,
                                                           guint position,
                                                           gboolean expanded);
void               profile_view_scroll_to_position        (StrataProfileView *self,
                                                           guint position);

/* strata-profile-view-columns.c */
void               profile_view_apply_sort                (StrataProfileView *self);
void               profile_view_build_columns             (StrataProfileView *self);
char              *profile_view_cell_text                 (StrataProfileView *self,
                                                           StrataProfileRow *row,
                                                           const ColumnSpec *spec);

/* strata-profile-view-actions.c */
void               strata_profile_view_class_init_actions (GtkWidgetClass *widget_class);

/* For tests: what the view shows, and driving it as a user would. */
StrataProfile *strata_profile_view_get_profile  (StrataProfileView *self);
GListModel  *strata_profile_view_get_rows       (StrataProfileView *self);
gboolean     strata_profile_view_get_expanded   (StrataProfileView *self,
                                                 guint              position);
GtkColumnView *strata_profile_view_get_column_view (StrataProfileView *self);
void         strata_profile_view_set_filter     (StrataProfileView *self,
                                                 const char        *text);
guint        strata_profile_view_get_n_matches  (StrataProfileView *self);
gboolean     strata_profile_view_select_match   (StrataProfileView *self,
                                                 gboolean           backwards);
void         strata_profile_view_sort_by        (StrataProfileView *self,
                                                 const char        *column_id,
                                                 GtkSortType        order);
char        *strata_profile_view_format_row     (StrataProfileView *self,
                                                 StrataProfileRow  *row);
gboolean     strata_profile_view_export         (StrataProfileView *self,
                                                 GFile             *file,
                                                 gboolean           filtered,
                                                 GError           **error);

G_END_DECLS
