/* strata-window-private.h: shared by the files that make up StrataWindow
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-loader.h"
#include "strata-timeline.h"
#include "strata-window.h"

G_BEGIN_DECLS

struct _StrataWindow
{
  GtkApplicationWindow  parent_instance;

  StrataSession        *session;
  GSettings            *settings;
  StrataLoader         *loader;
  GCancellable         *cancellable;
  GtkDropTarget        *drop_target;
  gboolean              remember_size;
  gboolean              follow_weak;    /* heap dumps: weak references keep their referents */
  gboolean              open_here;      /* the file dialog replaces the trace on show */
  gboolean              compare_pick;   /* the file dialog picks a baseline to compare with */
  gboolean              mapping_pick;   /* the file dialog picks a mapping.txt */
  GCancellable         *mapping_cancellable;
  GFile                *mapping;        /* the mapping whose names are shown */
  GFile                *file;           /* the file the trace shown came from */
  StrataLoader         *compare_loader; /* the baseline loading, or NULL */
  GCancellable         *compare_cancellable;

  /* Template children */
  GtkLabel             *title_label;
  GtkLabel             *subtitle_label;
  GtkStack             *stack;
  GtkWidget            *overlay;
  GtkWidget            *drop_overlay;
  GtkWidget            *samples_box;
  GtkListBox           *samples_list;
  GtkWidget            *recent_box;
  GtkListBox           *recent_list;
  GMenu                *recent_menu;
  GtkLabel             *loading_title;
  GtkLabel             *loading_message;
  GtkProgressBar       *progress_bar;
  gint64                load_started;   /* monotonic µs */
  GtkLabel             *error_title;
  GtkLabel             *error_reason;
  GtkWidget            *error_open_button;
  GtkBox               *trace_box;
  GtkWidget            *view_controls;
  GtkWidget            *compact_button;
  GtkWidget            *menu_button;
  GtkWidget            *clock_switch;
  GtkWidget            *clock_buttons[2];
  GtkWidget            *timeline;
  GtkWidget            *import_banner;
  GtkWidget            *search_bar;
  GtkWidget            *paned;
  GtkWidget            *details;
  GtkWidget            *profile_view;
  GtkWidget            *call_tree_view;
  GtkWidget            *calls_view;
  GtkWidget            *events_view;
  GtkWidget            *notes_view;
  GtkWidget            *event_details;
  GtkWidget            *summary;       /* owned by the notebook */
  GtkWidget            *heap_view;     /* owned by the notebook; hidden without a heap */
  GtkWidget            *compare_view;  /* owned by the notebook; hidden without a baseline */
  GtkWidget            *compare_bar;   /* a baseline's progress, or why it cannot be compared */
  GtkWidget            *compare_label;
  GtkWidget            *compare_progress;
  GtkWidget            *compare_button;
  gboolean              show_baseline;  /* the baseline's timeline under the trace's */
  StrataSession        *baseline_session;
  GtkWidget            *baseline_box;
  GtkWidget            *baseline_label;
};

void   _strata_window_class_init_actions (GtkWidgetClass *widget_class);
void   _strata_window_init_actions       (StrataWindow   *self);
void   _strata_window_init_dnd           (StrataWindow   *self);
void   _strata_window_update_actions     (StrataWindow   *self);
void   _strata_window_cancel_load        (StrataWindow   *self);
char  *_strata_window_describe_time_left (double          elapsed,
                                          double          fraction);
void     _strata_window_class_init_keys (GtkWidgetClass *widget_class);
void     _strata_window_init_keys       (StrataWindow   *self);
gboolean _strata_window_move_pane       (StrataWindow   *self,
                                         int             step);
void   _strata_window_init_compare       (StrataWindow   *self);
void   _strata_window_show_task_bar      (StrataWindow   *self,
                                          const char     *message,
                                          gboolean        busy);
void   _strata_window_hide_task_bar      (StrataWindow   *self);
void   _strata_window_apply_remembered_mapping (StrataWindow *self);
void   _strata_window_stop_mapping       (StrataWindow   *self);
void   _strata_window_dispose_mapping    (StrataWindow   *self);
char  *_strata_window_describe_mapping   (StrataWindow   *self);
GFile *_strata_window_remembered_mapping (GFile          *file);
void   _strata_window_refresh_titles     (StrataWindow   *self);
void   _strata_window_dispose_compare    (StrataWindow   *self);
GtkWidget *_strata_window_build_timelines (StrataWindow  *self,
                                          GtkWidget     *timeline);
void   _strata_window_update_baseline_timeline (StrataWindow *self);
void   _strata_window_add_recent         (StrataWindow   *self,
                                          GFile          *file);
void   _strata_window_forget_recent      (StrataWindow   *self,
                                          GFile          *file);
char  *_strata_file_get_display_name     (GFile          *file);

G_END_DECLS
