/* strata-cpuprofile.c: a V8 CPU profile read as one thread's calls
 *
 * node --cpu-prof and DevTools' "Save profile" write the profiler's call
 * tree ("nodes", each a call frame with its children), the node each
 * sample hit ("samples") and the microseconds since the sample before
 * ("timeDeltas", from "startTime"); strata-v8-profile.c makes each
 * sample's stack of them. Consecutive samples that share callers become
 * one call of each, as DevTools' flame chart draws them, each sample
 * lasting until the next (the last until "endTime"). "(program)" and
 * "(garbage collector)" are frames of their own. The format's detail
 * says how many samples were read.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "strata-error.h"
#include "strata-format-private.h"
#include "strata-trace-private.h"
#include "strata-units.h"
#include "strata-v8-profile.h"

/* json-glib holds a document at about ten times its size. */
#define MAX_PROFILE_BYTES (G_GUINT64_CONSTANT (1) << 30)

typedef struct
{
  StrataTrace *trace;
  GHashTable  *methods;     /* frame label → method + 1 */
} Methods;

/* The method of a call frame: one per function, script and place, with
 * its name, script and line, of the category "JavaScript" as in a trace. */
static guint32
frame_method (gpointer    data,
              const char *function,
              const char *url,
              gint64      line,
              gint64      column)
{
  Methods *self = data;
  StrataStringPool *pool = strata_trace_get_pool (self->trace);
  g_autofree char *label = strata_v8_frame_label (function, url, line, column);
  gpointer found = g_hash_table_lookup (self->methods, label);
  StrataMethod method = { 0 };
  guint32 index;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  method.raw_id = g_hash_table_size (self->methods);
  method.class_name = strata_string_pool_intern (pool, "JavaScript");
  method.name = strata_string_pool_intern (pool, *function != '\0' ? function : "(anonymous)");
  method.source_file = strata_string_pool_intern (pool, url);
  method.display_name = strata_string_pool_intern (pool, label);
  method.line = line >= 0 && line < G_MAXINT32 ? (gint32) line + 1 : -1;
  index = strata_trace_add_method (self->trace, &method);
  g_hash_table_insert (self->methods, g_steal_pointer (&label), GUINT_TO_POINTER (index + 1));
  return index;
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
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root) || strata_v8_json_array (json_node_get_object (root), "nodes") == NULL)
    return g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_NOT_A_TRACE,
                                _("It is JSON, but not a CPU profile: it has no “nodes”.")), NULL;
  return json_node_get_object (root);
}

/* The samples laid out as the one thread's calls. */
static void
build_calls (StrataTrace     *trace,
             StrataV8Profile *profile,
             guint            thread)
{
  guint n;
  gint64 end;
  const StrataTimedStack *stacks = strata_v8_profile_get_stacks (profile, STRATA_V8_STACKS_PROFILE, &n, &end);
  guint64 n_samples = strata_v8_profile_get_n_samples (profile);
  g_autofree char *count = strata_units_format_count (n_samples);
  g_autofree char *detail = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s sample", "%s samples", n_samples), count);
  StrataV8Repairs repairs = { 0 };

  strata_stack_layout_timed (trace, thread, stacks, n, end);
  /* How much was read is the format's detail; the diagnostics are for
   * what had to be repaired. */
  strata_trace_set_format_detail (trace, detail);
  strata_v8_profile_add_repairs (profile, &repairs);
  strata_v8_repairs_report (&repairs, trace);
}

StrataTrace *
strata_cpuprofile_load (StrataLoadJob  *job,
                        GError        **error)
{
  g_autoptr(StrataTrace) trace = strata_trace_new (STRATA_FORMAT_CPUPROFILE);
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GHashTable) methods = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  Methods frames = { trace, methods };
  g_autoptr(StrataV8Profile) profile = strata_v8_profile_new (frame_method, &frames);
  const StrataClockKind wall = STRATA_CLOCK_WALL;
  JsonObject *root;
  guint thread;

  if (!strata_load_job_update (job, 0, _("Reading the CPU profile…"), error) ||
      (root = parse_profile (parser, job->bytes, error)) == NULL)
    return NULL;
  strata_trace_set_clocks (trace, 1, &wall);
  thread = strata_trace_add_thread (trace, strata_trace_add_process (trace, 0, _("JavaScript")), 0, _("Main thread"));
  strata_v8_profile_add_nodes (profile, strata_v8_json_array (root, "nodes"));
  strata_v8_profile_set_start (profile, strata_v8_json_micros (root, "startTime", 0));
  if (json_object_has_member (root, "endTime"))
    strata_v8_profile_set_end (profile, strata_v8_json_micros (root, "endTime", 0));
  strata_v8_profile_add_samples (profile, strata_v8_json_array (root, "samples"), strata_v8_json_array (root, "timeDeltas"));
  if (!strata_load_job_update (job, 0.5, _("Laying the samples out…"), error))
    return NULL;
  build_calls (trace, profile, thread);
  strata_trace_finish (trace);
  return g_steal_pointer (&trace);
}
