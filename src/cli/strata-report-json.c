/* strata-report-json.c: `strata -r --format=json`, the report as one document
 *
 * Written as it is produced (StrataJsonWriter): a trace of millions of
 * calls and edges is never held as a tree. Every figure is given on each
 * clock of the trace.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <unistd.h>
#include <glib/gi18n.h>
#include <gio/gunixoutputstream.h>

#include "strata-report-private.h"

#define EDGES_PER_CHUNK 65536

/* The clock's key in JSON reports. */
const char *
strata_report_clock_id (StrataTrace *trace,
                        guint        clock)
{
  switch (strata_trace_get_clock_kind (trace, clock))
    {
    case STRATA_CLOCK_THREAD_CPU:
      return "thread-cpu";
    case STRATA_CLOCK_SAMPLES:
      return "samples";
    case STRATA_CLOCK_WALL:
    default:
      return "wall";
    }
}

static void
add_string_member (StrataJsonWriter *json,
                   const char       *name,
                   const char       *value)
{
  strata_json_writer_member (json, name);
  strata_json_writer_string (json, value);
}

static void
add_int_member (StrataJsonWriter *json,
                const char       *name,
                gint64            value)
{
  strata_json_writer_member (json, name);
  strata_json_writer_int (json, value);
}

static void
write_json_clock_times (StrataJsonWriter *json,
                        StrataTrace      *trace,
                        const gint64     *first,
                        const char       *first_name,
                        const gint64     *second,
                        const char       *second_name)
{
  strata_json_writer_member (json, "clocks");
  strata_json_writer_begin_object (json);
  for (guint c = 0; c < strata_trace_get_n_clocks (trace); c++)
    {
      strata_json_writer_member (json, strata_report_clock_id (trace, c));
      strata_json_writer_begin_object (json);
      add_int_member (json, first_name, first[c]);
      if (second != NULL)
        add_int_member (json, second_name, second[c]);
      strata_json_writer_end_object (json);
    }
  strata_json_writer_end_object (json);
}

static void
write_json_threads (StrataJsonWriter *json,
                    StrataTrace      *trace)
{
  strata_json_writer_member (json, "threads");
  strata_json_writer_begin_array (json);
  for (guint i = 0; i < strata_trace_get_n_threads (trace); i++)
    {
      const StrataThread *thread = strata_trace_get_thread (trace, i);

      strata_json_writer_begin_object (json);
      add_int_member (json, "id", thread->tid);
      add_int_member (json, "pid", strata_trace_get_process (trace, thread->process)->pid);
      add_string_member (json, "name", strata_trace_get_string (trace, thread->name));
      add_int_member (json, "spans", thread->spans ? strata_span_table_get_n_spans (thread->spans) : 0);
      add_int_member (json, "depths", thread->spans ? thread->spans->n_depths : 0);
      if (thread->spans != NULL)
        {
          write_json_clock_times (json, trace, thread->first_time, "first", thread->last_time, "last");
          strata_json_writer_member (json, "entered_before_tracing");
          strata_json_writer_begin_array (json);
          for (guint d = 0; d < thread->n_entered_before; d++)
            strata_json_writer_int (json, thread->spans->calls[d][0].method);
          strata_json_writer_end_array (json);
        }
      strata_json_writer_end_object (json);
    }
  strata_json_writer_end_array (json);
}

static void
write_json_method_names (StrataJsonWriter   *json,
                         StrataTrace        *trace,
                         const StrataMethod *method)
{
  add_string_member (json, "class", strata_trace_get_string (trace, method->class_name));
  add_string_member (json, "method", strata_trace_get_string (trace, method->name));
  add_string_member (json, "signature", strata_trace_get_string (trace, method->signature));
  add_string_member (json, "source", strata_trace_get_string (trace, method->source_file));
}

static void
write_json_methods (StrataJsonWriter *json,
                    StrataTrace      *trace,
                    StrataProfile    *profile)
{
  strata_json_writer_member (json, "methods");
  strata_json_writer_begin_array (json);
  for (guint32 m = 0; m < strata_trace_get_n_methods (trace); m++)
    {
      const StrataMethod *method = strata_trace_get_shown_method (trace, m);
      const StrataMethod *loaded = strata_trace_get_method (trace, m);
      const StrataProfileEntry *entry = strata_profile_get_entry (profile, m);

      strata_json_writer_begin_object (json);
      add_int_member (json, "index", m);
      add_string_member (json, "name", strata_trace_get_string (trace, method->display_name));
      write_json_method_names (json, trace, method);
      if (method->class_name != loaded->class_name || method->name != loaded->name ||
          method->signature != loaded->signature || method->source_file != loaded->source_file ||
          method->display_name != loaded->display_name)
        {
          /* The names in the file, before the mapping. */
          strata_json_writer_member (json, "obfuscated");
          strata_json_writer_begin_object (json);
          add_string_member (json, "name", strata_trace_get_loaded_method_name (trace, m));
          write_json_method_names (json, trace, loaded);
          strata_json_writer_end_object (json);
        }
      add_int_member (json, "calls", entry->calls);
      add_int_member (json, "recursive", entry->recursive_calls);
      write_json_clock_times (json, trace, entry->inclusive, "inclusive", entry->exclusive, "exclusive");
      strata_json_writer_end_object (json);
    }
  strata_json_writer_end_array (json);
}

/* Callers are counted with the toplevel after the last method. */
static guint
edges_from_caller_at (StrataProfile *profile,
                      guint          c,
                      guint32       *caller,
                      guint         *first)
{
  *caller = c < strata_profile_get_n_methods (profile) ? c : STRATA_PROFILE_TOPLEVEL;
  return strata_profile_get_edges_from (profile, *caller, first);
}

/* The edges of callers @begin to @end. */
static void
write_json_edge_range (StrataJsonWriter *json,
                       StrataTrace      *trace,
                       StrataProfile    *profile,
                       guint             begin,
                       guint             end)
{
  for (guint c = begin; c < end; c++)
    {
      guint32 caller;
      guint first, n = edges_from_caller_at (profile, c, &caller, &first);

      for (guint i = first; i < first + n; i++)
        {
          const StrataProfileEdge *edge = strata_profile_get_edge (profile, i);

          strata_json_writer_begin_object (json);
          strata_json_writer_member (json, "caller");
          if (caller == STRATA_PROFILE_TOPLEVEL)
            strata_json_writer_null (json);
          else
            strata_json_writer_int (json, caller);
          add_int_member (json, "callee", edge->callee);
          add_int_member (json, "calls", edge->calls);
          write_json_clock_times (json, trace, edge->time, "time", NULL, NULL);
          strata_json_writer_end_object (json);
        }
    }
}

/* A run of callers whose edges a helper thread writes into memory. */
typedef struct
{
  GOutputStream    *memory;
  StrataJsonWriter *json;
  StrataTrace      *trace;
  StrataProfile    *profile;
  guint             begin;
  guint             end;
} EdgeChunk;

static gpointer
write_edge_chunk (gpointer data)
{
  EdgeChunk *chunk = data;

  write_json_edge_range (chunk->json, chunk->trace, chunk->profile, chunk->begin, chunk->end);
  strata_json_writer_finish (chunk->json, NULL);
  g_output_stream_close (chunk->memory, NULL, NULL);
  return NULL;
}

/* Starts the helper on the callers from @chunk's begin, into memory; the
 * writer is made here, from the document's state before this thread goes on. */
static GThread *
start_edge_chunk (EdgeChunk        *chunk,
                  StrataJsonWriter *outer)
{
  guint32 caller;
  guint first;

  if (chunk->begin > strata_profile_get_n_methods (chunk->profile))
    return NULL;
  edges_from_caller_at (chunk->profile, chunk->begin, &caller, &first);
  chunk->memory = g_memory_output_stream_new_resizable ();
  chunk->json = strata_json_writer_new_inside (chunk->memory, outer, first > 0);
  return g_thread_new ("strata-report", write_edge_chunk, chunk);
}

static void
splice_edge_chunk (EdgeChunk        *chunk,
                   StrataJsonWriter *outer)
{
  g_autoptr(GBytes) items = g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (chunk->memory));

  strata_json_writer_splice (outer, items);
  g_clear_pointer (&chunk->json, strata_json_writer_free);
  g_clear_object (&chunk->memory);
}

/* Where the chunk starting at caller @begin ends: after about
 * EDGES_PER_CHUNK edges. */
static guint
chunk_end (StrataProfile *profile,
           guint          begin)
{
  guint n_methods = strata_profile_get_n_methods (profile);
  guint edges = 0, c = begin;

  for (; c <= n_methods && edges < EDGES_PER_CHUNK; c++)
    {
      guint32 caller;
      guint first;

      edges += edges_from_caller_at (profile, c, &caller, &first);
    }
  return c;
}

/* Traces of interpreters and callbacks have millions of edges: the
 * helper writes every other run of them while this thread writes the
 * one before, and the two are put out in order. */
static void
write_json_edges (StrataJsonWriter *json,
                  StrataTrace      *trace,
                  StrataProfile    *profile)
{
  guint n_callers = strata_profile_get_n_methods (profile) + 1;

  strata_json_writer_member (json, "edges");
  strata_json_writer_begin_array (json);
  if (strata_profile_get_n_edges (profile) < 2 * EDGES_PER_CHUNK || g_get_num_processors () < 2)
    write_json_edge_range (json, trace, profile, 0, n_callers);
  else
    for (guint begin = 0; begin < n_callers;)
      {
        EdgeChunk ahead = { NULL, NULL, trace, profile, chunk_end (profile, begin), 0 };
        GThread *helper;

        ahead.end = chunk_end (profile, ahead.begin);
        helper = start_edge_chunk (&ahead, json);
        write_json_edge_range (json, trace, profile, begin, ahead.begin);
        if (helper != NULL)
          {
            g_thread_join (helper);
            splice_edge_chunk (&ahead, json);
          }
        begin = ahead.end;
      }
  strata_json_writer_end_array (json);
}

static void
write_json_mapping (StrataJsonWriter *json,
                    const StrataReport     *report)
{
  StrataTraceNames *names = report->names;

  if (names == NULL)
    return;
  strata_json_writer_member (json, "mapping");
  strata_json_writer_begin_object (json);
  add_string_member (json, "file", report->mapping_path);
  add_string_member (json, "pg_map_id", strata_trace_names_get_mapping_id (names));
  add_string_member (json, "pg_map_hash", strata_trace_names_get_mapping_hash (names));
  add_int_member (json, "methods_renamed", strata_trace_names_get_n_methods (names));
  add_int_member (json, "classes_renamed", strata_trace_names_get_n_classes (names));
  add_string_member (json, "warning", strata_trace_names_get_fit_warning (names));
  strata_json_writer_end_object (json);
}

static void
write_json_summary (StrataJsonWriter *json,
                    StrataTrace      *trace,
                    StrataProfile    *profile,
                    guint             clock)
{
  g_autofree char *location = g_file_get_parse_name (strata_trace_get_file (trace));
  gint64 totals[STRATA_MAX_CLOCKS] = { 0, 0 };

  add_string_member (json, "file", location);
  add_string_member (json, "format", strata_format_get_id (strata_trace_get_format (trace)));
  if (strata_trace_get_format_detail (trace))
    add_string_member (json, "detail", strata_trace_get_format_detail (trace));
  add_int_member (json, "size", strata_trace_get_file_size (trace));
  add_int_member (json, "calls", strata_trace_get_n_spans (trace));
  /* The clock the text and the window lead with; every figure below is
   * given on each clock. */
  add_string_member (json, "clock", strata_report_clock_id (trace, clock));
  for (guint c = 0; c < strata_trace_get_n_clocks (trace); c++)
    totals[c] = strata_profile_get_total (profile, c);
  strata_json_writer_member (json, "total");
  strata_json_writer_begin_object (json);
  write_json_clock_times (json, trace, totals, "ns", NULL, NULL);
  strata_json_writer_end_object (json);
}

static void
write_json_phases (StrataJsonWriter *json,
                   StrataTrace      *trace)
{
  if (strata_trace_get_format (trace) != STRATA_FORMAT_TRACE_EVENT)
    return;

  strata_json_writer_member (json, "phases");
  strata_json_writer_begin_object (json);
  for (int ph = 0; ph < 128; ph++)
    {
      char name[2] = { ph, 0 };

      if (strata_trace_get_phase_count (trace, ph) > 0)
        add_int_member (json, ph ? name : "", strata_trace_get_phase_count (trace, ph));
    }
  strata_json_writer_end_object (json);
  add_int_member (json, "counters", strata_trace_get_n_counters (trace));
  add_int_member (json, "events", strata_trace_get_n_events (trace));
  add_int_member (json, "flows", strata_trace_get_n_flows (trace));
}

static void
write_json_stack (StrataJsonWriter *json,
                  StrataTrace      *trace,
                  const StrataHeap *heap,
                  guint32           serial)
{
  guint n;
  const guint32 *frames = strata_heap_get_stack (heap, serial, &n);

  strata_json_writer_member (json, "stack");
  strata_json_writer_begin_array (json);
  for (guint f = 0; f < n; f++)
    strata_json_writer_string (json, strata_trace_get_string (trace, frames[f]));
  strata_json_writer_end_array (json);
}

/* The weak references and what no root reaches, with a graph. */
static void
write_json_heap_graph (StrataJsonWriter *json,
                       const StrataHeap *heap)
{
  StrataHeapGraph *graph = strata_heap_get_graph (heap);

  strata_json_writer_member (json, "weak_references");
  strata_json_writer_begin_object (json);
  add_string_member (json, "referents", strata_heap_get_weak_followed (heap) ? "followed" : "not followed");
  add_int_member (json, "count", strata_heap_get_n_weak_referents (heap));
  strata_json_writer_end_object (json);
  /* Counted in the classes, as the dump holds them; a live histogram
   * (jcmd's) has them collected. */
  strata_json_writer_member (json, "unreachable");
  strata_json_writer_begin_object (json);
  add_int_member (json, "objects", strata_heap_graph_get_n_unreachable (graph));
  add_int_member (json, "shallow_bytes", strata_heap_get_unreachable_bytes (heap));
  /* Of them, what soft references, and only weaker ones, still reach. */
  strata_json_writer_member (json, "softly_reachable");
  strata_json_writer_begin_object (json);
  add_int_member (json, "objects", strata_heap_get_softly_reached (heap)->objects);
  add_int_member (json, "shallow_bytes", strata_heap_get_softly_reached (heap)->bytes);
  strata_json_writer_end_object (json);
  strata_json_writer_member (json, "weakly_reachable");
  strata_json_writer_begin_object (json);
  add_int_member (json, "objects", strata_heap_get_weakly_reached (heap)->objects);
  add_int_member (json, "shallow_bytes", strata_heap_get_weakly_reached (heap)->bytes);
  strata_json_writer_end_object (json);
  strata_json_writer_end_object (json);
}

/* Android: class @klass's part in each heap (app, zygote, image). */
static void
write_json_class_heaps (StrataJsonWriter *json,
                        const StrataHeap *heap,
                        guint             klass)
{
  strata_json_writer_member (json, "heaps");
  strata_json_writer_begin_object (json);
  for (guint h = 0; h < strata_heap_get_n_heaps (heap); h++)
    {
      const StrataHeapClassShare *share = strata_heap_get_class_in_heap (heap, h, klass);

      strata_json_writer_member (json, strata_heap_get_heap_name (heap, h));
      strata_json_writer_begin_object (json);
      add_int_member (json, "instances", share->instances);
      add_int_member (json, "shallow_bytes", share->shallow_bytes);
      add_int_member (json, "retained_bytes", share->retained_bytes);
      strata_json_writer_end_object (json);
    }
  strata_json_writer_end_object (json);
}

/* The class histogram, most shallow bytes first. */
static void
write_json_classes (StrataJsonWriter *json,
                    StrataTrace      *trace,
                    const StrataHeap *heap)
{
  g_autofree guint *order = strata_heap_sort_by_bytes (heap);

  strata_json_writer_member (json, "classes");
  strata_json_writer_begin_array (json);
  for (guint i = 0; i < strata_heap_get_n_classes (heap); i++)
    {
      const StrataHeapClass *klass = strata_heap_get_class (heap, order[i]);

      strata_json_writer_begin_object (json);
      add_string_member (json, "name", strata_trace_get_string (trace, klass->name));
      add_int_member (json, "instances", klass->instances);
      add_int_member (json, "shallow_bytes", klass->shallow_bytes);
      add_int_member (json, "retained_bytes", klass->retained_bytes);
      if (strata_heap_get_n_heaps (heap) > 0)
        write_json_class_heaps (json, heap, order[i]);
      strata_json_writer_end_object (json);
    }
  strata_json_writer_end_array (json);
}

/* Allocation sites and the threads the dump names, with their stacks. */
static void
write_json_sites_and_threads (StrataJsonWriter *json,
                              StrataTrace      *trace,
                              const StrataHeap *heap)
{
  strata_json_writer_member (json, "sites");
  strata_json_writer_begin_array (json);
  for (guint i = 0; i < strata_heap_get_n_sites (heap); i++)
    {
      const StrataAllocSite *site = strata_heap_get_site (heap, i);

      strata_json_writer_begin_object (json);
      add_string_member (json, "class", strata_trace_get_string (trace, site->class_name));
      add_int_member (json, "live_bytes", site->live_bytes);
      add_int_member (json, "live_objects", site->live_objects);
      add_int_member (json, "allocated_bytes", site->allocated_bytes);
      add_int_member (json, "allocated_objects", site->allocated_objects);
      write_json_stack (json, trace, heap, site->trace);
      strata_json_writer_end_object (json);
    }
  strata_json_writer_end_array (json);
  strata_json_writer_member (json, "heap_threads");
  strata_json_writer_begin_array (json);
  for (guint i = 0; i < strata_heap_get_n_threads (heap); i++)
    {
      const StrataHeapThread *thread = strata_heap_get_thread (heap, i);

      strata_json_writer_begin_object (json);
      add_int_member (json, "serial", thread->serial);
      add_string_member (json, "name", strata_trace_get_string (trace, thread->name));
      write_json_stack (json, trace, heap, thread->stack);
      strata_json_writer_end_object (json);
    }
  strata_json_writer_end_array (json);
}

static void
write_json_heap (StrataJsonWriter *json,
                 StrataTrace      *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);

  if (heap == NULL)
    return;
  if (strata_heap_get_graph (heap) != NULL)
    write_json_heap_graph (json, heap);
  write_json_classes (json, trace, heap);
  write_json_sites_and_threads (json, trace, heap);
  strata_json_writer_member (json, "roots");
  strata_json_writer_begin_object (json);
  for (guint kind = 0; kind < STRATA_N_ROOT_KINDS; kind++)
    if (strata_heap_get_root_count (heap, kind) > 0)
      add_int_member (json, strata_root_kind_get_id (kind), strata_heap_get_root_count (heap, kind));
  strata_json_writer_end_object (json);
}

/**
 * strata_report_print_json:
 *
 * The whole report as one JSON document on standard output: the summary
 * (with the clock it leads with and the mapping applied), threads,
 * methods with their names through any mapping, edges, phases, the heap,
 * its dominators, leak suspects and duplicates, and the diagnostics.
 */
gboolean
strata_report_print_json (const StrataReport  *report,
                          GError             **error)
{
  g_autoptr(GOutputStream) out = g_unix_output_stream_new (STDOUT_FILENO, FALSE);
  /* The document's top members and the items of its lists get a line each. */
  g_autoptr(StrataJsonWriter) json = strata_json_writer_new (out, 2);
  StrataTrace *trace = report->trace;

  strata_json_writer_begin_object (json);
  write_json_summary (json, trace, report->profile, report->clock);
  write_json_mapping (json, report);
  write_json_threads (json, trace);
  write_json_methods (json, trace, report->profile);
  write_json_edges (json, trace, report->profile);
  strata_report_write_json_frames (json, trace);
  strata_report_write_json_user_notes (json, trace);
  write_json_phases (json, trace);
  write_json_heap (json, trace);
  strata_report_write_json_groups (json, trace);
  strata_report_write_json_dominators (json, trace, report->heap_top);
  strata_report_write_json_suspects (json, trace);
  strata_report_write_json_android (json, trace);
  strata_report_write_json_duplicates (json, trace, report->heap_top);
  strata_json_writer_member (json, "diagnostics");
  strata_json_writer_begin_array (json);
  for (guint i = 0; i < strata_trace_get_n_diagnostics (trace); i++)
    strata_json_writer_string (json, strata_trace_get_diagnostic (trace, i));
  strata_json_writer_end_array (json);
  strata_json_writer_member (json, "notes");
  strata_json_writer_begin_array (json);
  for (guint i = 0; i < strata_trace_get_n_notes (trace); i++)
    strata_json_writer_string (json, strata_trace_get_note (trace, i));
  strata_json_writer_end_array (json);
  strata_json_writer_end_object (json);
  return strata_json_writer_finish (json, error);
}

