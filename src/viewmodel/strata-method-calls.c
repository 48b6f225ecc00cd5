/* strata-method-calls.c: every call of one method, as a list with figures
 *
 * What Tracy's Find Zone shows: how long each call of a method took, as a
 * histogram and a list sortable by duration, start and thread. The calls
 * are one compact array; the list is an order over it, cut to a band of
 * durations when a bar of the histogram is chosen, and its rows are made
 * only when a view asks for them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "strata-method-call-row.h"
#include "strata-method-calls.h"

struct _StrataMethodCalls
{
  GObject           parent_instance;

  StrataTrace      *trace;
  guint32           method;
  GArray           *calls;      /* StrataMethodCall, by start */
  gint64           *durations;  /* sorted, for the figures */
  guint32          *order;      /* the list: calls in the band, sorted */
  guint             n_shown;
  gboolean          has_band;
  gint64            band_shortest;
  gint64            band_longest;
  StrataMethodCallsSort sort;
  gboolean          descending;
};

static void strata_method_calls_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrataMethodCalls, strata_method_calls, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, strata_method_calls_model_init))

static GType
get_item_type (GListModel *model)
{
  return STRATA_TYPE_METHOD_CALL_ROW;
}

static guint
get_n_items (GListModel *model)
{
  return STRATA_METHOD_CALLS (model)->n_shown;
}

static gpointer
get_item (GListModel *model,
          guint       position)
{
  StrataMethodCalls *self = STRATA_METHOD_CALLS (model);

  if (position >= self->n_shown)
    return NULL;
  return strata_method_call_row_new (strata_method_calls_get (self, position));
}

static void
strata_method_calls_model_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

static void
strata_method_calls_finalize (GObject *object)
{
  StrataMethodCalls *self = STRATA_METHOD_CALLS (object);

  g_clear_object (&self->trace);
  g_clear_pointer (&self->calls, g_array_unref);
  g_free (self->durations);
  g_free (self->order);
  G_OBJECT_CLASS (strata_method_calls_parent_class)->finalize (object);
}

static void
strata_method_calls_class_init (StrataMethodCallsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strata_method_calls_finalize;
}

static void
strata_method_calls_init (StrataMethodCalls *self)
{
}

static int
compare_gint64 (const void *a,
                const void *b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static int
compare_calls_by_start (const void *a,
                        const void *b)
{
  const StrataMethodCall *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return x->thread < y->thread ? -1 : x->thread > y->thread;
}

static void
collect (StrataMethodCalls *self,
         guint              clock)
{
  for (guint t = 0; t < strata_trace_get_n_threads (self->trace); t++)
    {
      const StrataSpanTable *table = strata_trace_get_thread (self->trace, t)->spans;

      for (guint d = 0; table != NULL && d < table->n_depths; d++)
        for (guint32 i = 0; i < table->n_spans[d]; i++)
          if (table->calls[d][i].method == self->method)
            {
              gint64 start = strata_span_table_get_start (table, clock, d, i);
              StrataMethodCall call = { start, strata_span_table_get_end (table, clock, d, i) - start, t, d, i };

              g_array_append_val (self->calls, call);
            }
    }
  qsort (self->calls->data, self->calls->len, sizeof (StrataMethodCall), compare_calls_by_start);
}

/**
 * strata_method_calls_new:
 * @clock: the clock durations and starts are on
 *
 * Returns: (transfer full): the calls of @method on every thread, longest
 *   first
 */
StrataMethodCalls *
strata_method_calls_new (StrataTrace *trace,
                         guint        clock,
                         guint32      method)
{
  StrataMethodCalls *self = g_object_new (STRATA_TYPE_METHOD_CALLS, NULL);

  self->trace = g_object_ref (trace);
  self->method = method;
  self->calls = g_array_new (FALSE, FALSE, sizeof (StrataMethodCall));
  collect (self, clock);
  self->durations = g_new (gint64, MAX (self->calls->len, 1));
  for (guint i = 0; i < self->calls->len; i++)
    self->durations[i] = g_array_index (self->calls, StrataMethodCall, i).duration;
  qsort (self->durations, self->calls->len, sizeof (gint64), compare_gint64);
  self->order = g_new (guint32, MAX (self->calls->len, 1));
  strata_method_calls_sort (self, STRATA_METHOD_CALLS_BY_DURATION, TRUE);
  return self;
}

StrataTrace *
strata_method_calls_get_trace (StrataMethodCalls *self)
{
  return self->trace;
}

guint32
strata_method_calls_get_method (StrataMethodCalls *self)
{
  return self->method;
}

/* The call at @position of the list (in its band and order). */
const StrataMethodCall *
strata_method_calls_get (StrataMethodCalls *self,
                         guint              position)
{
  g_return_val_if_fail (position < self->n_shown, NULL);

  return &g_array_index (self->calls, StrataMethodCall, self->order[position]);
}

/* ---- Order and band ---- */

static int
compare_positions (gconstpointer a,
                   gconstpointer b,
                   gpointer      data)
{
  StrataMethodCalls *self = data;
  const StrataMethodCall *x = &g_array_index (self->calls, StrataMethodCall, *(const guint32 *) a);
  const StrataMethodCall *y = &g_array_index (self->calls, StrataMethodCall, *(const guint32 *) b);
  int order = 0;

  if (self->sort == STRATA_METHOD_CALLS_BY_DURATION)
    order = x->duration < y->duration ? -1 : x->duration > y->duration;
  else if (self->sort == STRATA_METHOD_CALLS_BY_THREAD)
    order = x->thread < y->thread ? -1 : x->thread > y->thread;
  if (self->descending)
    order = -order;
  /* Ties, and the start order itself: by start, earliest first. */
  if (order == 0)
    order = *(const guint32 *) a < *(const guint32 *) b ? -1 : *(const guint32 *) a > *(const guint32 *) b;
  if (self->sort == STRATA_METHOD_CALLS_BY_START && self->descending)
    order = -order;
  return order;
}

static gboolean
in_band (StrataMethodCalls      *self,
         const StrataMethodCall *call)
{
  return !self->has_band || (call->duration >= self->band_shortest && call->duration <= self->band_longest);
}

/* The list again: the calls in the band, in the order asked for. */
static void
rebuild (StrataMethodCalls *self)
{
  guint before = self->n_shown;

  self->n_shown = 0;
  for (guint i = 0; i < self->calls->len; i++)
    if (in_band (self, &g_array_index (self->calls, StrataMethodCall, i)))
      self->order[self->n_shown++] = i;
  g_qsort_with_data (self->order, self->n_shown, sizeof (guint32), compare_positions, self);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, before, self->n_shown);
}

void
strata_method_calls_sort (StrataMethodCalls     *self,
                          StrataMethodCallsSort  sort,
                          gboolean               descending)
{
  g_return_if_fail (STRATA_IS_METHOD_CALLS (self));

  self->sort = sort;
  self->descending = descending;
  rebuild (self);
}

/**
 * strata_method_calls_set_band:
 *
 * Lists only the calls lasting from @shortest to @longest (both
 * included); @longest below @shortest lists them all again.
 */
void
strata_method_calls_set_band (StrataMethodCalls *self,
                              gint64             shortest,
                              gint64             longest)
{
  g_return_if_fail (STRATA_IS_METHOD_CALLS (self));

  self->has_band = longest >= shortest;
  self->band_shortest = shortest;
  self->band_longest = longest;
  rebuild (self);
}

gboolean
strata_method_calls_get_band (StrataMethodCalls *self,
                              gint64            *shortest,
                              gint64            *longest)
{
  g_return_val_if_fail (STRATA_IS_METHOD_CALLS (self), FALSE);

  if (shortest != NULL)
    *shortest = self->band_shortest;
  if (longest != NULL)
    *longest = self->band_longest;
  return self->has_band;
}

/* ---- Figures ---- */

static gint64
percentile (StrataMethodCalls *self,
            double             share)
{
  guint n = self->calls->len;

  return n == 0 ? 0 : self->durations[MIN (n - 1, (guint) floor (share * (n - 1) + 0.5))];
}

void
strata_method_calls_get_stats (StrataMethodCalls     *self,
                               StrataMethodCallStats *stats)
{
  guint n = self->calls->len;

  g_return_if_fail (STRATA_IS_METHOD_CALLS (self));

  *stats = (StrataMethodCallStats) { n, 0, 0, 0, 0, 0, 0, 0 };
  if (n == 0)
    return;
  for (guint i = 0; i < n; i++)
    stats->total += self->durations[i];
  stats->min = self->durations[0];
  stats->max = self->durations[n - 1];
  stats->median = percentile (self, 0.5);
  stats->p90 = percentile (self, 0.9);
  stats->p99 = percentile (self, 0.99);
  stats->mean = (double) stats->total / n;
}

/* The bin of @duration among @n_bins from @edges[0] to @edges[n_bins]. */
static guint
bin_of (gint64        duration,
        const gint64 *edges,
        guint         n_bins)
{
  guint lo = 0, hi = n_bins;

  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;

      if (duration >= edges[mid])
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

/**
 * strata_method_calls_histogram:
 * @log_scale: bins of equal ratio rather than equal width, so calls of
 *   a microsecond and of a second both show
 * @counts: (out caller-allocates): @n_bins counts of calls
 * @edges: (out caller-allocates): @n_bins + 1 durations; bin i holds the
 *   calls from edges[i] to just under edges[i + 1], the last one up to
 *   and with edges[n_bins]
 */
void
strata_method_calls_histogram (StrataMethodCalls *self,
                               gboolean           log_scale,
                               guint              n_bins,
                               guint64           *counts,
                               gint64            *edges)
{
  guint n = self->calls->len;
  gint64 shortest = n > 0 ? self->durations[0] : 0, longest = n > 0 ? self->durations[n - 1] : 1;
  double low = log (MAX (shortest, 1)), high = log (MAX (longest, 1));

  g_return_if_fail (STRATA_IS_METHOD_CALLS (self) && n_bins > 0);

  for (guint b = 0; b <= n_bins; b++)
    edges[b] = log_scale && high > low ? (gint64) ceil (exp (low + (high - low) * b / n_bins))
                                       : shortest + (gint64) ceil ((double) (longest - shortest) * b / n_bins);
  edges[0] = shortest;
  edges[n_bins] = longest;
  memset (counts, 0, n_bins * sizeof (guint64));
  for (guint i = 0; i < n; i++)
    counts[bin_of (self->durations[i], edges, n_bins)]++;
}

/* The calls in the band (all without one) as (start, end) pairs by start,
 * as the timeline's marks take them. */
GArray *
strata_method_calls_dup_marks (StrataMethodCalls *self)
{
  GArray *pairs = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint i = 0; i < self->calls->len; i++)
    {
      const StrataMethodCall *call = &g_array_index (self->calls, StrataMethodCall, i);
      gint64 pair[2] = { call->start, call->start + call->duration };

      if (in_band (self, call))
        g_array_append_vals (pairs, pair, 2);
    }
  return pairs;
}
