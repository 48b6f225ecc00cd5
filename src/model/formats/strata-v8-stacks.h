/* strata-v8-stacks.h: a V8 profile's samples walked as stacks
 *
 * A walk gives each sample's stack in time order, made from the
 * profile's nodes as it goes: a long recording has millions.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-v8-profile.h"
#include "strata-vec.h"

G_BEGIN_DECLS

/* How "(program)" and "(garbage collector)" samples are read. */
typedef enum
{
  STRATA_V8_STACKS_PROFILE,    /* as a profile lists them: frames of their own */
  STRATA_V8_STACKS_TIMELINE,   /* as DevTools draws them among trace events */
} StrataV8StackView;

/* A walk through a profile's samples as stacks (strata_v8_stacks_next()). */
typedef struct
{
  StrataV8Profile  *profile;
  StrataV8StackView view;
  guint             next;             /* the next sample */
  guint             limit;            /* past the last one given */
  guint32           last_frame_node;  /* the last sample of a function */
  StrataVec         frames[2];        /* guint32: the stack given last, and the one before */
  guint32           frames_node[2];   /* whose frames each holds, if a node's own */
  guint             current;          /* the one given last */
  gboolean          consume;          /* samples walked are given back */
  gsize             released;
} StrataV8Stacks;

void                    strata_v8_stacks_init         (StrataV8Stacks     *self,
                                                       StrataV8Profile    *profile,
                                                       StrataV8StackView   view,
                                                       guint              *n_stacks,
                                                       gint64             *end);
void                    strata_v8_stacks_init_range   (StrataV8Stacks     *self,
                                                       StrataV8Profile    *profile,
                                                       StrataV8StackView   view,
                                                       guint               from,
                                                       guint               to);
gboolean                strata_v8_stacks_next         (StrataV8Stacks     *self,
                                                       StrataTimedStack   *stack);
gboolean                strata_v8_stacks_next_func    (gpointer            data,
                                                       StrataTimedStack   *stack);
void                    strata_v8_stacks_consume      (StrataV8Stacks     *self);
void                    strata_v8_stacks_clear        (StrataV8Stacks     *self);

G_END_DECLS
