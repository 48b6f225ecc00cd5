/* strata-counter.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <stdlib.h>

#include "strata-counter.h"

/* More series than this on one counter are dropped: no chart can show
 * them, and a hostile file must not make each sample cost that much. */
#define MAX_SERIES 256

typedef struct
{
  gint64  time;
  guint32 sample;   /* order of the "C" event in the file */
  guint32 series;
  double  value;
} CounterPoint;

struct _StrataCounterBuilder
{
  StrataCounter *counter;
  GArray        *series_names;   /* guint32 */
  GArray        *points;         /* CounterPoint */
  guint32        n_samples;
  gboolean       sample_open;
};

StrataCounterBuilder *
strata_counter_builder_new (guint32 name,
                            guint32 category,
                            guint32 id,
                            guint   process)
{
  StrataCounterBuilder *self = g_new0 (StrataCounterBuilder, 1);

  self->counter = g_new0 (StrataCounter, 1);
  self->counter->name = name;
  self->counter->category = category;
  self->counter->id = id;
  self->counter->process = process;
  self->series_names = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->points = g_array_new (FALSE, FALSE, sizeof (CounterPoint));
  return self;
}

static gint
find_series (StrataCounterBuilder *self,
             guint32               name)
{
  const guint32 *names = (const guint32 *) self->series_names->data;

  for (guint i = 0; i < self->series_names->len; i++)
    if (names[i] == name)
      return i;
  if (self->series_names->len == MAX_SERIES)
    return -1;
  g_array_append_val (self->series_names, name);
  return self->series_names->len - 1;
}

void
strata_counter_builder_add (StrataCounterBuilder *self,
                            gint64                time,
                            guint32               series_name,
                            double                value)
{
  gint series = find_series (self, series_name);
  CounterPoint point = { time, self->n_samples, series, value };

  if (series < 0)
    return;
  g_array_append_val (self->points, point);
  self->sample_open = TRUE;
}

/* The values added since the last call form one sample. */
void
strata_counter_builder_end_sample (StrataCounterBuilder *self)
{
  if (self->sample_open)
    self->n_samples++;
  self->sample_open = FALSE;
}

static int
compare_points (const void *a,
                const void *b)
{
  const CounterPoint *pa = a, *pb = b;

  if (pa->time != pb->time)
    return pa->time < pb->time ? -1 : 1;
  if (pa->sample != pb->sample)
    return pa->sample < pb->sample ? -1 : 1;
  return 0;
}

static void
fill_samples (StrataCounter      *counter,
              const CounterPoint *points,
              gsize               n_points)
{
  gsize k = 0;

  for (gsize i = 0; i < n_points; k++)
    {
      guint32 sample = points[i].sample;

      counter->times[k] = points[i].time;
      /* Series absent from this sample hold their previous value. */
      for (guint s = 0; s < counter->n_series; s++)
        counter->values[s][k] = k > 0 ? counter->values[s][k - 1] : 0;
      for (; i < n_points && points[i].sample == sample; i++)
        counter->values[points[i].series][k] = points[i].value;
    }
  counter->n_samples = k;
}

/**
 * strata_counter_builder_finish:
 *
 * Sorts the samples by time (the file order breaks ties) and lays each
 * series out as one array. Frees @self.
 */
StrataCounter *
strata_counter_builder_finish (StrataCounterBuilder *self)
{
  StrataCounter *counter = g_steal_pointer (&self->counter);
  gsize n_points = self->points->len;

  strata_counter_builder_end_sample (self);
  if (n_points > 0)
    qsort (self->points->data, n_points, sizeof (CounterPoint), compare_points);

  counter->n_series = self->series_names->len;
  counter->series_names = g_memdup2 (self->series_names->data, sizeof (guint32) * counter->n_series);
  counter->times = g_new (gint64, MAX (self->n_samples, 1));
  counter->values = g_new0 (double *, MAX (counter->n_series, 1));
  for (guint s = 0; s < counter->n_series; s++)
    counter->values[s] = g_new (double, MAX (self->n_samples, 1));
  fill_samples (counter, (const CounterPoint *) self->points->data, n_points);

  strata_counter_builder_free (self);
  return counter;
}

void
strata_counter_builder_free (StrataCounterBuilder *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->counter, strata_counter_free);
  g_array_unref (self->series_names);
  g_array_unref (self->points);
  g_free (self);
}

/* Whether a counter or series named @name counts bytes ("allocatedBytes",
 * "heap_bytes"): its values are then shown in KiB, MiB, GiB. */
gboolean
strata_counter_name_says_bytes (const char *name)
{
  g_autofree char *folded = g_ascii_strdown (name != NULL ? name : "", -1);

  return strstr (folded, "byte") != NULL;
}

void
strata_counter_free (StrataCounter *self)
{
  if (self == NULL)
    return;
  for (guint s = 0; s < self->n_series; s++)
    g_free (self->values[s]);
  g_free (self->values);
  g_free (self->times);
  g_free (self->series_names);
  g_free (self);
}
