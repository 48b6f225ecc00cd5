/* strata-v8-profile-private.h: a V8 profile's nodes and samples, for
 * the walk through them (strata-v8-stacks.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-v8-profile.h"

G_BEGIN_DECLS

/* Deeper stacks are cut: a parent cycle must not loop. */
#define MAX_STACK_DEPTH 65536
#define NO_NODE G_MAXUINT32

/* The frames V8 makes up for time outside JavaScript. */
typedef enum
{
  NODE_FRAME,         /* a function, or "(root)" */
  NODE_IDLE,          /* "(idle)": nothing ran */
  NODE_PROGRAM,       /* "(program)": the engine, outside JavaScript */
  NODE_GC,            /* "(garbage collector)" */
} NodeKind;

/* Millions in a long recording: kept in eight bytes, stacks made as
 * they are walked (strata_v8_stacks_next()). */
typedef struct
{
  guint32 method;      /* NO_NODE for "(root)" and "(idle)" */
  guint32 parent : 30; /* a node index, or NO_PARENT */
  guint32 kind : 2;    /* NodeKind */
} Node;

#define NO_PARENT ((1u << 30) - 1)
/* Far beyond what a file holds (a node takes 30 bytes of JSON at least). */
#define MAX_NODES NO_PARENT

static inline guint32
node_parent (const Node *node)
{
  return node->parent != NO_PARENT ? node->parent : NO_NODE;
}

/* A sample, and the samples of its node that came straight after it
 * (its run), in 16 bytes: a long recording has millions. @when holds
 * its time in µs (53 bits, signed) and the low bits of how many samples
 * its run has after it; @what its node, the rest of that count and how
 * long the run lasts in µs. A run that would outgrow them goes on as a
 * sample of its own, which changes nothing: the same stack follows.
 * Samples of one time keep the order they were read in: they are put in
 * order by stable sorts. */
typedef struct
{
  guint64 when;
  guint64 what;
} Sample;

#define RUN_LOW_BITS   11
#define RUN_HIGH_BITS  5
#define MAX_RUN        ((1u << (RUN_LOW_BITS + RUN_HIGH_BITS)) - 1)
#define LENGTH_BITS    29
#define MAX_RUN_LENGTH ((G_GINT64_CONSTANT (1) << LENGTH_BITS) - 1)
#define NODE_SHIFT     (LENGTH_BITS + RUN_HIGH_BITS)

/* µs */
static inline gint64
sample_time (const Sample *sample)
{
  return (gint64) sample->when >> RUN_LOW_BITS;
}

static inline guint32
sample_node (const Sample *sample)
{
  return (guint32) (sample->what >> NODE_SHIFT);
}

static inline guint32
sample_run (const Sample *sample)
{
  return (guint32) (sample->when & ((1u << RUN_LOW_BITS) - 1)) |
         (guint32) ((sample->what >> LENGTH_BITS) & ((1u << RUN_HIGH_BITS) - 1)) << RUN_LOW_BITS;
}

/* µs: when the last sample of its run was taken */
static inline gint64
sample_run_end (const Sample *sample)
{
  return sample_time (sample) + (gint64) (sample->what & MAX_RUN_LENGTH);
}

static inline Sample
sample_new (gint64  time,
            guint32 node)
{
  return (Sample) { (guint64) time << RUN_LOW_BITS, (guint64) node << NODE_SHIFT };
}

/* Whether @sample's run can take @more samples, the last at @end (µs). */
static inline gboolean
sample_run_fits (const Sample *sample,
                 guint32       more,
                 gint64        end)
{
  return sample_run (sample) <= MAX_RUN - more && end - sample_time (sample) <= MAX_RUN_LENGTH;
}

/* @sample's run grown by @more samples, the last at @end (µs). */
static inline void
sample_run_grow (Sample  *sample,
                 guint32  more,
                 gint64   end)
{
  guint32 run = sample_run (sample) + more;

  sample->when = (sample->when & ~(guint64) ((1u << RUN_LOW_BITS) - 1)) | (run & ((1u << RUN_LOW_BITS) - 1));
  sample->what = (guint64) sample_node (sample) << NODE_SHIFT | (guint64) (run >> RUN_LOW_BITS) << LENGTH_BITS |
                 (guint64) (end - sample_time (sample));
}

struct _StrataV8Profile
{
  StrataV8MethodFunc method_func;
  gpointer           data;
  GArray            *nodes;       /* Node */
  GHashTable        *index_of;    /* node id (gint64) → index + 1 */
  GArray            *samples;     /* Sample, in the order read; a run of one node kept once */
  GArray            *dense;       /* guint32 index + 1 by small node id, 0 for none */
  guint64            n_read;      /* samples read, runs counted whole */
  gint64             first_time;  /* µs: the earliest and latest sample read */
  gint64             last_time;
  gint64             time;        /* µs: the last sample's, or the start */
  gint64             end;         /* µs, or G_MININT64 */
  gboolean           ordered;
  guint64            n_cut_stacks;
  guint64            n_unknown_samples;
  guint64            n_reordered;
  GHashTable        *frame_methods;  /* FrameKey → method + 1 */
  /* Call frames by their text, as a chunk writes them: a repeated frame
   * is known without being parsed again. */
  GHashTable        *frame_texts;    /* FrameText → its number + 1 in @frames */
  GArray            *frames;         /* KnownFrame */
};

void strata_v8_profile_begin_walk (StrataV8Profile *self);

G_END_DECLS
