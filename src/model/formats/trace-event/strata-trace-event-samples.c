/* strata-trace-event-samples.c: stack samples turned into calls
 *
 * A trace may carry a sampling profiler's output: "stackFrames" (id ->
 * name, category, parent) and "samples" (thread, time, frame), or "P"
 * events naming a frame. Each sampled thread gets a companion thread
 * whose calls are the sampled stacks: a frame runs from the first sample
 * that has it on the stack to the first that does not, the way sampling
 * profilers draw a flame chart. Those calls feed the same profile.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "strata-json-scan.h"
#include "strata-trace-event-private.h"

/* Deeper stacks (or parent cycles, which must not loop) are cut at their
 * outermost frames, and counted. */
#define MAX_STACK_DEPTH 65536
#define MAX_SAMPLE_TIME (G_GINT64_CONSTANT (1) << 61)

typedef struct
{
  guint32 method;
  char   *parent;     /* the parent's id as text, or NULL at the root */
} Frame;

/* The thread a sample belongs to. Without a pid, the first thread with
 * that tid; failing that, a new thread (in process 0) named @name. */
static guint
sample_thread (TeState    *state,
               gboolean    has_pid,
               gint64      pid,
               gint64      tid,
               const char *name)
{
  g_autofree char *pid_text = g_strdup_printf ("%" G_GINT64_FORMAT, has_pid ? pid : 0);
  g_autofree char *tid_text = g_strdup_printf ("%" G_GINT64_FORMAT, tid);
  guint thread;

  for (guint i = 0; !has_pid && i < strata_trace_get_n_threads (state->trace); i++)
    if (strata_trace_peek_thread (state->trace, i)->tid == tid)
      return i;

  thread = state->ensure_thread (state, pid_text, tid_text);
  if (name != NULL && *name != '\0' && strata_trace_peek_thread (state->trace, thread)->name == 0)
    strata_trace_peek_thread (state->trace, thread)->name =
      strata_string_pool_intern (strata_trace_get_pool (state->trace), name);
  return thread;
}

static void
frame_free (gpointer data)
{
  Frame *frame = data;

  g_free (frame->parent);
  g_free (frame);
}

/* Ids are numbers or strings; both spell the same key. */
static char *
id_text (JsonNode *node)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return NULL;
  if (json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
  if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
    return g_strdup_printf ("%.0f", json_node_get_double (node));
  return NULL;
}

static const char *
string_member (JsonObject *object,
               const char *name)
{
  JsonNode *node = json_object_get_member (object, name);

  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
    ? json_node_get_string (node) : "";
}

static GHashTable *
read_frames (TeState  *state,
             JsonNode *stack_frames)
{
  GHashTable *frames = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, frame_free);
  StrataStringPool *pool = strata_trace_get_pool (state->trace);
  JsonObjectIter iter;
  const char *id;
  JsonNode *value;

  if (stack_frames == NULL || !JSON_NODE_HOLDS_OBJECT (stack_frames))
    return frames;

  json_object_iter_init (&iter, json_node_get_object (stack_frames));
  while (json_object_iter_next (&iter, &id, &value))
    {
      JsonObject *object;
      Frame *frame;

      if (!JSON_NODE_HOLDS_OBJECT (value))
        continue;
      object = json_node_get_object (value);
      frame = g_new0 (Frame, 1);
      frame->method = strata_trace_event_ensure_method (state,
                                                        strata_string_pool_intern (pool, string_member (object, "name")),
                                                        strata_string_pool_intern (pool, string_member (object, "category")));
      frame->parent = id_text (json_object_get_member (object, "parent"));
      g_hash_table_insert (frames, g_strdup (id), frame);
    }
  return frames;
}

/* The methods from root to leaf; unknown ids end the walk. */
static guint
stack_of (GHashTable  *frames,
          const char  *leaf,
          guint32     *stack,
          gboolean    *cut)
{
  const char *id = leaf;
  guint n = 0;

  while (id != NULL && n < MAX_STACK_DEPTH)
    {
      Frame *frame = g_hash_table_lookup (frames, id);

      if (frame == NULL)
        break;
      stack[n++] = frame->method;
      id = frame->parent;
    }
  *cut = n == MAX_STACK_DEPTH && id != NULL && g_hash_table_contains (frames, id);
  for (guint i = 0; i < n / 2; i++)
    {
      guint32 swap = stack[i];

      stack[i] = stack[n - 1 - i];
      stack[n - 1 - i] = swap;
    }
  return n;
}

static int
compare_samples (const void *a,
                 const void *b)
{
  const TeSample *sa = a, *sb = b;

  if (sa->thread != sb->thread)
    return sa->thread < sb->thread ? -1 : 1;
  if (sa->time != sb->time)
    return sa->time < sb->time ? -1 : 1;
  return 0;
}

/**
 * strata_trace_event_companion_thread:
 *
 * Returns: a new thread beside @sampled for the calls built from samples
 */
guint
strata_trace_event_companion_thread (TeState  *state,
                                     guint     sampled)
{
  const StrataThread *thread = strata_trace_peek_thread (state->trace, sampled);
  const char *name = strata_trace_get_string (state->trace, thread->name);
  g_autofree char *label = NULL;
  TeThread te = { 0 };
  guint index;

  if (*name == '\0')
    /* Translators: the thread that holds the calls built from samples; %d is a thread id */
    label = g_strdup_printf (_("Thread %d (samples)"), (int) thread->tid);
  else
    /* Translators: the thread that holds the calls built from samples; %s is a thread name */
    label = g_strdup_printf (_("%s (samples)"), name);
  index = strata_trace_add_thread (state->trace, thread->process, thread->tid, label);
  te.slices = g_array_new (FALSE, FALSE, sizeof (TeSlice));
  te.open = g_array_new (FALSE, FALSE, sizeof (TeOpenBegin));
  g_array_append_val (state->threads, te);
  return index;
}

typedef struct
{
  guint32 method;
  gint64  start;
} OpenFrame;

/* Frames above @keep end at @time. They go in outermost first: of two
 * calls with the same start and end, the builder makes the first the
 * parent. */
static void
close_frames (GArray   *slices,
              GArray   *open,
              guint     keep,
              gint64    time)
{
  for (guint d = keep; d < open->len; d++)
    {
      const OpenFrame *frame = &g_array_index (open, OpenFrame, d);
      TeSlice slice = { .start = frame->start, .end = MAX (time, frame->start), .method = frame->method };

      g_array_append_val (slices, slice);
    }
  if (open->len > keep)
    g_array_set_size (open, keep);
}

/**
 * strata_trace_event_lay_out_stacks:
 * @stacks: in time order, frames innermost first
 * @end: when the last one ends
 *
 * Gives @thread (a companion thread) its calls: a frame runs from the
 * first sample that has it on the stack to the first that does not, the
 * way sampling profilers draw a flame chart.
 */
void
strata_trace_event_lay_out_stacks (TeState                *state,
                                   guint                   thread,
                                   const StrataTimedStack *stacks,
                                   guint                   n_stacks,
                                   gint64                  end)
{
  g_autoptr(GArray) open = g_array_new (FALSE, FALSE, sizeof (OpenFrame));
  GArray *slices = g_array_index (state->threads, TeThread, thread).slices;

  for (guint i = 0; i < n_stacks; i++)
    {
      const StrataTimedStack *stack = &stacks[i];
      guint depth = stack->n_frames, common = 0;

      while (common < depth && common < open->len &&
             g_array_index (open, OpenFrame, common).method == stack->frames[depth - 1 - common])
        common++;
      close_frames (slices, open, common, stack->time);
      for (guint d = common; d < depth; d++)
        {
          OpenFrame frame = { stack->frames[depth - 1 - d], stack->time };

          g_array_append_val (open, frame);
        }
    }
  close_frames (slices, open, 0, end);
  state->last_time = MAX (state->last_time, end);
}

/* Samples of one thread, in time order: their stacks in one array. */
static void
build_thread_samples (TeState        *state,
                      GHashTable     *frames,
                      const TeSample *samples,
                      guint           n)
{
  g_autofree StrataTimedStack *stacks = g_new (StrataTimedStack, n);
  g_autoptr(GArray) all_frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree guint32 *stack = g_new (guint32, MAX_STACK_DEPTH);
  guint thread = strata_trace_event_companion_thread (state, samples[0].thread);
  gint64 interval = n > 1 ? (samples[n - 1].time - samples[0].time) / (n - 1) : 0;
  gsize at = 0;

  for (guint i = 0; i < n; i++)
    {
      gboolean cut;
      guint depth = stack_of (frames, samples[i].frame, stack, &cut);

      state->n_cut_sample_stacks += cut;

      for (guint d = 0; d < depth; d++)
        g_array_append_val (all_frames, stack[depth - 1 - d]);
      stacks[i] = (StrataTimedStack) { samples[i].time, NULL, depth };
    }
  /* Pointed at once the array stops growing. */
  for (guint i = 0; i < n; i++)
    {
      stacks[i].frames = stacks[i].n_frames > 0 ? &g_array_index (all_frames, guint32, at) : NULL;
      at += stacks[i].n_frames;
    }
  /* The last sample stands for one sampling interval. */
  strata_trace_event_lay_out_stacks (state, thread, stacks, n, samples[n - 1].time + interval);
}

/* pid and tid: numbers, or strings holding them. */
static gboolean
number_member (JsonObject *object,
               const char *name,
               gint64     *value)
{
  g_autofree char *text = id_text (json_object_get_member (object, name));

  return text != NULL && g_ascii_string_to_signed (text, 10, G_MININT64, G_MAXINT64, value, NULL);
}

/* Microseconds as a number or a string, to nanoseconds. */
static gboolean
time_member (JsonObject *object,
             gint64     *ns)
{
  JsonNode *node = json_object_get_member (object, "ts");
  g_autofree char *text = NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  if (json_node_get_value_type (node) == G_TYPE_STRING)
    text = g_strdup (json_node_get_string (node));
  else if (json_node_get_value_type (node) == G_TYPE_INT64)
    text = g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
  else if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
    {
      char buffer[G_ASCII_DTOSTR_BUF_SIZE];

      text = g_strdup (g_ascii_dtostr (buffer, sizeof buffer, json_node_get_double (node)));
    }
  return text != NULL && strata_json_parse_micros (text, text + strlen (text), ns) &&
         *ns < MAX_SAMPLE_TIME && *ns > -MAX_SAMPLE_TIME;
}

static void
add_sample_member (TeState    *state,
                   JsonObject *object)
{
  g_autofree char *frame = id_text (json_object_get_member (object, "sf"));
  TeSample sample = { 0 };
  gboolean has_pid;
  gint64 pid = 0, tid = 0;

  if (frame == NULL || !time_member (object, &sample.time))
    {
      state->n_bad_samples++;
      return;
    }
  has_pid = number_member (object, "pid", &pid);
  number_member (object, "tid", &tid);
  sample.thread = sample_thread (state, has_pid, pid, tid, string_member (object, "comm"));
  sample.frame = g_steal_pointer (&frame);
  g_array_append_val (state->samples, sample);
}

static void
read_samples (TeState  *state,
              JsonNode *samples)
{
  JsonArray *array;

  if (samples == NULL || !JSON_NODE_HOLDS_ARRAY (samples))
    return;
  array = json_node_get_array (samples);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_OBJECT (node))
        add_sample_member (state, json_node_get_object (node));
    }
}

/**
 * strata_trace_event_build_samples:
 *
 * Turns the samples read ("samples" and "P" events with a frame) into
 * companion threads of calls. Runs before the span tables are built.
 */
void
strata_trace_event_build_samples (TeState *state)
{
  g_autoptr(GHashTable) frames = read_frames (state, state->stack_frames);
  TeSample *samples;
  guint n, first = 0;

  read_samples (state, state->samples_member);
  n = state->samples->len;
  if (n == 0)
    return;
  samples = (TeSample *) state->samples->data;
  qsort (samples, n, sizeof (TeSample), compare_samples);
  for (guint i = 1; i <= n; i++)
    if (i == n || samples[i].thread != samples[first].thread)
      {
        build_thread_samples (state, frames, samples + first, i - first);
        first = i;
      }
}
