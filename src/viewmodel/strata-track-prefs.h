/* strata-track-prefs.h: what the user changed about the timeline's tracks
 *
 * Collapsed processes and tracks, hidden tracks, pinned tracks (shown
 * first), moved tracks and the series hidden from counter charts, kept per window for the trace on show and
 * read by strata_timeline_layout(). No GTK.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-timeline-render.h"

G_BEGIN_DECLS

StrataTrackPrefs *strata_track_prefs_new             (void);
void              strata_track_prefs_free            (StrataTrackPrefs       *self);
void              strata_track_prefs_reset           (StrataTrackPrefs       *self);
void              strata_track_prefs_set_filter      (StrataTrackPrefs       *self,
                                                      StrataSearch           *filter);
void              strata_track_prefs_toggle_process  (StrataTrackPrefs       *self,
                                                      guint                   process);
void              strata_track_prefs_toggle_collapsed (StrataTrackPrefs      *self,
                                                      guint64                 key);
void              strata_track_prefs_hide            (StrataTrackPrefs       *self,
                                                      guint64                 key);
guint             strata_track_prefs_show_hidden     (StrataTrackPrefs       *self);
gboolean          strata_track_prefs_toggle_pinned   (StrataTrackPrefs       *self,
                                                      guint64                 key);
gboolean          strata_track_prefs_is_pinned       (const StrataTrackPrefs *self,
                                                      guint64                 key);
gboolean          strata_track_prefs_move            (StrataTrackPrefs       *self,
                                                      const GArray           *shown,
                                                      guint64                 key,
                                                      int                     step);

guint64           strata_track_prefs_get_hidden_series (const StrataTrackPrefs *self,
                                                        guint                   counter);
void              strata_track_prefs_toggle_series   (StrataTrackPrefs       *self,
                                                      guint                   counter,
                                                      guint                   series);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrataTrackPrefs, strata_track_prefs_free)

G_END_DECLS
