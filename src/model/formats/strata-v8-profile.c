/* strata-v8-profile.c: V8's sampling profile, as stacks at known times
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "strata-trace-private.h"
#include "strata-v8-profile.h"

/* Deeper stacks are cut: a parent cycle must not loop. */
#define MAX_STACK_DEPTH 65536
#define NO_NODE G_MAXUINT32
/* Node ids below this are looked up in an array. */
#define MAX_DENSE_ID (1 << 22)
/* Microseconds kept far from the ends of gint64 once made nanoseconds. */
#define MAX_MICROS (G_MAXINT64 / 2000)

/* The frames V8 makes up for time outside JavaScript. */
typedef enum
{
  NODE_FRAME,         /* a function, or "(root)" */
  NODE_IDLE,          /* "(idle)": nothing ran */
  NODE_PROGRAM,       /* "(program)": the engine, outside JavaScript */
  NODE_GC,            /* "(garbage collector)" */
} NodeKind;

typedef struct
{
  guint32  method;    /* NO_NODE for "(root)" and "(idle)" */
  guint32  parent;    /* a node index, or NO_NODE */
  NodeKind kind;
  GArray  *frames;    /* guint32 methods, innermost first; made when sampled */
} Node;

/* A sample, and the samples of its node that came straight after it. */
typedef struct
{
  gint64  time;       /* ns */
  gint64  run_end;    /* ns: the last of its run */
  guint32 node;
  guint32 order;      /* as read: samples of one time keep it */
  guint32 run;        /* samples in its run after it */
} Sample;

struct _StrataV8Profile
{
  StrataV8MethodFunc method_func;
  gpointer           data;
  GArray            *nodes;       /* Node */
  GHashTable        *index_of;    /* node id (gint64) → index + 1 */
  GArray            *samples;     /* Sample, in the order read; a run of one node kept once */
  GArray            *dense;       /* guint32 index + 1 by small node id, 0 for none */
  guint64            n_read;      /* samples read, runs counted whole */
  gint64             first_time;  /* ns: the earliest and latest sample read */
  gint64             last_time;
  GArray            *stacks;      /* StrataTimedStack, made when asked */
  GArray            *gc_frames;   /* guint32: stacks of GC samples on a timeline */
  gint64             time;        /* µs: the last sample's, or the start */
  gint64             end;         /* µs, or G_MININT64 */
  gboolean           ordered;
  guint64            n_cut_stacks;
  guint64            n_unknown_samples;
  guint64            n_reordered;
};

StrataV8Profile *
strata_v8_profile_new (StrataV8MethodFunc method_func,
                       gpointer           data)
{
  StrataV8Profile *self = g_new0 (StrataV8Profile, 1);

  self->method_func = method_func;
  self->data = data;
  self->nodes = g_array_new (FALSE, FALSE, sizeof (Node));
  self->index_of = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->dense = g_array_new (FALSE, TRUE, sizeof (guint32));
  self->first_time = G_MAXINT64;
  self->last_time = G_MININT64;
  self->samples = g_array_new (FALSE, FALSE, sizeof (Sample));
  self->end = G_MININT64;
  self->ordered = TRUE;
  return self;
}

void
strata_v8_profile_free (StrataV8Profile *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->nodes->len; i++)
    g_clear_pointer (&g_array_index (self->nodes, Node, i).frames, g_array_unref);
  g_array_unref (self->nodes);
  g_hash_table_unref (self->index_of);
  g_array_unref (self->dense);
  g_array_unref (self->samples);
  g_clear_pointer (&self->stacks, g_array_unref);
  g_clear_pointer (&self->gc_frames, g_array_unref);
  g_free (self);
}

/* A number, or @fallback for anything else. */
static gint64
int_of (JsonNode *node,
        gint64    fallback)
{
  double value;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return fallback;
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return json_node_get_int (node);
  if (json_node_get_value_type (node) != G_TYPE_DOUBLE)
    return fallback;
  value = json_node_get_double (node);
  return value > -9e18 && value < 9e18 ? (gint64) value : fallback;
}

static gint64
int_member (JsonObject *object,
            const char *name,
            gint64      fallback)
{
  return object != NULL ? int_of (json_object_get_member (object, name), fallback) : fallback;
}

static const char *
string_member (JsonObject *object,
               const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
         ? json_node_get_string (node) : "";
}

static JsonObject *
object_of (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/* Members of a profile's JSON, for the readers: %NULL, or @fallback,
 * where @object is %NULL or the member is not of the kind. */
JsonObject *
strata_v8_json_object (JsonObject *object,
                       const char *name)
{
  return object_of (object != NULL ? json_object_get_member (object, name) : NULL);
}

JsonArray *
strata_v8_json_array (JsonObject *object,
                      const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

/* Microseconds: an integer, or a double well inside gint64. */
gint64
strata_v8_json_micros (JsonObject *object,
                       const char *name,
                       gint64      fallback)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return fallback;
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return json_node_get_int (node);
  if (json_node_get_value_type (node) == G_TYPE_DOUBLE && ABS (json_node_get_double (node)) < 9e15)
    return (gint64) json_node_get_double (node);
  return fallback;
}

/**
 * strata_v8_frame_label:
 *
 * Returns: (transfer full): "work (file:///app.js:12:5)", as DevTools
 *   names a frame: line and column from 1; a frame without a name is
 *   "(anonymous)"
 */
char *
strata_v8_frame_label (const char *function,
                       const char *url,
                       gint64      line,
                       gint64      column)
{
  const char *name = *function != '\0' ? function : "(anonymous)";

  if (*url == '\0')
    return g_strdup (name);
  if (line < 0)
    return g_strdup_printf ("%s (%s)", name, url);
  return g_strdup_printf ("%s (%s:%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT ")", name, url, line + 1, column + 1);
}

void
strata_v8_profile_set_start (StrataV8Profile *self,
                             gint64           start_us)
{
  self->time = CLAMP (start_us, -MAX_MICROS, MAX_MICROS);
}

void
strata_v8_profile_set_end (StrataV8Profile *self,
                           gint64           end_us)
{
  self->end = CLAMP (end_us, -MAX_MICROS, MAX_MICROS);
}

static guint32
node_index (StrataV8Profile *self,
            gint64           id)
{
  gpointer found;

  /* V8 numbers its nodes from 1: most are found in a plain array. */
  if (id >= 0 && (guint64) id < self->dense->len)
    {
      guint32 index = g_array_index (self->dense, guint32, id);

      if (index != 0)
        return index - 1;
    }
  found = g_hash_table_lookup (self->index_of, &id);
  return found != NULL ? GPOINTER_TO_UINT (found) - 1 : NO_NODE;
}

static NodeKind
node_kind (const char *function)
{
  if (g_str_equal (function, "(idle)"))
    return NODE_IDLE;
  if (g_str_equal (function, "(program)"))
    return NODE_PROGRAM;
  if (g_str_equal (function, "(garbage collector)"))
    return NODE_GC;
  return NODE_FRAME;
}

/* A node; one without an id has no frame and can be no parent. */
static void
add_node (StrataV8Profile          *self,
          const StrataV8NodeValues *values)
{
  const char *function = values->function != NULL ? values->function : "";
  Node node = { NO_NODE, NO_NODE, node_kind (function), NULL };
  gint64 *id;

  if (values->has_id && node.kind != NODE_IDLE && !g_str_equal (function, "(root)"))
    node.method = self->method_func (self->data, function, values->url != NULL ? values->url : "",
                                     values->line, values->column);
  g_array_append_val (self->nodes, node);
  if (!values->has_id)
    return;
  id = g_new (gint64, 1);
  *id = values->id;
  if (*id >= 0 && *id < MAX_DENSE_ID && !g_hash_table_contains (self->index_of, id))
    {
      if ((guint64) *id >= self->dense->len)
        g_array_set_size (self->dense, *id + 1);
      g_array_index (self->dense, guint32, *id) = self->nodes->len;
    }
  g_hash_table_insert (self->index_of, id, GUINT_TO_POINTER (self->nodes->len));
}

/* Parents from each node's "children" (a .cpuprofile) or "parent" (a
 * Trace Event ProfileChunk, whose parents came in earlier chunks). */
static void
link_parents (StrataV8Profile          *self,
              const StrataV8NodeValues *values,
              guint                     n,
              guint                     first)
{
  for (guint i = 0; i < n; i++)
    {
      guint32 parent = values[i].has_id ? node_index (self, values[i].parent) : NO_NODE;

      if (parent != NO_NODE && parent != first + i)
        g_array_index (self->nodes, Node, first + i).parent = parent;
      for (guint c = 0; values[i].has_id && c < values[i].n_children; c++)
        {
          guint32 child = node_index (self, values[i].children[c]);

          if (child != NO_NODE && child != first + i)
            g_array_index (self->nodes, Node, child).parent = first + i;
        }
    }
}

/**
 * strata_v8_profile_add_node_values:
 *
 * Adds nodes read by the caller; their parents may be among them.
 */
void
strata_v8_profile_add_node_values (StrataV8Profile          *self,
                                   const StrataV8NodeValues *values,
                                   guint                     n)
{
  guint first = self->nodes->len;

  for (guint i = 0; i < n; i++)
    add_node (self, &values[i]);
  link_parents (self, values, n, first);
}

/* Adds the nodes of a profile's "nodes" array, "parent" or "children"
 * linking them; an element that is no object is a node without a frame. */
void
strata_v8_profile_add_nodes (StrataV8Profile *self,
                             JsonArray       *nodes)
{
  guint n = json_array_get_length (nodes);
  g_autofree StrataV8NodeValues *values = g_new0 (StrataV8NodeValues, MAX (n, 1));
  g_autoptr(GPtrArray) children = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < n; i++)
    {
      JsonObject *object = object_of (json_array_get_element (nodes, i));
      JsonObject *frame = object != NULL ? object_of (json_object_get_member (object, "callFrame")) : NULL;
      JsonNode *kids = object != NULL ? json_object_get_member (object, "children") : NULL;
      JsonArray *array = kids != NULL && JSON_NODE_HOLDS_ARRAY (kids) ? json_node_get_array (kids) : NULL;

      if (object == NULL)
        continue;
      values[i] = (StrataV8NodeValues) {
        TRUE, int_member (object, "id", G_MININT64), int_member (object, "parent", G_MININT64),
        string_member (frame, "functionName"), string_member (frame, "url"),
        int_member (frame, "lineNumber", -1), int_member (frame, "columnNumber", -1), NULL, 0,
      };
      if (array != NULL)
        {
          gint64 *ids = g_new (gint64, MAX (json_array_get_length (array), 1));

          for (guint c = 0; c < json_array_get_length (array); c++)
            ids[c] = int_of (json_array_get_element (array, c), G_MININT64);
          values[i].children = ids;
          values[i].n_children = json_array_get_length (array);
          g_ptr_array_add (children, ids);
        }
    }
  strata_v8_profile_add_node_values (self, values, n);
}

/**
 * strata_v8_profile_add_sample_values:
 * @ids: each sample's node id; G_MININT64 for one that is not a number
 * @deltas: the microseconds from the sample before to each
 *
 * Each sample's node and time, from the time of the one before. A sample
 * of the node of the sample before it, later than it, only makes that
 * one last longer: it is counted, not kept.
 */
void
strata_v8_profile_add_sample_values (StrataV8Profile *self,
                                     const gint64    *ids,
                                     guint            n_ids,
                                     const gint64    *deltas,
                                     guint            n_deltas)
{
  for (guint i = 0; i < n_ids; i++)
    {
      gint64 delta = i < n_deltas ? deltas[i] : 0;
      Sample sample = { .node = node_index (self, ids[i]), .order = self->samples->len };
      Sample *last = self->samples->len > 0 ? &g_array_index (self->samples, Sample, self->samples->len - 1) : NULL;

      self->time = CLAMP (self->time + CLAMP (delta, -MAX_MICROS, MAX_MICROS), -MAX_MICROS, MAX_MICROS);
      sample.time = sample.run_end = self->time * 1000;
      if (sample.node == NO_NODE)
        {
          self->n_unknown_samples++;
          continue;
        }
      self->n_read++;
      /* Only a run at the end of time so far may grow: a sample put
       * back in order may fall inside an earlier one. */
      if (last != NULL && last->node == sample.node && last->run_end == self->last_time && sample.time >= last->run_end &&
          last->run < G_MAXUINT32)
        {
          self->last_time = last->run_end = sample.time;
          last->run++;
          continue;
        }
      self->first_time = MIN (self->first_time, sample.time);
      self->last_time = MAX (self->last_time, sample.time);
      if (last != NULL && sample.time < last->time)
        {
          self->ordered = FALSE;
          self->n_reordered++;
        }
      g_array_append_val (self->samples, sample);
    }
}

/* As strata_v8_profile_add_sample_values(), from a profile's arrays. */
void
strata_v8_profile_add_samples (StrataV8Profile *self,
                               JsonArray       *samples,
                               JsonArray       *deltas)
{
  guint n_ids = samples != NULL ? json_array_get_length (samples) : 0;
  guint n_deltas = deltas != NULL ? json_array_get_length (deltas) : 0;
  g_autofree gint64 *ids = g_new (gint64, MAX (n_ids, 1));
  g_autofree gint64 *steps = g_new (gint64, MAX (n_deltas, 1));

  for (guint i = 0; i < n_ids; i++)
    ids[i] = int_of (json_array_get_element (samples, i), G_MININT64);
  for (guint i = 0; i < n_deltas; i++)
    steps[i] = int_of (json_array_get_element (deltas, i), 0);
  strata_v8_profile_add_sample_values (self, ids, n_ids, steps, n_deltas);
}

/**
 * strata_v8_profile_get_n_samples:
 *
 * Returns: how many samples were read (of nodes the profile has)
 */
guint64
strata_v8_profile_get_n_samples (StrataV8Profile *self)
{
  return self->n_read;
}

/* The frames of node @index's stack, innermost first, made once. */
static const GArray *
node_frames (StrataV8Profile *self,
             guint32          index)
{
  Node *node = &g_array_index (self->nodes, Node, index);

  if (node->frames != NULL)
    return node->frames;
  node->frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  /* Steps, not frames, are counted: a cycle of nodes without a frame
   * ("(root)", "(idle)") must end too. */
  for (guint32 at = index, steps = 0; at != NO_NODE; at = g_array_index (self->nodes, Node, at).parent, steps++)
    {
      const Node *step = &g_array_index (self->nodes, Node, at);

      if (steps >= MAX_STACK_DEPTH)
        {
          self->n_cut_stacks++;
          break;
        }
      if (step->method != NO_NODE)
        g_array_append_val (node->frames, step->method);
    }
  return node->frames;
}

static int
compare_samples (const void *a,
                 const void *b)
{
  const Sample *sa = a, *sb = b;

  if (sa->time != sb->time)
    return sa->time < sb->time ? -1 : 1;
  return sa->order < sb->order ? -1 : sa->order > sb->order;
}

/* On a timeline, as DevTools draws it, "(program)" is no call (the
 * trace events say what the engine did) and a garbage collection has no
 * stack of its own: it runs on top of the stack sampled before it. The
 * frames of those stacks are kept in @gc_frames; @at holds where each
 * starts until the array stops growing. */
static StrataTimedStack
timeline_stack (StrataV8Profile *self,
                const Sample    *sample,
                guint32         *last_frame_node,
                gsize           *at)
{
  const Node *node = &g_array_index (self->nodes, Node, sample->node);
  const GArray *frames = node_frames (self, sample->node);
  StrataTimedStack stack = { sample->time, NULL, 0, sample->run_end, sample->run };

  *at = G_MAXSIZE;
  if (node->kind == NODE_IDLE || node->kind == NODE_PROGRAM)
    return stack;
  if (node->kind == NODE_GC && *last_frame_node != NO_NODE)
    {
      const GArray *under = node_frames (self, *last_frame_node);

      *at = self->gc_frames->len;
      g_array_append_vals (self->gc_frames, &node->method, 1);
      g_array_append_vals (self->gc_frames, under->data, under->len);
      stack.n_frames = under->len + 1;
      return stack;
    }
  if (node->kind == NODE_FRAME)
    *last_frame_node = sample->node;
  stack.frames = (const guint32 *) frames->data;
  stack.n_frames = frames->len;
  return stack;
}

static void
make_stacks (StrataV8Profile  *self,
             StrataV8StackView view)
{
  guint n = self->samples->len;
  g_autofree gsize *gc_at = view == STRATA_V8_STACKS_TIMELINE ? g_new (gsize, MAX (n, 1)) : NULL;
  guint32 last_frame_node = NO_NODE;

  g_clear_pointer (&self->stacks, g_array_unref);
  g_clear_pointer (&self->gc_frames, g_array_unref);
  self->stacks = g_array_sized_new (FALSE, FALSE, sizeof (StrataTimedStack), n);
  self->gc_frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint i = 0; i < n; i++)
    {
      const Sample *sample = &g_array_index (self->samples, Sample, i);
      const Node *node = &g_array_index (self->nodes, Node, sample->node);
      const GArray *frames = node_frames (self, sample->node);
      StrataTimedStack stack = { sample->time, (const guint32 *) frames->data,
                                 node->kind == NODE_IDLE ? 0 : frames->len, sample->run_end, sample->run };

      if (gc_at != NULL)
        stack = timeline_stack (self, sample, &last_frame_node, &gc_at[i]);
      g_array_append_val (self->stacks, stack);
    }
  for (guint i = 0; gc_at != NULL && i < n; i++)
    if (gc_at[i] != G_MAXSIZE)
      g_array_index (self->stacks, StrataTimedStack, i).frames = &g_array_index (self->gc_frames, guint32, gc_at[i]);
}

/* Samples whose deltas went back are few and fall a little back: each
 * is moved back to its place; many are sorted whole. */
static void
put_in_order (StrataV8Profile *self)
{
  Sample *samples = (Sample *) self->samples->data;
  guint n = self->samples->len;

  if (self->n_reordered > n / 64)
    {
      qsort (samples, n, sizeof (Sample), compare_samples);
      return;
    }
  for (guint i = 1; i < n; i++)
    {
      Sample moved = samples[i];
      guint j = i;

      while (j > 0 && compare_samples (&samples[j - 1], &moved) > 0)
        {
          samples[j] = samples[j - 1];
          j--;
        }
      samples[j] = moved;
    }
}

/**
 * strata_v8_profile_get_stacks:
 * @view: the stacks as a profile lists them, or as a timeline draws them
 * @end: (out): when the last sample ends: the profile's end, or one
 *   sampling interval after it
 *
 * Returns: each sample's stack, in time order, valid until the next call
 */
const StrataTimedStack *
strata_v8_profile_get_stacks (StrataV8Profile  *self,
                              StrataV8StackView view,
                              guint            *n_stacks,
                              gint64           *end)
{
  guint n = self->samples->len;

  if (!self->ordered)
    put_in_order (self);
  self->ordered = TRUE;
  make_stacks (self, view);
  /* The last sample lasts as long as the mean sampling interval. */
  *end = n > 0 ? self->last_time : 0;
  if (self->n_read > 1)
    *end += (self->last_time - self->first_time) / (gint64) (self->n_read - 1);
  if (self->end != G_MININT64)
    *end = MAX (*end, self->end * 1000);
  *n_stacks = n;
  return (const StrataTimedStack *) self->stacks->data;
}

/**
 * strata_v8_profile_drop_samples:
 *
 * Lets the samples and their stacks go once they are laid out; the
 * counts and repairs stay.
 */
void
strata_v8_profile_drop_samples (StrataV8Profile *self)
{
  g_array_unref (self->samples);
  self->samples = g_array_new (FALSE, FALSE, sizeof (Sample));
  g_clear_pointer (&self->stacks, g_array_unref);
  g_clear_pointer (&self->gc_frames, g_array_unref);
  for (guint i = 0; i < self->nodes->len; i++)
    g_clear_pointer (&g_array_index (self->nodes, Node, i).frames, g_array_unref);
}

void
strata_v8_profile_add_repairs (StrataV8Profile *self,
                               StrataV8Repairs *repairs)
{
  repairs->n_unknown_samples += self->n_unknown_samples;
  repairs->n_reordered += self->n_reordered;
  repairs->n_cut_stacks += self->n_cut_stacks;
}

/* What had to be repaired, as the trace's diagnostics. */
void
strata_v8_repairs_report (const StrataV8Repairs *repairs,
                          StrataTrace           *trace)
{
  strata_trace_add_count_diagnostic (trace, repairs->n_unknown_samples,
                                     /* Translators: %s is a count */
                                     g_dngettext (GETTEXT_PACKAGE, "%s sample named a node the profile does not have and was dropped.",
                                                  "%s samples named a node the profile does not have and were dropped.",
                                                  repairs->n_unknown_samples));
  strata_trace_add_count_diagnostic (trace, repairs->n_reordered,
                                     /* Translators: %s is a count */
                                     g_dngettext (GETTEXT_PACKAGE, "%s sample came before the one recorded ahead of it and was put in time order, as DevTools does.",
                                                  "%s samples came before the ones recorded ahead of them and were put in time order, as DevTools does.",
                                                  repairs->n_reordered));
  strata_trace_add_count_diagnostic (trace, repairs->n_cut_stacks,
                                     /* Translators: %s is a count */
                                     g_dngettext (GETTEXT_PACKAGE, "%s stack deeper than 65,536 frames (or looping) was cut.",
                                                  "%s stacks deeper than 65,536 frames (or looping) were cut.", repairs->n_cut_stacks));
}
