/* strata-v8-groups.h: a V8 profile's samples summed up in runs of one node
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Samples of one node in a row: their first sample's id and delta, and
 * the samples of that id after it whose deltas do not go back, with the
 * sum of their deltas. Sixteen bytes: the loading thread reads them
 * from another core's cache. */
typedef struct
{
  gint32  id;
  gint32  delta;              /* µs from the sample before to the first */
  guint32 n_samples;          /* with the flag below, or not */
  guint32 sum;                /* µs from the first to the last */
} StrataV8SampleGroup;

/* A sample whose id or delta does not fit a group's 32 bits: a group of
 * its own, added from the arrays. */
#define STRATA_V8_GROUP_BY_SAMPLES (1u << 31)

/* Groups a chunk's samples as their deltas are read, a block at a time,
 * once their ids are known: the deltas need not be kept. */
typedef struct
{
  const gint64        *ids;
  guint                n_ids;
  StrataV8SampleGroup *groups;  /* room for @n_ids */
  guint                n_groups;
  guint                next;    /* the sample the next delta is of */
  gint64               open_id; /* of the last group, if it may grow */
  gboolean             open;
} StrataV8Grouper;

void  strata_v8_grouper_init       (StrataV8Grouper     *self,
                                    const gint64        *ids,
                                    guint                n_ids,
                                    StrataV8SampleGroup *groups);
void  strata_v8_grouper_add_deltas (StrataV8Grouper     *self,
                                    const gint64        *deltas,
                                    guint                n);
guint strata_v8_grouper_finish     (StrataV8Grouper     *self);

guint strata_v8_group_samples_into (const gint64        *ids,
                                    guint                n_ids,
                                    const gint64        *deltas,
                                    guint                n_deltas,
                                    StrataV8SampleGroup *groups);
guint strata_v8_group_samples      (const gint64        *ids,
                                    guint                n_ids,
                                    const gint64        *deltas,
                                    guint                n_deltas,
                                    GArray              *groups);

G_END_DECLS
