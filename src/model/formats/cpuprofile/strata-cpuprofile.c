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
 * says how many samples were read. The file is read straight from its
 * text (strata-v8-text.c), not built into a JSON tree: a profile takes
 * sixteen bytes a sample while it is read.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-error.h"
#include "strata-format-private.h"
#include "strata-trace-private.h"
#include "strata-units.h"
#include "strata-v8-stacks.h"
#include "strata-v8-text.h"

#define KEY_IS(literal) (key_len == sizeof (literal) - 1 && memcmp (key, literal, key_len) == 0)

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

/* Bytes read between two looks at progress and cancel. */
#define PROGRESS_BYTES (4 << 20)

/* The profile's members, found in the text. */
typedef struct
{
  StrataLoadJob   *job;
  StrataV8Profile *profile;
  GArray          *ids;          /* gint64: "samples" */
  GArray          *deltas;       /* gint64: "timeDeltas", unless streamed */
  GArray          *into;         /* the one of them being read */
  gboolean         has_nodes;
  gboolean         nodes_read;
  gboolean         has_start;
  gboolean         has_end;
  gboolean         streamed;     /* the deltas went to the profile as read */
  guint            n_added;      /* the samples added so far */
  gint64           start;        /* µs */
  gint64           end;
  const char      *data;
  gsize            told;         /* where progress was told */
  gboolean         cancelled;
  GError         **error;        /* set when cancelled */
} ProfileScan;

/* Tells progress, gives the pages read back; FALSE when cancelled. */
static gboolean
tell_progress (ProfileScan *scan,
               const char  *at)
{
  gsize pos = at - scan->data;

  if (pos - scan->told < PROGRESS_BYTES)
    return TRUE;
  strata_load_job_release_pages (scan->job, (const guint8 *) scan->data + scan->told, (const guint8 *) at);
  scan->told = pos;
  scan->cancelled = !strata_load_job_update (scan->job, 0.5 * pos / MAX (g_bytes_get_size (scan->job->bytes), 1),
                                             _("Reading the CPU profile…"), scan->error);
  return !scan->cancelled;
}

/* Numbers into the array being read (scan->into). */
static gboolean
take_values (const gint64 *values,
             guint         n,
             const char   *at,
             gpointer      data)
{
  ProfileScan *scan = data;

  g_array_append_vals (scan->into, values, n);
  return tell_progress (scan, at);
}

/* Deltas after the nodes, the start and the samples, as node writes
 * them, are added with their samples as they are read: the profile
 * never holds them all. */
static gboolean
add_deltas (const gint64 *values,
            guint         n,
            const char   *at,
            gpointer      data)
{
  ProfileScan *scan = data;
  guint n_ids = MIN (n, scan->ids->len - scan->n_added);

  strata_v8_profile_add_sample_values (scan->profile, &g_array_index (scan->ids, gint64, scan->n_added), n_ids,
                                       values, n_ids);
  scan->n_added += n_ids;
  return tell_progress (scan, at);
}

/* Once deltas were streamed, the first "samples" and "timeDeltas" are
 * the profile's; a repeated member is stepped over. */
static StrataJsonStatus
read_samples (ProfileScan  *scan,
              gboolean      deltas,
              const char   *p,
              const char   *end,
              const char  **value_end)
{
  if (scan->streamed)
    return strata_json_skip_value (p, end, value_end);
  scan->into = deltas ? scan->deltas : scan->ids;
  if (!deltas)
    return strata_v8_read_integers_with (p, end, G_MININT64, take_values, scan, value_end);
  if (!(scan->nodes_read && scan->has_start && scan->ids->len > 0 && scan->deltas->len == 0))
    return strata_v8_read_integers_with (p, end, 0, take_values, scan, value_end);
  scan->streamed = TRUE;
  strata_v8_profile_set_start (scan->profile, scan->start);
  return strata_v8_read_integers_with (p, end, 0, add_deltas, scan, value_end);
}

static StrataJsonStatus
profile_member (const char  *key,
                gsize        key_len,
                const char  *p,
                const char  *end,
                gpointer     data,
                const char **value_end)
{
  ProfileScan *scan = data;
  StrataJsonStatus status;

  if (KEY_IS ("samples") || KEY_IS ("timeDeltas"))
    return read_samples (scan, KEY_IS ("timeDeltas"), p, end, value_end);
  if (KEY_IS ("startTime") && !scan->streamed)
    {
      scan->has_start = TRUE;
      return strata_v8_read_integer (p, end, 0, &scan->start, value_end);
    }
  if (KEY_IS ("endTime"))
    {
      scan->has_end = TRUE;
      return strata_v8_read_integer (p, end, 0, &scan->end, value_end);
    }
  status = strata_json_skip_value (p, end, value_end);
  if (KEY_IS ("nodes") && *p == '[' && status == STRATA_JSON_OK)
    {
      scan->has_nodes = TRUE;
      scan->nodes_read = strata_v8_profile_add_nodes_text (scan->profile, p, *value_end);
    }
  return status;
}

static gboolean
read_profile (ProfileScan  *scan,
              GError      **error)
{
  gsize len;
  const char *data = g_bytes_get_data (scan->job->bytes, &len);
  const char *p = strata_json_skip_space_inline (data, data + len);
  const char *end = data + len;
  StrataJsonStatus status;

  scan->data = data;
  scan->error = error;
  /* A byte order mark is not JSON, but some writers put one. */
  if (end - p >= 3 && memcmp (p, "\xEF\xBB\xBF", 3) == 0)
    p = strata_json_skip_space_inline (p + 3, end);
  status = p < end && *p == '{' ? strata_json_scan_object (p, end, profile_member, scan, &p) : STRATA_JSON_INVALID;
  if (scan->cancelled)
    return FALSE;
  if (status == STRATA_JSON_OK && !scan->has_nodes)
    return g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_NOT_A_TRACE,
                                _("It is JSON, but not a CPU profile: it has no “nodes”.")), FALSE;
  if (status != STRATA_JSON_OK || !scan->nodes_read)
    return g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                                _("The CPU profile is not valid JSON: it is cut short or damaged.")), FALSE;
  /* The text is read: its pages go back. */
  strata_load_job_release_pages (scan->job, (const guint8 *) data, (const guint8 *) end);
  return TRUE;
}

/* The samples not added as their deltas were read: all of them, or
 * those the deltas ran out before. */
static void
add_other_samples (ProfileScan *scan)
{
  if (!scan->streamed)
    strata_v8_profile_set_start (scan->profile, scan->start);
  if (scan->has_end)
    strata_v8_profile_set_end (scan->profile, scan->end);
  if (scan->ids->len <= scan->n_added)
    return;
  strata_v8_profile_add_sample_values (scan->profile, (const gint64 *) scan->ids->data + scan->n_added,
                                       scan->ids->len - scan->n_added, (const gint64 *) scan->deltas->data,
                                       scan->streamed ? 0 : scan->deltas->len);
}

/* The samples laid out as the one thread's calls. */
static void
build_calls (StrataTrace     *trace,
             StrataV8Profile *profile,
             guint            thread)
{
  StrataV8Stacks stacks;
  gint64 end;
  guint64 n_samples = strata_v8_profile_get_n_samples (profile);
  g_autofree char *count = strata_units_format_count (n_samples);
  g_autofree char *detail = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s sample", "%s samples", n_samples), count);
  StrataV8Repairs repairs = { 0 };

  strata_v8_stacks_init (&stacks, profile, STRATA_V8_STACKS_PROFILE, NULL, &end);
  strata_stack_layout_timed (trace, thread, strata_v8_stacks_next_func, &stacks, end);
  strata_v8_stacks_clear (&stacks);
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
  g_autoptr(GHashTable) methods = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  Methods frames = { trace, methods };
  g_autoptr(StrataV8Profile) profile = strata_v8_profile_new (frame_method, &frames);
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) deltas = g_array_new (FALSE, FALSE, sizeof (gint64));
  ProfileScan scan = { .job = job, .profile = profile, .ids = ids, .deltas = deltas };
  const StrataClockKind wall = STRATA_CLOCK_WALL;
  guint thread;

  if (!strata_load_job_update (job, 0, _("Reading the CPU profile…"), error) || !read_profile (&scan, error))
    return NULL;
  strata_trace_set_clocks (trace, 1, &wall);
  strata_trace_set_calls_are_samples (trace, TRUE);
  thread = strata_trace_add_thread (trace, strata_trace_add_process (trace, 0, _("JavaScript")), 0, _("Main thread"));
  add_other_samples (&scan);
  g_clear_pointer (&ids, g_array_unref);
  g_clear_pointer (&deltas, g_array_unref);
  if (!strata_load_job_update (job, 0.5, _("Laying the samples out…"), error))
    return NULL;
  build_calls (trace, profile, thread);
  strata_trace_finish (trace);
  return g_steal_pointer (&trace);
}
