/* strata-v8-stacks.c: a V8 profile's samples walked as stacks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-memory.h"
#include "strata-v8-profile-private.h"
#include "strata-v8-stacks.h"

/* The frames of node @index's stack, innermost first, after what
 * @frames holds. Steps, not frames, are counted: a cycle of nodes
 * without a frame ("(root)", "(idle)") must end too. */
static void
append_frames (StrataV8Profile *self,
               guint32          index,
               StrataVec       *frames)
{
  const Node *nodes = (const Node *) self->nodes->data;
  guint steps = 0;

  for (guint32 at = index; at != NO_NODE; at = node_parent (&nodes[at]), steps++)
    {
      if (steps >= MAX_STACK_DEPTH)
        {
          self->n_cut_stacks++;
          break;
        }
      if (nodes[at].method != NO_NODE)
        strata_vec_append (frames, guint32, nodes[at].method);
    }
}

/**
 * strata_v8_stacks_init:
 * @view: the stacks as a profile lists them, or as a timeline draws them
 * @n_stacks: (out) (optional): how many strata_v8_stacks_next() gives
 * @end: (out) (optional): when the last sample ends: the profile's end,
 *   or one sampling interval after it
 *
 * Walks @profile's samples in time order, each as its stack. Stacks are
 * made as they are walked, not kept: a long recording has millions.
 */
void
strata_v8_stacks_init (StrataV8Stacks    *self,
                       StrataV8Profile   *profile,
                       StrataV8StackView  view,
                       guint             *n_stacks,
                       gint64            *end)
{
  guint n = profile->samples->len;

  strata_v8_profile_begin_walk (profile);
  *self = (StrataV8Stacks) { profile, view, 0, n, NO_NODE,
                             { { NULL, 0, 0 }, { NULL, 0, 0 } }, { NO_NODE, NO_NODE }, 0 };
  if (n_stacks != NULL)
    *n_stacks = n;
  if (end == NULL)
    return;
  /* The last sample lasts as long as the mean sampling interval. */
  *end = n > 0 ? profile->last_time * 1000 : 0;
  if (profile->n_read > 1)
    *end += (profile->last_time - profile->first_time) * 1000 / (gint64) (profile->n_read - 1);
  if (profile->end != G_MININT64)
    *end = MAX (*end, profile->end * 1000);
}

/**
 * strata_v8_stacks_init_range:
 * @from: the first sample to give, in time order
 * @to: past the last
 *
 * As strata_v8_stacks_init(), for part of the samples, once they are in
 * order: walks of parts run at once on several cores. A garbage
 * collection at @from stands on the function sampled before it, as in
 * a whole walk.
 */
void
strata_v8_stacks_init_range (StrataV8Stacks    *self,
                             StrataV8Profile   *profile,
                             StrataV8StackView  view,
                             guint              from,
                             guint              to)
{
  const Sample *samples = (const Sample *) profile->samples->data;
  guint32 last_frame_node = NO_NODE;

  g_return_if_fail (profile->ordered && from <= to && to <= profile->samples->len);
  for (guint i = from; i > 0 && last_frame_node == NO_NODE; i--)
    if (g_array_index (profile->nodes, Node, sample_node (&samples[i - 1])).kind == NODE_FRAME)
      last_frame_node = sample_node (&samples[i - 1]);
  *self = (StrataV8Stacks) { profile, view, from, to, last_frame_node,
                             { { NULL, 0, 0 }, { NULL, 0, 0 } }, { NO_NODE, NO_NODE }, 0 };
  /* Pages before @from are another walk's to give back. */
  self->released = (gsize) from * sizeof (Sample);
}

/**
 * strata_v8_stacks_consume:
 *
 * Gives the samples back to the system as they are walked: the profile
 * can be walked only once, then strata_v8_profile_drop_samples().
 */
void
strata_v8_stacks_consume (StrataV8Stacks *self)
{
  self->consume = TRUE;
}

void
strata_v8_stacks_clear (StrataV8Stacks *self)
{
  strata_vec_clear (&self->frames[0]);
  strata_vec_clear (&self->frames[1]);
}

/* The frames of @node in a buffer: the one holding them already, or the
 * one not given last time, so the stack given before stays whole. */
static const StrataVec *
frames_of (StrataV8Stacks *self,
           guint32         node,
           guint32         under)
{
  guint other = 1 - self->current;
  StrataVec *frames = &self->frames[other];

  if (under == NO_NODE && self->frames_node[self->current] == node)
    return &self->frames[self->current];
  strata_vec_truncate (frames, 0);
  if (under != NO_NODE)
    {
      strata_vec_append (frames, guint32, g_array_index (self->profile->nodes, Node, node).method);
      append_frames (self->profile, under, frames);
    }
  else
    append_frames (self->profile, node, frames);
  self->frames_node[other] = under == NO_NODE ? node : NO_NODE;
  self->current = other;
  return frames;
}

/**
 * strata_v8_stacks_next:
 * @stack: (out): the next sample's stack; its frames stay valid until
 *   the second call after this one
 *
 * On a timeline, as DevTools draws it, "(program)" is no call (the trace
 * events say what the engine did) and a garbage collection has no stack
 * of its own: it runs on top of the stack sampled before it.
 *
 * Returns: %FALSE past the last sample
 */
gboolean
strata_v8_stacks_next (StrataV8Stacks   *self,
                       StrataTimedStack *stack)
{
  StrataV8Profile *profile = self->profile;
  const Sample *sample;
  const Node *node;
  const StrataVec *frames;

  if (self->next >= self->limit)
    {
      /* The walk is over: what it read goes back now, not with the profile. */
      if (self->consume)
        strata_memory_release_front_by (profile->samples->data, (gsize) self->limit * sizeof (Sample), &self->released, 1);
      return FALSE;
    }
  sample = &g_array_index (profile->samples, Sample, self->next++);
  if (self->consume && (self->next & 0x3fff) == 0)
    strata_memory_release_front (profile->samples->data, (self->next - 1) * sizeof (Sample), &self->released);
  node = &g_array_index (profile->nodes, Node, sample_node (sample));
  *stack = (StrataTimedStack) { sample_time (sample) * 1000, NULL, 0, sample_run_end (sample) * 1000, sample_run (sample) };
  if (node->kind == NODE_IDLE || (self->view == STRATA_V8_STACKS_TIMELINE && node->kind == NODE_PROGRAM))
    return TRUE;
  if (self->view == STRATA_V8_STACKS_TIMELINE && node->kind == NODE_GC && self->last_frame_node != NO_NODE)
    frames = frames_of (self, sample_node (sample), self->last_frame_node);
  else
    frames = frames_of (self, sample_node (sample), NO_NODE);
  if (node->kind == NODE_FRAME)
    self->last_frame_node = sample_node (sample);
  stack->frames = (const guint32 *) frames->data;
  stack->n_frames = frames->len;
  return TRUE;
}

/* For strata_stack_layout_timed(). */
gboolean
strata_v8_stacks_next_func (gpointer          data,
                            StrataTimedStack *stack)
{
  return strata_v8_stacks_next (data, stack);
}
