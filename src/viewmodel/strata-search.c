/* strata-search.c: what a search of the timeline matches, and walking it
 *
 * A search is a substring, without regard to case, or a regular
 * expression. It is decided once per method name (a byte per method) and
 * per event, so drawing and counting cost a lookup each. Walking finds the
 * next match in time order without listing them: on each depth of each
 * thread a binary search finds where to start, then a scan finds the first
 * call of a matching method, so a search matching millions of calls costs
 * no memory and each step at most one pass over the calls.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-search.h"

struct _StrataSearch
{
  gatomicrefcount ref_count;  /* the session's search and the track filter share one */
  StrataTrace *trace;
  char        *text;
  gboolean     regex;
  char        *folded;     /* substring mode: the text in lower case */
  GRegex      *pattern;    /* regex mode */
  guint8      *methods;    /* 1 where the method's name matches */
  GArray      *events;     /* guint, matching events by start then index */
  guint64      n_calls;    /* calls of matching methods */
  guint8      *threads;    /* 1 where a thread has a matching call or event */
};

gboolean
strata_search_matches_name (const StrataSearch *self,
                            const char         *name)
{
  g_autofree char *folded = NULL;

  if (name == NULL)
    return FALSE;
  if (self->pattern != NULL)
    return g_regex_match (self->pattern, name, 0, NULL);
  folded = g_utf8_casefold (name, -1);
  return strstr (folded, self->folded) != NULL;
}

static int
compare_events (gconstpointer a,
                gconstpointer b,
                gpointer      data)
{
  StrataTrace *trace = data;
  guint ia = *(const guint *) a, ib = *(const guint *) b;
  gint64 sa = strata_trace_get_event (trace, ia)->start, sb = strata_trace_get_event (trace, ib)->start;

  if (sa != sb)
    return sa < sb ? -1 : 1;
  return ia < ib ? -1 : ia > ib;
}

static void
match_events (StrataSearch *self)
{
  guint n = strata_trace_get_n_events (self->trace);
  g_autoptr(GHashTable) names = g_hash_table_new (NULL, NULL);   /* name id + 1 -> 1 match, 2 no */

  self->events = g_array_new (FALSE, FALSE, sizeof (guint));
  for (guint i = 0; i < n; i++)
    {
      guint32 name = strata_trace_get_event (self->trace, i)->name;
      guint known = GPOINTER_TO_UINT (g_hash_table_lookup (names, GUINT_TO_POINTER (name + 1)));

      if (known == 0)
        {
          known = strata_search_matches_name (self, strata_trace_get_string (self->trace, name)) ? 1 : 2;
          g_hash_table_insert (names, GUINT_TO_POINTER (name + 1), GUINT_TO_POINTER (known));
        }
      if (known == 1)
        g_array_append_val (self->events, i);
    }
  g_array_sort_with_data (self->events, compare_events, self->trace);
}

/* The calls of matching methods, and which threads hold any (or a
 * matching event): a track filter keeps those. */
static guint64
count_calls (StrataSearch *self)
{
  guint n_threads = strata_trace_get_n_threads (self->trace);
  guint64 n = 0;

  self->threads = g_new0 (guint8, MAX (n_threads, 1));
  for (guint t = 0; t < n_threads; t++)
    {
      const StrataSpanTable *table = strata_trace_get_thread (self->trace, t)->spans;
      guint64 before = n;

      for (guint d = 0; table != NULL && d < table->n_depths; d++)
        for (guint32 i = 0; i < table->n_spans[d]; i++)
          n += self->methods[table->calls[d][i].method];
      self->threads[t] = n > before;
    }
  for (guint e = 0; e < self->events->len; e++)
    {
      guint32 thread = strata_trace_get_event (self->trace, g_array_index (self->events, guint, e))->thread;

      if (thread != STRATA_NO_THREAD && thread < n_threads)
        self->threads[thread] = 1;
    }
  return n;
}

/* Whether @thread holds a call or an event the search matches. */
gboolean
strata_search_matches_in_thread (const StrataSearch *self,
                                 guint               thread)
{
  return thread < strata_trace_get_n_threads (self->trace) && self->threads[thread] != 0;
}

/**
 * strata_search_new:
 * @regex: whether @text is a regular expression (matched without regard
 *   to case, as the substring is)
 *
 * Returns: (transfer full) (nullable): the search, or %NULL with @error
 *   set when @text is not a valid expression
 */
StrataSearch *
strata_search_new (StrataTrace  *trace,
                   const char   *text,
                   gboolean      regex,
                   GError      **error)
{
  g_autoptr(StrataSearch) self = g_new0 (StrataSearch, 1);
  guint n_methods = strata_trace_get_n_methods (trace);

  g_atomic_ref_count_init (&self->ref_count);
  self->trace = g_object_ref (trace);
  self->text = g_strdup (text);
  self->regex = regex;
  if (regex && (self->pattern = g_regex_new (text, G_REGEX_CASELESS | G_REGEX_OPTIMIZE, 0, error)) == NULL)
    return NULL;
  if (!regex)
    self->folded = g_utf8_casefold (text, -1);
  self->methods = g_malloc0 (MAX (n_methods, 1));
  for (guint m = 0; m < n_methods; m++)
    self->methods[m] = strata_search_matches_name (self, strata_trace_get_method_name (trace, m));
  match_events (self);
  self->n_calls = count_calls (self);
  return g_steal_pointer (&self);
}

/* Returns: (transfer full): @self, which never changes once made */
StrataSearch *
strata_search_ref (const StrataSearch *self)
{
  StrataSearch *search = (StrataSearch *) self;

  g_atomic_ref_count_inc (&search->ref_count);
  return search;
}

void
strata_search_unref (StrataSearch *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_clear_object (&self->trace);
  g_free (self->text);
  g_free (self->folded);
  g_clear_pointer (&self->pattern, g_regex_unref);
  g_free (self->methods);
  g_free (self->threads);
  g_clear_pointer (&self->events, g_array_unref);
  g_free (self);
}

const char *
strata_search_get_text (const StrataSearch *self)
{
  return self->text;
}

gboolean
strata_search_get_regex (const StrataSearch *self)
{
  return self->regex;
}

/* A byte per method: 1 where its name matches. */
const guint8 *
strata_search_get_methods (const StrataSearch *self)
{
  return self->methods;
}

gboolean
strata_search_matches_event (const StrataSearch *self,
                             guint               event)
{
  guint lo = 0, hi = self->events->len;
  const StrataEvent *wanted = strata_trace_get_event (self->trace, event);

  /* The list is in (start, index) order. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      guint at = g_array_index (self->events, guint, mid);
      gint64 start = strata_trace_get_event (self->trace, at)->start;

      if (at == event)
        return TRUE;
      if (start < wanted->start || (start == wanted->start && at < event))
        lo = mid + 1;
      else
        hi = mid;
    }
  return FALSE;
}

/* The calls of matching methods in every thread. */
guint64
strata_search_count_calls (const StrataSearch *self)
{
  return self->n_calls;
}


guint
strata_search_count_events (const StrataSearch *self)
{
  return self->events->len;
}

/* ---- Walking ---- */

/* Hits in time order, ties by kind (calls first), thread, depth, index. */
static int
compare_hits (const StrataSearchHit *a,
              const StrataSearchHit *b)
{
  if (a->start != b->start)
    return a->start < b->start ? -1 : 1;
  if (a->is_event != b->is_event)
    return a->is_event ? 1 : -1;
  if (a->thread != b->thread)
    return a->thread < b->thread ? -1 : 1;
  if (a->depth != b->depth)
    return a->depth < b->depth ? -1 : 1;
  return a->index < b->index ? -1 : a->index > b->index;
}

/* The first call at @depth starting at or after @time. */
static guint32
first_starting_from (const StrataSpanTable *table,
                     guint                  clock,
                     guint                  depth,
                     gint64                 time)
{
  guint32 lo = 0, hi = table->n_spans[depth];

  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (strata_span_table_get_start (table, clock, depth, mid) < time)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The nearest matching call of one depth past @from in @direction. */
static gboolean
step_depth (const StrataSearch    *self,
            const StrataSpanTable *table,
            guint                  clock,
            guint                  thread,
            guint                  depth,
            const StrataSearchHit *from,
            int                    direction,
            StrataSearchHit       *found)
{
  guint32 n = table->n_spans[depth];
  gint64 at = first_starting_from (table, clock, depth, from->start);

  /* Back off over ties so the comparison below decides them. */
  if (direction > 0)
    while (at > 0 && strata_span_table_get_start (table, clock, depth, at - 1) >= from->start)
      at--;
  else
    {
      while (at < n && strata_span_table_get_start (table, clock, depth, at) <= from->start)
        at++;
      at--;
    }
  for (; at >= 0 && at < n; at += direction)
    {
      StrataSearchHit hit = { FALSE, thread, depth, (guint32) at, strata_span_table_get_start (table, clock, depth, at) };

      if (!self->methods[table->calls[depth][at].method] || compare_hits (&hit, from) * direction <= 0)
        continue;
      *found = hit;
      return TRUE;
    }
  return FALSE;
}

static gboolean
step_event (const StrataSearch    *self,
            const StrataSearchHit *from,
            int                    direction,
            StrataSearchHit       *found)
{
  /* Few enough to walk: events are not millions of calls. */
  for (guint k = 0; k < self->events->len; k++)
    {
      guint i = direction > 0 ? k : self->events->len - 1 - k;
      guint event = g_array_index (self->events, guint, i);
      StrataSearchHit hit = { TRUE, 0, 0, event, strata_trace_get_event (self->trace, event)->start };

      if (compare_hits (&hit, from) * direction > 0)
        {
          *found = hit;
          return TRUE;
        }
    }
  return FALSE;
}

/**
 * strata_search_step:
 * @clock: the clock whose times order the calls
 * @from: where to walk from (a hit, or a time with is_event and thread 0)
 * @direction: 1 for the next match, -1 for the previous one
 * @hit: (out): the match
 *
 * Returns: whether there is one
 */
gboolean
strata_search_step (const StrataSearch    *self,
                    guint                  clock,
                    const StrataSearchHit *from,
                    int                    direction,
                    StrataSearchHit       *hit)
{
  gboolean found = FALSE;
  StrataSearchHit best = { 0 }, candidate;

  for (guint t = 0; t < strata_trace_get_n_threads (self->trace); t++)
    {
      const StrataSpanTable *table = strata_trace_get_thread (self->trace, t)->spans;

      for (guint d = 0; table != NULL && d < table->n_depths; d++)
        if (step_depth (self, table, clock, t, d, from, direction, &candidate) &&
            (!found || compare_hits (&candidate, &best) * direction < 0))
          best = candidate, found = TRUE;
    }
  if (step_event (self, from, direction, &candidate) && (!found || compare_hits (&candidate, &best) * direction < 0))
    best = candidate, found = TRUE;
  if (found)
    *hit = best;
  return found;
}
