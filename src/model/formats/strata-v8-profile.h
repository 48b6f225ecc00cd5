/* strata-v8-profile.h: V8's sampling profile, as stacks at known times
 *
 * V8's CPU profiler writes a tree of call frames ("nodes", linked by
 * "children" or "parent"), the node each sample hit and the microseconds
 * between samples. A .cpuprofile holds one whole; a Trace Event file
 * holds each profile in "ProfileChunk" events, a few nodes and samples at
 * a time. Both readers feed them here and lay the stacks out as calls
 * their own way (strata-stack-layout.h).
 *
 * As DevTools does: "(root)" is not a frame, "(idle)" samples have no
 * stack, and samples whose deltas go back in time are put in time order.
 * Among a thread's trace events, "(program)" samples have no stack
 * either, and "(garbage collector)" runs on the stack sampled before it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-stack-layout.h"
#include "strata-v8-groups.h"

G_BEGIN_DECLS

typedef struct _StrataV8Profile StrataV8Profile;

/* What had to be repaired, summed over a file's profiles. */
typedef struct
{
  guint64 n_unknown_samples;  /* samples of a node the profile has not */
  guint64 n_reordered;        /* samples put back in time order */
  guint64 n_cut_stacks;       /* stacks cut at MAX_STACK_DEPTH, or looping */
} StrataV8Repairs;

/* A node as read: its id and parent (or children), its call frame. */
typedef struct
{
  gboolean       has_id;      /* FALSE: no object, a node without a frame */
  gint64         id;
  gint64         parent;      /* G_MININT64 without */
  const char    *function;
  const char    *url;
  gint64         line;        /* from 0, -1 without */
  gint64         column;
  const gint64  *children;
  guint          n_children;
  /* The call frame's text, to know it again (nullable), or, instead of
   * the fields above, a frame known already: its number + 1, 0 for none */
  const char    *frame_text;
  gsize          frame_len;
  guint32        known_frame;
} StrataV8NodeValues;

/* The deltas of a chunk's samples, for groups added a sample at a time:
 * kept, or read again from their text (by @read) when first needed. */
typedef struct
{
  const gint64 *values;
  guint         n;
  const gint64 *(*read) (gpointer data,
                         guint   *n);
  gpointer      data;
} StrataV8Deltas;

/* The method of a call frame, made by the reader. */
typedef guint32 (*StrataV8MethodFunc) (gpointer    data,
                                       const char *function,
                                       const char *url,
                                       gint64      line,
                                       gint64      column);

StrataV8Profile        *strata_v8_profile_new         (StrataV8MethodFunc  method_func,
                                                       gpointer            data);
void                    strata_v8_profile_free        (StrataV8Profile    *self);
void                    strata_v8_profile_set_start   (StrataV8Profile    *self,
                                                       gint64              start_us);
void                    strata_v8_profile_set_end     (StrataV8Profile    *self,
                                                       gint64              end_us);
void                    strata_v8_profile_add_node_values (StrataV8Profile          *self,
                                                           const StrataV8NodeValues *values,
                                                           guint                     n);
void                    strata_v8_profile_add_sample_values (StrataV8Profile *self,
                                                             const gint64    *ids,
                                                             guint            n_ids,
                                                             const gint64    *deltas,
                                                             guint            n_deltas);
void                    strata_v8_profile_add_sample_groups (StrataV8Profile           *self,
                                                             const StrataV8SampleGroup *groups,
                                                             guint                      n_groups,
                                                             const gint64              *ids,
                                                             guint                      n_ids,
                                                             StrataV8Deltas            *deltas);
guint64                 strata_v8_profile_get_n_samples (StrataV8Profile  *self);
guint32                 strata_v8_profile_find_frame_text (StrataV8Profile *self,
                                                           const char      *text,
                                                           gsize            len);
guint                   strata_v8_profile_first_sample_at (StrataV8Profile *self,
                                                           gint64           time);
gint64                  strata_v8_profile_sample_time (StrataV8Profile    *self,
                                                       guint               index);
void                    strata_v8_profile_drop_samples (StrataV8Profile   *self);
void                    strata_v8_profile_add_repairs (StrataV8Profile    *self,
                                                       StrataV8Repairs    *repairs);
void                    strata_v8_repairs_report      (const StrataV8Repairs *repairs,
                                                       StrataTrace        *trace);
char                   *strata_v8_frame_label         (const char         *function,
                                                       const char         *url,
                                                       gint64              line,
                                                       gint64              column);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrataV8Profile, strata_v8_profile_free)

G_END_DECLS
