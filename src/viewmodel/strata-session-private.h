/* strata-session-private.h: the fields of a StrataSession
 *
 * For the files that make up the session: strata-session.c and
 * strata-session-compare.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-session.h"
#include "strata-track-prefs.h"

G_BEGIN_DECLS

struct _StrataSession
{
  GObject        parent_instance;

  StrataTrace   *trace;
  StrataProfile *profile;
  guint8        *colors;
  GCancellable  *profile_cancellable;

  guint          clock;
  gint64         visible_start;
  gint64         visible_end;
  guint32        selected_method;
  gboolean       has_range;
  gint64         range_start;
  gint64         range_end;

  gboolean       has_hover;
  gint64         hover_time;
  int            profile_thread;   /* -1: all threads */
  GArray        *call_tree_threads; /* guint: the several threads the call tree merges, or NULL */
  gboolean       compact;          /* calls one row high per thread */
  gboolean       show_all_flows;   /* every flow's arrow, not the selected call's */
  gboolean       range_only;       /* profile only the selected range */
  StrataTrackPrefs *track_prefs;
  StrataCallTreeHistory *call_tree;  /* made when first asked for */
  StrataSearch     *search;        /* the timeline's search, or NULL */
  GArray           *marks;         /* calls the ruler marks, chosen by duration; NULL: the selected method's */

  /* Compare With: the baseline's whole profile, and the comparison made
   * once this trace's own profile is ready. */
  StrataProfile    *baseline;
  StrataComparison *comparison;
  StrataMatchMode   match;
  guint8           *baseline_colors;
  guint8           *shared_colors; /* another session's, for its baseline: wins over ours */

  /* The one call or event whose details are shown. */
  StrataSelectedKind selected_kind;
  StrataSliceRef     selected_call;
  guint              selected_event;
  guint              selected_counter;
  gint64             selected_counter_time;

  GArray            *notes;       /* StrataNote on the trace, or NULL without one */
  GArray            *note_marks;  /* StrataNoteMark on the clock, made when asked for */
  char              *notes_error;
};

void strata_session_compare_with_baseline (StrataSession *self);
void strata_session_notes_class_init       (GObjectClass  *klass);
void strata_session_notes_clear            (StrataSession *self);
void strata_session_load_notes             (StrataSession *self);
void strata_session_notes_clock_changed    (StrataSession *self);

G_END_DECLS
