/* strata-counter.h: one counter track, its series as compact arrays
 *
 * A Trace Event counter ("C") names a track per process (and per id when
 * given); each key of its args is one series. Samples are kept sorted by
 * time; a series missing from a sample holds its previous value, as the
 * chart draws steps.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint32  name;          /* string pool ids */
  guint32  category;
  guint32  id;            /* 0 when the counter has no id */
  guint    process;       /* index into the trace's processes */
  guint    n_series;
  guint32 *series_names;  /* n_series string pool ids */
  gsize    n_samples;
  gint64  *times;         /* n_samples, ascending */
  double **values;        /* n_series arrays of n_samples */
} StrataCounter;

typedef struct _StrataCounterBuilder StrataCounterBuilder;

StrataCounterBuilder *strata_counter_builder_new     (guint32               name,
                                                      guint32               category,
                                                      guint32               id,
                                                      guint                 process);
void                  strata_counter_builder_add     (StrataCounterBuilder *self,
                                                      gint64                time,
                                                      guint32               series_name,
                                                      double                value);
void                  strata_counter_builder_end_sample (StrataCounterBuilder *self);
StrataCounter        *strata_counter_builder_finish  (StrataCounterBuilder *self);
void                  strata_counter_builder_free    (StrataCounterBuilder *self);
void                  strata_counter_free            (StrataCounter        *self);
gboolean              strata_counter_name_says_bytes (const char           *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrataCounter, strata_counter_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrataCounterBuilder, strata_counter_builder_free)

G_END_DECLS
