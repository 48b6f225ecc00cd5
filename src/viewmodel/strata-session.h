/* strata-session.h: what one window is looking at
 *
 * The trace, its profile and colours, and every piece of view state: the
 * visible time range and the time under the pointer, the clock, the
 * selected method, call or event and time range, the thread and range the
 * profile is restricted to, and the track layout. Views never talk to
 * each other; they change and observe the session.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "strata-call-tree-history.h"
#include "strata-comparison.h"
#include "strata-description.h"
#include "strata-notes.h"
#include "strata-profile.h"
#include "strata-search.h"
#include "strata-timeline-render.h"
#include "strata-trace.h"

G_BEGIN_DECLS

#define STRATA_TYPE_SESSION (strata_session_get_type ())
#define STRATA_NO_METHOD G_MAXUINT32

G_DECLARE_FINAL_TYPE (StrataSession, strata_session, STRATA, SESSION, GObject)

typedef enum
{
  STRATA_SELECTED_NOTHING,
  STRATA_SELECTED_CALL,
  STRATA_SELECTED_EVENT,
  STRATA_SELECTED_COUNTER_VALUE,
} StrataSelectedKind;

StrataSession *strata_session_new                 (void);
StrataTrace   *strata_session_get_trace           (StrataSession *self);
void           strata_session_set_trace           (StrataSession *self,
                                                   StrataTrace   *trace);
StrataProfile *strata_session_get_profile         (StrataSession *self);
StrataCallTreeHistory *strata_session_get_call_tree_history (StrataSession *self);
const guint8  *strata_session_get_colors          (StrataSession *self);
void           strata_session_share_colors        (StrataSession *self,
                                                   const guint8  *colors);
guint          strata_session_get_clock           (StrataSession *self);
void           strata_session_set_clock           (StrataSession *self,
                                                   guint          clock);
void           strata_session_get_bounds          (StrataSession *self,
                                                   gint64        *start,
                                                   gint64        *end);
void           strata_session_get_visible_range   (StrataSession *self,
                                                   gint64        *start,
                                                   gint64        *end);
void           strata_session_set_visible_range   (StrataSession *self,
                                                   gint64         start,
                                                   gint64         end);
void           strata_session_zoom                (StrataSession *self,
                                                   double         factor,
                                                   gint64         anchor);
void           strata_session_pan                 (StrataSession *self,
                                                   double         fraction);
void           strata_session_zoom_to_fit         (StrataSession *self);
guint32        strata_session_get_selected_method (StrataSession *self);
void           strata_session_set_selected_method (StrataSession *self,
                                                   guint32        method);
gboolean       strata_session_get_selection_range (StrataSession *self,
                                                   gint64        *start,
                                                   gint64        *end);
void           strata_session_set_selection_range (StrataSession *self,
                                                   gint64         start,
                                                   gint64         end);
void           strata_session_clear_selection     (StrataSession *self);
void           strata_session_select_call         (StrataSession        *self,
                                                   const StrataSliceRef *call);
void           strata_session_select_event        (StrataSession *self,
                                                   guint          event);
StrataSelectedKind strata_session_get_selected_item (StrataSession  *self,
                                                     StrataSliceRef *call,
                                                     guint          *event);
void           strata_session_select_counter_value (StrataSession *self,
                                                    guint          counter,
                                                    gint64         time);
gboolean       strata_session_get_selected_counter_value (StrataSession *self,
                                                          guint         *counter,
                                                          gint64        *time);
StrataDescription *strata_session_describe_selected_item (StrataSession *self);
void           strata_session_set_hover_time      (StrataSession *self,
                                                   gint64         time);
void           strata_session_clear_hover         (StrataSession *self);
gint64         strata_session_get_zoom_anchor     (StrataSession *self);
int            strata_session_get_profile_thread  (StrataSession *self);
void           strata_session_set_call_tree_threads (StrataSession *self,
                                                   const guint   *threads,
                                                   guint          n_threads);
const GArray  *strata_session_get_call_tree_threads (StrataSession *self);
void           strata_session_set_profile_thread  (StrataSession *self,
                                                   int            thread);
gboolean       strata_session_get_range_only      (StrataSession *self);
void           strata_session_set_range_only      (StrataSession *self,
                                                   gboolean       range_only);
gboolean       strata_session_get_compact         (StrataSession *self);
gboolean       strata_session_get_show_all_flows  (StrataSession *self);
StrataTrackPrefs *strata_session_get_track_prefs  (StrataSession *self);
void           strata_session_tracks_changed      (StrataSession *self);
gboolean       strata_session_zoom_to_selection   (StrataSession *self);
gboolean       strata_session_zoom_to_selected_item (StrataSession *self);
void           strata_session_zoom_to_call        (StrataSession        *self,
                                                   const StrataSliceRef *call);

void           strata_session_set_marks           (StrataSession *self,
                                                   GArray        *pairs);
const GArray  *strata_session_get_marks           (StrataSession *self);
void           strata_session_set_search          (StrataSession *self,
                                                   StrataSearch  *search);
const StrataSearch *strata_session_get_search     (StrataSession *self);
gboolean       strata_session_search_step         (StrataSession *self,
                                                   int            direction);

const GArray  *strata_session_get_notes           (StrataSession *self);
const char    *strata_session_get_notes_error     (StrataSession *self);
const GArray  *strata_session_get_note_marks      (StrataSession *self);
gboolean       strata_session_get_note_target     (StrataSession      *self,
                                                   StrataSelectedKind *kind,
                                                   StrataSliceRef     *call,
                                                   gint64             *start,
                                                   gint64             *end);
gboolean       strata_session_add_note            (StrataSession  *self,
                                                   const char     *text,
                                                   GError        **error);
gboolean       strata_session_set_note_text       (StrataSession  *self,
                                                   guint           index,
                                                   const char     *text,
                                                   GError        **error);
gboolean       strata_session_remove_note         (StrataSession  *self,
                                                   guint           index,
                                                   GError        **error);
void           strata_session_go_to_note          (StrataSession *self,
                                                   guint          index);

GActionGroup  *strata_session_create_actions      (StrataSession *self);
void           strata_session_names_changed       (StrataSession *self);
gboolean       strata_session_set_baseline        (StrataSession  *self,
                                                   StrataProfile  *baseline,
                                                   GError        **error);
StrataTrace   *strata_session_get_baseline        (StrataSession *self);
StrataComparison *strata_session_get_comparison   (StrataSession *self);
const guint8  *strata_session_get_baseline_colors (StrataSession *self);
StrataMatchMode strata_session_get_match          (StrataSession *self);
void           strata_session_set_match           (StrataSession   *self,
                                                   StrataMatchMode  match);

G_END_DECLS
