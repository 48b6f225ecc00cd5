/* strata-session-search.c: walking the timeline's search matches
 *
 * Enter and Shift+Enter in the search bar: the next or previous match in
 * time order from the one selected (or from the view's edge), selected and
 * zoomed to, going round at either end as a browser's find does.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-session.h"

/* Where to walk from: the selected match, or just outside the view. */
static StrataSearchHit
walk_origin (StrataSession *self,
             int            direction)
{
  const StrataSearch *search = strata_session_get_search (self);
  StrataTrace *trace = strata_session_get_trace (self);
  StrataSliceRef call;
  guint event;
  gint64 start, end;

  switch (strata_session_get_selected_item (self, &call, &event))
    {
    case STRATA_SELECTED_CALL:
      {
        const StrataSpanTable *table = strata_trace_get_thread (trace, call.thread)->spans;

        if (strata_search_get_methods (search)[table->calls[call.depth][call.index].method])
          return (StrataSearchHit) { FALSE, call.thread, call.depth, call.index,
                                     strata_span_table_get_start (table, strata_session_get_clock (self), call.depth, call.index) };
        break;
      }
    case STRATA_SELECTED_EVENT:
      if (strata_search_matches_event (search, event))
        return (StrataSearchHit) { TRUE, 0, 0, event, strata_trace_get_event (trace, event)->start };
      break;
    case STRATA_SELECTED_COUNTER_VALUE:
    case STRATA_SELECTED_NOTHING:
    default:
      break;
    }
  strata_session_get_visible_range (self, &start, &end);
  /* Before everything at the view's start, or after everything at its end. */
  return direction > 0 ? (StrataSearchHit) { FALSE, 0, 0, 0, start - 1 }
                       : (StrataSearchHit) { TRUE, 0, 0, G_MAXUINT32, end + 1 };
}

/**
 * strata_session_search_step:
 * @direction: 1 for the next match, -1 for the previous one
 *
 * Selects the next or previous match of the search and zooms to it.
 *
 * Returns: whether there was one
 */
gboolean
strata_session_search_step (StrataSession *self,
                            int            direction)
{
  const StrataSearch *search;
  StrataSearchHit from, hit;
  guint clock;

  g_return_val_if_fail (STRATA_IS_SESSION (self), FALSE);

  if ((search = strata_session_get_search (self)) == NULL)
    return FALSE;
  clock = strata_session_get_clock (self);
  from = walk_origin (self, direction);
  if (!strata_search_step (search, clock, &from, direction, &hit))
    {
      /* Round from the other end. */
      from = direction > 0 ? (StrataSearchHit) { FALSE, 0, 0, 0, G_MININT64 }
                           : (StrataSearchHit) { TRUE, 0, 0, G_MAXUINT32, G_MAXINT64 };
      if (!strata_search_step (search, clock, &from, direction, &hit))
        return FALSE;
    }
  if (hit.is_event)
    strata_session_select_event (self, hit.index);
  else
    strata_session_select_call (self, &(StrataSliceRef) { hit.thread, hit.depth, hit.index });
  return strata_session_zoom_to_selected_item (self);
}
