/* strata-v8-groups.c: a V8 profile's samples summed up in runs of one node
 *
 * A recording's samples are mostly runs of one node; the scanner sums
 * them up beside its scan, without side effects, and the loading thread
 * adds a run at once (strata_v8_profile_add_sample_groups()).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-v8-groups.h"

static inline gboolean
fits_group (gint64 value)
{
  return value >= G_MININT32 && value <= G_MAXINT32;
}

void
strata_v8_grouper_init (StrataV8Grouper     *self,
                        const gint64        *ids,
                        guint                n_ids,
                        StrataV8SampleGroup *groups)
{
  *self = (StrataV8Grouper) { ids, n_ids, groups, 0, 0, 0, FALSE };
}

/* The sample @self->next, @delta µs after the one before: it grows the
 * last group, or starts one. */
static inline void
add_delta (StrataV8Grouper *self,
           gint64           delta)
{
  gint64 id = self->ids[self->next++];

  if (self->open && id == self->open_id && delta >= 0)
    {
      StrataV8SampleGroup *last = &self->groups[self->n_groups - 1];

      if ((guint64) last->sum + (guint64) delta <= G_MAXUINT32 && last->n_samples < STRATA_V8_GROUP_BY_SAMPLES - 1)
        {
          last->n_samples++;
          last->sum += (guint32) delta;
          return;
        }
    }
  self->open = fits_group (id) && fits_group (delta);
  self->open_id = id;
  self->groups[self->n_groups++] = self->open
    ? (StrataV8SampleGroup) { (gint32) id, (gint32) delta, 1, 0 }
    : (StrataV8SampleGroup) { 0, 0, 1 | STRATA_V8_GROUP_BY_SAMPLES, 0 };
}

/**
 * strata_v8_grouper_add_deltas:
 *
 * The deltas of the next samples; those past the last sample are left.
 */
void
strata_v8_grouper_add_deltas (StrataV8Grouper *self,
                              const gint64    *deltas,
                              guint            n)
{
  n = MIN (n, self->n_ids - self->next);
  for (guint i = 0; i < n; i++)
    add_delta (self, deltas[i]);
}

/**
 * strata_v8_grouper_finish:
 *
 * Samples without a delta come at the time of the one before.
 *
 * Returns: how many groups were written
 */
guint
strata_v8_grouper_finish (StrataV8Grouper *self)
{
  while (self->next < self->n_ids)
    add_delta (self, 0);
  self->open = FALSE;
  return self->n_groups;
}

/**
 * strata_v8_group_samples_into:
 * @groups: (out): room for a group per sample
 *
 * Sums up a chunk's samples whose deltas were kept.
 *
 * Returns: how many groups were written
 */
guint
strata_v8_group_samples_into (const gint64        *ids,
                              guint                n_ids,
                              const gint64        *deltas,
                              guint                n_deltas,
                              StrataV8SampleGroup *groups)
{
  StrataV8Grouper grouper;

  strata_v8_grouper_init (&grouper, ids, n_ids, groups);
  strata_v8_grouper_add_deltas (&grouper, deltas, n_deltas);
  return strata_v8_grouper_finish (&grouper);
}

/**
 * strata_v8_group_samples:
 * @groups: (element-type StrataV8SampleGroup): groups appended, as
 *   strata_v8_group_samples_into() writes them
 *
 * Returns: how many groups were appended
 */
guint
strata_v8_group_samples (const gint64 *ids,
                         guint         n_ids,
                         const gint64 *deltas,
                         guint         n_deltas,
                         GArray       *groups)
{
  guint at = groups->len, n;

  g_return_val_if_fail (n_ids <= G_MAXUINT - at, 0);
  g_array_set_size (groups, at + n_ids);
  n = strata_v8_group_samples_into (ids, n_ids, deltas, n_deltas, &g_array_index (groups, StrataV8SampleGroup, at));
  g_array_set_size (groups, at + n);
  return n;
}
