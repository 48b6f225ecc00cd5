/* strata-search.h: what a search of the timeline matches, and walking it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-trace.h"
#include "strata-span-table.h"

G_BEGIN_DECLS

typedef struct _StrataSearch StrataSearch;

/* One match in time order: a call, or an event. */
typedef struct
{
  gboolean is_event;
  guint    thread;     /* calls */
  guint    depth;
  guint32  index;      /* the call's index at its depth, or the event's */
  gint64   start;
} StrataSearchHit;

StrataSearch  *strata_search_new              (StrataTrace          *trace,
                                               const char           *text,
                                               gboolean              regex,
                                               GError              **error);
StrataSearch  *strata_search_ref              (const StrataSearch   *self);
void           strata_search_unref            (StrataSearch         *self);
const char    *strata_search_get_text         (const StrataSearch   *self);
gboolean       strata_search_get_regex        (const StrataSearch   *self);
const guint8  *strata_search_get_methods      (const StrataSearch   *self);
gboolean       strata_search_matches_event    (const StrataSearch   *self,
                                               guint                 event);
gboolean       strata_search_matches_in_thread (const StrataSearch  *self,
                                               guint                thread);
gboolean       strata_search_matches_name     (const StrataSearch   *self,
                                               const char           *name);
guint64        strata_search_count_calls      (const StrataSearch   *self);
guint          strata_search_count_events     (const StrataSearch   *self);
gboolean       strata_search_step             (const StrataSearch   *self,
                                               guint                 clock,
                                               const StrataSearchHit *from,
                                               int                   direction,
                                               StrataSearchHit      *hit);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrataSearch, strata_search_unref)

G_END_DECLS
