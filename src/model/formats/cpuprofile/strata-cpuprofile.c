/* strata-cpuprofile.c: a V8 CPU profile read as one thread's calls
 *
 * node --cpu-prof and DevTools' "Save profile" write the profiler's call
 * tree ("nodes", each a call frame with its children), the node each
 * sample hit ("samples") and the microseconds since the sample before
 * ("timeDeltas", from "startTime"). Each sample's stack is its node and
 * the node's parents; consecutive samples that share callers become one
 * call of each, as DevTools' flame chart draws them, each sample lasting
 * until the next (the last until "endTime").
 *
 * As DevTools does: "(root)" is not a frame, "(idle)" samples leave a gap,
 * "(program)" and "(garbage collector)" are frames of their own, a frame
 * without a name is "(anonymous)", and samples whose deltas go back in
 * time are put in time order (a diagnostic says how many). The format's
 * detail says how many samples were read.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "strata-error.h"
#include "strata-format-private.h"
#include "strata-stack-layout.h"
#include "strata-trace-private.h"
#include "strata-units.h"

/* Deeper stacks are cut: a parent cycle must not loop. */
#define MAX_STACK_DEPTH 65536
/* json-glib holds a document at about ten times its size. */
#define MAX_PROFILE_BYTES (G_GUINT64_CONSTANT (1) << 30)
#define NO_NODE G_MAXUINT32

typedef struct
{
  guint32  method;    /* NO_NODE for "(root)" and "(idle)" */
  guint32  parent;    /* a node index, or NO_NODE */
  gboolean idle;
  GArray  *frames;    /* guint32 methods, innermost first; made when sampled */
} Node;

typedef struct
{
  StrataTrace *trace;
  GArray      *nodes;       /* Node */
  GHashTable  *index_of;    /* node id (gint64) → index + 1 */
  GHashTable  *methods;     /* call frame key → method + 1 */
  guint64      n_cut_stacks;
  guint64      n_unknown_samples;
  guint64      n_reordered;
} Profile;

static void
profile_clear (Profile *self)
{
  for (guint i = 0; self->nodes != NULL && i < self->nodes->len; i++)
    g_clear_pointer (&g_array_index (self->nodes, Node, i).frames, g_array_unref);
  g_clear_pointer (&self->nodes, g_array_unref);
  g_clear_pointer (&self->index_of, g_hash_table_unref);
  g_clear_pointer (&self->methods, g_hash_table_unref);
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

/* "work (file:///app.js:12:5)", as DevTools names a frame: line and
 * column from 1; a frame without a name is "(anonymous)". */
static char *
frame_label (const char *function,
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

/* The method of a call frame: one per function, script and place. */
static guint32
frame_method (Profile    *self,
              JsonObject *frame)
{
  StrataStringPool *pool = strata_trace_get_pool (self->trace);
  const char *function = string_member (frame, "functionName");
  const char *url = string_member (frame, "url");
  gint64 line = int_member (frame, "lineNumber", -1), column = int_member (frame, "columnNumber", -1);
  g_autofree char *label = frame_label (function, url, line, column);
  gpointer found = g_hash_table_lookup (self->methods, label);
  StrataMethod method = { 0 };
  guint32 index;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  method.raw_id = g_hash_table_size (self->methods);
  method.class_name = strata_string_pool_intern (pool, url);
  method.name = strata_string_pool_intern (pool, *function != '\0' ? function : "(anonymous)");
  method.source_file = method.class_name;
  method.display_name = strata_string_pool_intern (pool, label);
  method.line = line >= 0 && line < G_MAXINT32 ? (gint32) line + 1 : -1;
  index = strata_trace_add_method (self->trace, &method);
  g_hash_table_insert (self->methods, g_steal_pointer (&label), GUINT_TO_POINTER (index + 1));
  return index;
}

static guint32
node_index (Profile *self,
            gint64   id)
{
  gpointer found = g_hash_table_lookup (self->index_of, &id);

  return found != NULL ? GPOINTER_TO_UINT (found) - 1 : NO_NODE;
}

static JsonObject *
object_of (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/* A node of the array, at the same index; one that is no object has no
 * frame and no id. */
static void
add_node (Profile    *self,
          JsonObject *object)
{
  JsonObject *frame = object != NULL ? object_of (json_object_get_member (object, "callFrame")) : NULL;
  const char *function = string_member (frame, "functionName");
  Node node = { NO_NODE, NO_NODE, g_str_equal (function, "(idle)"), NULL };

  if (object != NULL && !node.idle && !g_str_equal (function, "(root)"))
    node.method = frame_method (self, frame);
  g_array_append_val (self->nodes, node);
  if (object != NULL)
    {
      gint64 *id = g_new (gint64, 1);

      *id = int_member (object, "id", G_MININT64);
      g_hash_table_insert (self->index_of, id, GUINT_TO_POINTER (self->nodes->len));
    }
}

/* Parents from each node's "children" (a .cpuprofile) or "parent" (a
 * Trace Event ProfileChunk). */
static void
link_parents (Profile   *self,
              JsonArray *nodes)
{
  for (guint i = 0; i < json_array_get_length (nodes) && i < self->nodes->len; i++)
    {
      JsonObject *object = object_of (json_array_get_element (nodes, i));
      JsonNode *children = object != NULL ? json_object_get_member (object, "children") : NULL;
      guint32 parent = object != NULL ? node_index (self, int_member (object, "parent", G_MININT64)) : NO_NODE;

      if (parent != NO_NODE)
        g_array_index (self->nodes, Node, i).parent = parent;
      for (guint c = 0; children != NULL && JSON_NODE_HOLDS_ARRAY (children) &&
                        c < json_array_get_length (json_node_get_array (children)); c++)
        {
          guint32 child = node_index (self, int_of (json_array_get_element (json_node_get_array (children), c), G_MININT64));

          if (child != NO_NODE && child != i)
            g_array_index (self->nodes, Node, child).parent = i;
        }
    }
}

/* The frames of node @index's stack, innermost first, made once. */
static const GArray *
node_frames (Profile *self,
             guint32  index)
{
  Node *node = &g_array_index (self->nodes, Node, index);

  if (node->frames != NULL)
    return node->frames;
  node->frames = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint32 at = index; at != NO_NODE; at = g_array_index (self->nodes, Node, at).parent)
    {
      const Node *step = &g_array_index (self->nodes, Node, at);

      if (node->frames->len >= MAX_STACK_DEPTH)
        {
          self->n_cut_stacks++;
          break;
        }
      if (step->method != NO_NODE)
        g_array_append_val (node->frames, step->method);
    }
  return node->frames;
}

typedef struct
{
  gint64  time;
  guint32 node;
} Sample;

static int
compare_samples (const void *a,
                 const void *b)
{
  const Sample *sa = a, *sb = b;

  if (sa->time != sb->time)
    return sa->time < sb->time ? -1 : 1;
  return 0;
}

/* Each sample's node and time (ns), in time order. */
static GArray *
read_samples (Profile    *self,
              JsonObject *root,
              gint64     *end)
{
  JsonNode *samples = json_object_get_member (root, "samples");
  JsonNode *deltas = json_object_get_member (root, "timeDeltas");
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Sample));
  gint64 time = int_member (root, "startTime", 0);
  gboolean ordered = TRUE;
  guint n;

  if (samples == NULL || !JSON_NODE_HOLDS_ARRAY (samples))
    return out;
  n = json_array_get_length (json_node_get_array (samples));
  for (guint i = 0; i < n; i++)
    {
      JsonArray *delta_array = deltas != NULL && JSON_NODE_HOLDS_ARRAY (deltas) ? json_node_get_array (deltas) : NULL;
      gint64 delta = delta_array != NULL && i < json_array_get_length (delta_array)
                     ? int_of (json_array_get_element (delta_array, i), 0) : 0;
      Sample sample = { 0, node_index (self, int_of (json_array_get_element (json_node_get_array (samples), i), G_MININT64)) };

      time = CLAMP (time + delta, -G_MAXINT64 / 2000, G_MAXINT64 / 2000);
      sample.time = time * 1000;
      if (sample.node == NO_NODE)
        {
          self->n_unknown_samples++;
          continue;
        }
      if (out->len > 0 && sample.time < g_array_index (out, Sample, out->len - 1).time)
        {
          ordered = FALSE;
          self->n_reordered++;
        }
      g_array_append_val (out, sample);
    }
  if (!ordered)
    qsort (out->data, out->len, sizeof (Sample), compare_samples);
  /* The last sample lasts until the profile's end, or one interval. */
  *end = out->len > 0 ? g_array_index (out, Sample, out->len - 1).time : 0;
  if (out->len > 1)
    *end += (*end - g_array_index (out, Sample, 0).time) / (out->len - 1);
  *end = MAX (*end, CLAMP (int_member (root, "endTime", 0), -G_MAXINT64 / 2000, G_MAXINT64 / 2000) * 1000);
  return out;
}

/* The samples laid out as the one thread's calls. */
static void
build_calls (Profile    *self,
             JsonObject *root,
             guint       thread)
{
  gint64 end = 0;
  g_autoptr(GArray) samples = read_samples (self, root, &end);
  g_autofree StrataTimedStack *stacks = g_new0 (StrataTimedStack, MAX (samples->len, 1));

  for (guint i = 0; i < samples->len; i++)
    {
      const Sample *sample = &g_array_index (samples, Sample, i);
      const GArray *frames = node_frames (self, sample->node);
      gboolean idle = g_array_index (self->nodes, Node, sample->node).idle;

      stacks[i] = (StrataTimedStack) { sample->time, (const guint32 *) frames->data, idle ? 0 : frames->len };
    }
  strata_stack_layout_timed (self->trace, thread, stacks, samples->len, end);
  /* How much was read is the format's detail; the diagnostics are for
   * what had to be repaired. */
  {
    g_autofree char *count = strata_units_format_count (samples->len);
    g_autofree char *detail = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s sample", "%s samples", samples->len), count);

    strata_trace_set_format_detail (self->trace, detail);
  }
}

static void
report (Profile *self)
{
  strata_trace_add_count_diagnostic (self->trace, self->n_unknown_samples,
                                     /* Translators: %s is a count */
                                     g_dngettext (GETTEXT_PACKAGE, "%s sample named a node the profile does not have and was dropped.",
                                                  "%s samples named a node the profile does not have and were dropped.",
                                                  self->n_unknown_samples));
  strata_trace_add_count_diagnostic (self->trace, self->n_reordered,
                                     /* Translators: %s is a count */
                                     g_dngettext (GETTEXT_PACKAGE, "%s sample came before the one recorded ahead of it and was put in time order, as DevTools does.",
                                                  "%s samples came before the ones recorded ahead of them and were put in time order, as DevTools does.",
                                                  self->n_reordered));
  strata_trace_add_count_diagnostic (self->trace, self->n_cut_stacks,
                                     /* Translators: %s is a count */
                                     g_dngettext (GETTEXT_PACKAGE, "%s stack deeper than 65,536 frames (or looping) was cut.",
                                                  "%s stacks deeper than 65,536 frames (or looping) were cut.", self->n_cut_stacks));
}

static JsonObject *
parse_profile (JsonParser  *parser,
               GBytes      *bytes,
               GError     **error)
{
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);
  g_autoptr(GError) json_error = NULL;
  JsonNode *root;

  if (len > MAX_PROFILE_BYTES)
    return g_set_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                        _("The CPU profile is larger than 1 GiB, more than Strata reads of this format.")), NULL;
  if (!json_parser_load_from_data (parser, data, len, &json_error))
    return g_set_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                        _("The CPU profile is not valid JSON: %s"), json_error->message), NULL;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root) ||
      !JSON_NODE_HOLDS_ARRAY (json_object_get_member (json_node_get_object (root), "nodes")))
    return g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_NOT_A_TRACE,
                                _("It is JSON, but not a CPU profile: it has no “nodes”.")), NULL;
  return json_node_get_object (root);
}

StrataTrace *
strata_cpuprofile_load (StrataLoadJob  *job,
                        GError        **error)
{
  g_autoptr(StrataTrace) trace = strata_trace_new (STRATA_FORMAT_CPUPROFILE);
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  const StrataClockKind wall = STRATA_CLOCK_WALL;
  Profile self = { .trace = trace };
  JsonObject *root;
  JsonArray *nodes;
  guint thread;

  if (!strata_load_job_update (job, 0, _("Reading the CPU profile…"), error) ||
      (root = parse_profile (parser, job->bytes, error)) == NULL)
    return NULL;
  nodes = json_node_get_array (json_object_get_member (root, "nodes"));
  self.nodes = g_array_new (FALSE, FALSE, sizeof (Node));
  self.index_of = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self.methods = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  strata_trace_set_clocks (trace, 1, &wall);
  thread = strata_trace_add_thread (trace, strata_trace_add_process (trace, 0, _("JavaScript")), 0, _("Main thread"));
  for (guint i = 0; i < json_array_get_length (nodes); i++)
    add_node (&self, object_of (json_array_get_element (nodes, i)));
  link_parents (&self, nodes);
  if (!strata_load_job_update (job, 0.5, _("Laying the samples out…"), error))
    {
      profile_clear (&self);
      return NULL;
    }
  build_calls (&self, root, thread);
  report (&self);
  profile_clear (&self);
  strata_trace_finish (trace);
  return g_steal_pointer (&trace);
}
