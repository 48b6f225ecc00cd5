/* strata-report.c: report mode; links the model only, never GTK
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <gio/gunixoutputstream.h>

#include "strata-json-writer.h"
#include "strata-loader.h"
#include "strata-profile.h"
#include "strata-report.h"
#include "strata-heap-object-row.h"
#include "strata-report-private.h"
#include "strata-trace-mapping.h"
#include "strata-units.h"

#define EXIT_LOAD_FAILED STRATA_EXIT_UNREADABLE
#define EXIT_USAGE STRATA_EXIT_USAGE
#define DEFAULT_TOP 10
#define DEFAULT_HEAP_TOP 100
#define EDGES_PER_CHUNK 65536

typedef enum
{
  REPORT_TEXT,
  REPORT_JSON,
  REPORT_FOLDED,
  REPORT_CSV,
} ReportFormat;

typedef struct
{
  StrataTrace      *trace;
  StrataProfile    *profile;
  guint             clock;
  guint             top;
  guint             heap_top;      /* objects that retain the most */
  const char       *mapping_path;  /* --mapping, or NULL */
  StrataTraceNames *names;         /* what it gave, or NULL */
} Report;

/* Which mapping named the methods, and whether it seems to be this
 * build's. */
static void
print_mapping (const Report *report)
{
  StrataTraceNames *names = report->names;
  const char *id;
  const char *warning;

  if (names == NULL)
    return;
  id = strata_trace_names_get_mapping_id (names);
  /* Translators: a mapping file, then how many methods and classes it renamed */
  g_print (_("Mapping: %s (%u methods and %u classes renamed)\n"), report->mapping_path,
           strata_trace_names_get_n_methods (names), strata_trace_names_get_n_classes (names));
  if (id != NULL)
    g_print ("  pg_map_id: %s\n", id);
  if (strata_trace_names_get_mapping_hash (names) != NULL)
    g_print ("  pg_map_hash: %s\n", strata_trace_names_get_mapping_hash (names));
  if ((warning = strata_trace_names_get_fit_warning (names)) != NULL)
    g_print ("  %s %s\n", _("Warning:"), warning);
}

static void
print_header (const Report *report)
{
  StrataTrace *trace = report->trace;
  g_autofree char *location = g_file_get_parse_name (strata_trace_get_file (trace));
  g_autofree char *calls = strata_units_format_count (strata_trace_get_n_spans (trace));
  gint64 traced = strata_profile_get_total (report->profile, report->clock);
  g_autofree char *total = strata_trace_format_weight (trace, report->clock, traced, FALSE);
  const char *detail = strata_trace_get_format_detail (trace);

  g_print ("%s: %s\n", _("File"), location);
  g_print ("%s: %s%s%s%s\n", _("Format"), strata_format_get_name (strata_trace_get_format (trace)),
           detail ? " (" : "", detail ? detail : "", detail ? ")" : "");
  print_mapping (report);
  if (strata_trace_get_heap (trace) != NULL && strata_trace_get_n_spans (trace) == 0)
    return;
  g_print (_("Threads: %u with calls, %u in all; methods: %u; calls: %s\n"),
           strata_trace_count_threads_with_calls (trace), strata_trace_get_n_threads (trace),
           strata_trace_get_n_methods (trace), calls);
  g_print (_("Clock: %s (%s traced, summed over threads)\n"),
           strata_trace_get_clock_name (trace, report->clock), total);
}

static char *
format_calls (const StrataProfileEntry *entry)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT "+%" G_GUINT64_FORMAT,
                          entry->calls, entry->recursive_calls);
}

/* Times, or for sampled traces sample counts (never seconds). */
static char *
format_weight (const Report *report,
               gint64        ns)
{
  return strata_trace_format_weight (report->trace, report->clock, ns, TRUE);
}

static void
print_method_row (const Report *report,
                  guint32       method)
{
  const StrataProfileEntry *entry = strata_profile_get_entry (report->profile, method);
  gint64 total = strata_profile_get_total (report->profile, report->clock);
  gint64 incl = entry->inclusive[report->clock];
  gint64 excl = entry->exclusive[report->clock];
  g_autofree char *incl_pct = strata_units_format_percent (incl, total);
  g_autofree char *excl_pct = strata_units_format_percent (excl, total);
  g_autofree char *incl_text = format_weight (report, incl);
  g_autofree char *excl_text = format_weight (report, excl);
  g_autofree char *calls = format_calls (entry);
  g_autofree char *per_call = format_weight (report, entry->calls ? incl / (gint64) entry->calls : 0);

  g_print ("%7s %16s %7s %16s %12s %16s  %s\n", incl_pct, incl_text, excl_pct, excl_text,
           calls, per_call, strata_trace_get_method_name (report->trace, method));
}

static gboolean
was_called (const StrataProfileEntry *entry)
{
  return entry->calls + entry->recursive_calls > 0;
}

static void
print_methods (const Report *report)
{
  guint n;
  const guint32 *sorted = strata_profile_get_sorted (report->profile, report->clock, &n);

  g_print ("\n%7s %16s %7s %16s %12s %16s  %s\n", _("Incl %"), _("Incl"), _("Excl %"), _("Excl"),
           _("Calls+Rec"), _("Time/Call"), _("Name"));
  for (guint i = 0; i < n; i++)
    if (was_called (strata_profile_get_entry (report->profile, sorted[i])))
      print_method_row (report, sorted[i]);
}

static const char *
edge_end_name (const Report *report,
               guint32       method)
{
  return method == STRATA_PROFILE_TOPLEVEL ? _("(toplevel)")
                                           : strata_trace_get_method_name (report->trace, method);
}

static void
print_edges (const Report  *report,
             const char    *title,
             const guint32 *edges,
             guint          n_edges,
             gboolean       parents)
{
  g_print ("    %s\n", title);
  for (guint i = 0; i < n_edges; i++)
    {
      const StrataProfileEdge *edge = strata_profile_get_edge (report->profile, edges[i]);
      guint32 other = parents ? strata_profile_get_edge_caller (report->profile, edges[i]) : edge->callee;
      const StrataProfileEntry *callee = strata_profile_get_entry (report->profile, edge->callee);
      g_autofree char *time = format_weight (report, edge->time[report->clock]);

      g_print ("      %16s %10u/%-10" G_GUINT64_FORMAT " %s\n", time, edge->calls,
               callee->calls + callee->recursive_calls, edge_end_name (report, other));
    }
}

static void
print_relations (const Report *report)
{
  guint n;
  const guint32 *sorted = strata_profile_get_sorted (report->profile, report->clock, &n);

  if (report->top == 0)
    return;

  g_print ("\n%s\n", _("Parents and children of the top methods"));
  for (guint i = 0; i < n && i < report->top; i++)
    {
      guint n_parents, n_children;
      const guint32 *parents = strata_profile_get_parents (report->profile, sorted[i], &n_parents);
      const guint32 *children = strata_profile_get_children (report->profile, sorted[i], &n_children);

      if (!was_called (strata_profile_get_entry (report->profile, sorted[i])))
        break;
      g_print ("\n  [%u] %s\n", i + 1, strata_trace_get_method_name (report->trace, sorted[i]));
      print_edges (report, _("Parents:"), parents, n_parents, TRUE);
      print_edges (report, _("Children:"), children, n_children, FALSE);
    }
}

static void
print_diagnostics (StrataTrace *trace)
{
  guint n = strata_trace_get_n_diagnostics (trace);

  g_print ("\n%s\n", _("Diagnostics"));
  if (n == 0)
    g_print ("  %s\n", _("none"));
  for (guint i = 0; i < n; i++)
    g_print ("  %s\n", strata_trace_get_diagnostic (trace, i));
}

/* Trace Event JSON: what the file held, phase by phase. */
static void
print_phase_counts (StrataTrace *trace)
{
  if (strata_trace_get_format (trace) != STRATA_FORMAT_TRACE_EVENT)
    return;

  g_print ("\n%s\n", _("Events by phase"));
  for (int ph = 0; ph < 128; ph++)
    {
      guint64 n = strata_trace_get_phase_count (trace, ph);
      g_autofree char *count = NULL;

      if (n == 0)
        continue;
      count = strata_units_format_count (n);
      if (ph == 0)
        g_print ("  %-6s %12s\n", _("none"), count);
      else
        g_print ("  %-6c %12s\n", ph, count);
    }
  g_print (_("  Counters: %u; other events: %u; flows: %u\n"),
           strata_trace_get_n_counters (trace), strata_trace_get_n_events (trace),
           strata_trace_get_n_flows (trace));
}

static void
print_heap_threads (const Report     *report,
                    const StrataHeap *heap)
{
  guint n = strata_heap_get_n_threads (heap);

  if (n == 0)
    return;
  g_print ("\n%s\n", _("Threads"));
  for (guint i = 0; i < n; i++)
    {
      const StrataHeapThread *thread = strata_heap_get_thread (heap, i);
      const char *name = strata_trace_get_string (report->trace, thread->name);

      guint n_held, n_frames;
      const StrataFrameRoot *held = strata_heap_get_frame_roots (heap, thread->serial, &n_held);
      const guint32 *frames = strata_heap_get_stack (heap, thread->stack, &n_frames);

      /* Translators: a thread the heap dump does not name */
      g_print ("  %u %s\n", thread->serial, *name ? name : _("(unnamed)"));
      /* Each frame, then what it holds; what no frame is known for, last. */
      for (guint f = 0; f <= n_frames; f++)
        {
          if (f < n_frames)
            g_print ("      %s\n", strata_trace_get_string (report->trace, frames[f]));
          for (guint r = 0; r < n_held; r++)
            if ((f < n_frames && held[r].frame == (gint32) f) ||
                (f == n_frames && (held[r].frame < 0 || held[r].frame >= (gint32) n_frames)))
              {
                g_autofree char *text = strata_heap_describe_held (report->trace, held[r].object);

                g_print ("          %s\n", text);
              }
        }
    }
}

/* hprof's SITES table as written: ordered by live bytes or allocations. */
static void
print_sites (const Report     *report,
             const StrataHeap *heap)
{
  guint n = strata_heap_get_n_sites (heap);

  if (n == 0)
    return;
  g_print ("\n%s\n", _("Allocation sites"));
  g_print ("%5s %14s %10s %14s %10s %8s  %s\n", _("Rank"), _("Live bytes"), _("Objects"),
           _("Alloc bytes"), _("Objects"), _("Trace"), _("Class"));
  for (guint i = 0; i < n && (report->top == 0 || i < MAX (report->top, 20)); i++)
    {
      const StrataAllocSite *site = strata_heap_get_site (heap, i);

      g_print ("%5u %14" G_GUINT64_FORMAT " %10" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT " %10" G_GUINT64_FORMAT
               " %8u  %s\n", i + 1, site->live_bytes, site->live_objects, site->allocated_bytes,
               site->allocated_objects, site->trace, strata_trace_get_string (report->trace, site->class_name));
    }
}

/* Android: each heap's objects and bytes. */
static void
print_heaps (const Report     *report,
             const StrataHeap *heap)
{
  for (guint h = 0; h < strata_heap_get_n_heaps (heap); h++)
    {
      guint64 objects = 0, bytes = 0;

      for (guint c = 0; c < strata_heap_get_n_classes (heap); c++)
        {
          objects += strata_heap_get_class_in_heap (heap, h, c)->instances;
          bytes += strata_heap_get_class_in_heap (heap, h, c)->shallow_bytes;
        }
      g_print ("%14" G_GUINT64_FORMAT " %16" G_GUINT64_FORMAT " %16s  %s %s\n", objects, bytes, "",
               _("Heap"), strata_heap_get_heap_name (heap, h));
    }
}

/* Heap dumps: the classes with the most shallow bytes, and the roots.
 * Classes beyond --top are summed in one line. */
static void
print_heap (const Report *report)
{
  const StrataHeap *heap = strata_trace_get_heap (report->trace);
  g_autofree guint *order = NULL;
  guint n, shown;
  guint64 instances, bytes;

  if (heap == NULL)
    return;
  n = strata_heap_get_n_classes (heap);
  order = strata_heap_sort_by_bytes (heap);
  shown = report->top > 0 ? MIN (n, MAX (report->top, 20)) : n;
  strata_heap_get_totals (heap, &instances, &bytes);

  if (instances == 0)
    goto sites;
  g_print ("\n%s\n", _("Class histogram"));
  g_print ("%14s %16s %16s  %s\n", _("Instances"), _("Shallow bytes"), _("Retained bytes"), _("Class"));
  for (guint i = 0; i < shown; i++)
    {
      const StrataHeapClass *klass = strata_heap_get_class (heap, order[i]);

      if (klass->instances == 0)
        break;
      g_print ("%14" G_GUINT64_FORMAT " %16" G_GUINT64_FORMAT " %16" G_GUINT64_FORMAT "  %s\n", klass->instances,
               klass->shallow_bytes, klass->retained_bytes, strata_trace_get_string (report->trace, klass->name));
    }
  /* Translators: the last line of the class histogram */
  g_print ("%14" G_GUINT64_FORMAT " %16" G_GUINT64_FORMAT " %16s  %s\n", instances, bytes, "", _("Total"));
  print_heaps (report, heap);
  if (strata_heap_get_graph (heap) != NULL)
    {
      g_autofree char *weak = strata_heap_describe_weak_referents (heap);

      g_print ("%s\n", weak);
    }
  strata_report_print_suspects (report->trace);
  strata_report_print_dominators (report->trace, report->heap_top);
  strata_report_print_duplicates (report->trace, report->top);

sites:
  print_sites (report, heap);
  print_heap_threads (report, heap);
  if (instances == 0)
    return;
  g_print ("\n%s\n", _("GC roots"));
  for (guint kind = 0; kind < STRATA_N_ROOT_KINDS; kind++)
    if (strata_heap_get_root_count (heap, kind) > 0)
      g_print ("%14" G_GUINT64_FORMAT "  %s\n", strata_heap_get_root_count (heap, kind), strata_root_kind_get_name (kind));
}

static void
print_text (const Report *report)
{
  print_header (report);
  if (strata_trace_get_heap (report->trace) == NULL || strata_trace_get_n_spans (report->trace) > 0)
    {
      print_methods (report);
      print_relations (report);
    }
  print_heap (report);
  print_phase_counts (report->trace);
  print_diagnostics (report->trace);
}

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
            strata_json_writer_int (json, thread->spans->spans[d][0].method);
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
                    const Report     *report)
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

static void
write_json_heap (StrataJsonWriter *json,
                 StrataTrace      *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  g_autofree guint *order = NULL;

  if (heap == NULL)
    return;
  order = strata_heap_sort_by_bytes (heap);
  if (strata_heap_get_graph (heap) != NULL)
    {
      StrataHeapGraph *graph = strata_heap_get_graph (heap);
      guint64 instances, bytes;

      strata_json_writer_member (json, "weak_references");
      strata_json_writer_begin_object (json);
      add_string_member (json, "referents", strata_heap_get_weak_followed (heap) ? "followed" : "not followed");
      add_int_member (json, "count", strata_heap_get_n_weak_referents (heap));
      strata_json_writer_end_object (json);
      /* Counted in the classes, as the dump holds them; a live histogram
       * (jcmd's) has them collected. */
      strata_heap_get_totals (heap, &instances, &bytes);
      strata_json_writer_member (json, "unreachable");
      strata_json_writer_begin_object (json);
      add_int_member (json, "objects", strata_heap_graph_get_n_unreachable (graph));
      add_int_member (json, "shallow_bytes", bytes - MIN (bytes, strata_heap_graph_get_reachable_bytes (graph)));
      strata_json_writer_end_object (json);
    }
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
      /* Android: the class's part in each heap (app, zygote, image). */
      if (strata_heap_get_n_heaps (heap) > 0)
        {
          strata_json_writer_member (json, "heaps");
          strata_json_writer_begin_object (json);
          for (guint h = 0; h < strata_heap_get_n_heaps (heap); h++)
            {
              const StrataHeapClassShare *share = strata_heap_get_class_in_heap (heap, h, order[i]);

              strata_json_writer_member (json, strata_heap_get_heap_name (heap, h));
              strata_json_writer_begin_object (json);
              add_int_member (json, "instances", share->instances);
              add_int_member (json, "shallow_bytes", share->shallow_bytes);
              add_int_member (json, "retained_bytes", share->retained_bytes);
              strata_json_writer_end_object (json);
            }
          strata_json_writer_end_object (json);
        }
      strata_json_writer_end_object (json);
    }
  strata_json_writer_end_array (json);
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
  strata_json_writer_member (json, "roots");
  strata_json_writer_begin_object (json);
  for (guint kind = 0; kind < STRATA_N_ROOT_KINDS; kind++)
    if (strata_heap_get_root_count (heap, kind) > 0)
      add_int_member (json, strata_root_kind_get_id (kind), strata_heap_get_root_count (heap, kind));
  strata_json_writer_end_object (json);
}

static gboolean
print_json (const Report  *report,
            GError       **error)
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
  write_json_phases (json, trace);
  write_json_heap (json, trace);
  strata_report_write_json_dominators (json, trace, report->heap_top);
  strata_report_write_json_suspects (json, trace);
  strata_report_write_json_duplicates (json, trace, report->heap_top);
  strata_json_writer_member (json, "diagnostics");
  strata_json_writer_begin_array (json);
  for (guint i = 0; i < strata_trace_get_n_diagnostics (trace); i++)
    strata_json_writer_string (json, strata_trace_get_diagnostic (trace, i));
  strata_json_writer_end_array (json);
  strata_json_writer_end_object (json);
  return strata_json_writer_finish (json, error);
}

/* --tree (top-down or bottom-up) as text or JSON, or --format=folded. */
static gboolean
print_call_tree (const Report  *report,
                 ReportFormat   format,
                 const char    *tree_name,
                 int            depth,
                 GError       **error)
{
  g_autoptr(StrataCallTree) tree = NULL;
  g_autoptr(StrataCallTree) inverted = NULL;

  /* Collapsed stacks start with the thread. */
  tree = strata_call_tree_new (report->trace, -1, format == REPORT_FOLDED, NULL, NULL, error);
  if (tree == NULL)
    return FALSE;
  if (format == REPORT_FOLDED)
    return strata_report_write_folded (tree, report->clock, error);
  if (g_str_equal (tree_name, "bottom-up") && !(inverted = strata_call_tree_invert (tree, NULL, error)))
    return FALSE;
  if (format == REPORT_JSON)
    return strata_report_write_json_tree (inverted ? inverted : tree, report->clock, depth, error);
  if (format == REPORT_CSV)
    return strata_report_write_csv_tree (inverted ? inverted : tree, error);
  print_header (report);
  strata_report_print_tree (inverted ? inverted : tree, report->clock, depth);
  return TRUE;
}

static gboolean
parse_report_format (const char   *name,
                     ReportFormat *format)
{
  if (name == NULL || g_str_equal (name, "text"))
    *format = REPORT_TEXT;
  else if (g_str_equal (name, "json"))
    *format = REPORT_JSON;
  else if (g_str_equal (name, "folded"))
    *format = REPORT_FOLDED;
  else if (g_str_equal (name, "csv"))
    *format = REPORT_CSV;
  else
    return FALSE;
  return TRUE;
}

/* The clock the window opens on, unless --clock picks another. */
static gboolean
choose_clock (StrataTrace *trace,
              const char  *name,
              guint       *clock)
{
  if (name == NULL)
    *clock = strata_trace_get_default_clock (trace);
  else if (g_str_equal (name, "wall"))
    *clock = strata_trace_find_clock (trace, STRATA_CLOCK_WALL);
  else if (g_str_equal (name, "cpu"))
    *clock = strata_trace_find_clock (trace, STRATA_CLOCK_THREAD_CPU);
  else
    return FALSE;
  return TRUE;
}

/* --mapping: names from the build's mapping.txt; what it could not read
 * and whether it fits are said on standard error, the rest applied. With
 * @strict, a mapping that does not fit is refused. */
static StrataTraceNames *
apply_mapping (StrataTrace *trace,
               const char  *path,
               gboolean     strict)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTraceNames) names = strata_trace_map_names (trace, file, NULL, &error);
  const char *warning;

  if (names == NULL)
    {
      g_printerr ("strata: %s: %s\n", path, error->message);
      return NULL;
    }
  if (strata_trace_names_get_problems (names) != NULL)
    g_printerr ("strata: %s: %s\n", path, strata_trace_names_get_problems (names));
  if ((warning = strata_trace_names_get_fit_warning (names)) != NULL)
    {
      g_printerr ("strata: %s: %s\n", path, warning);
      if (strict)
        return NULL;
    }
  strata_trace_names_apply (names, trace);
  return g_steal_pointer (&names);
}

static int
run_diff (const char *baseline,
          const char *current,
          ReportFormat format,
          const char *clock_name,
          const char *match_name,
          char      **rule_texts,
          int         top,
          gboolean    follow_weak,
          const char *mapping,
          const char *baseline_mapping)
{
  g_autoptr(GPtrArray) rules = NULL;
  StrataReportDiffOptions options = { baseline, current, STRATA_MATCH_SIGNATURE, FALSE,
                                      format == REPORT_JSON, follow_weak, mapping, baseline_mapping, top, NULL };

  if (format == REPORT_FOLDED || format == REPORT_CSV)
    {
      g_printerr ("strata: %s\n", _("--diff prints text or JSON"));
      return EXIT_USAGE;
    }
  if (match_name != NULL && g_str_equal (match_name, "name"))
    options.match = STRATA_MATCH_NAME;
  else if (match_name != NULL && !g_str_equal (match_name, "signature"))
    {
      g_printerr ("strata: %s\n", _("unknown --match; use “signature” or “name”"));
      return EXIT_USAGE;
    }
  if (clock_name != NULL && !g_str_equal (clock_name, "wall") && !g_str_equal (clock_name, "cpu"))
    {
      g_printerr ("strata: %s\n", _("unknown clock; use “cpu” or “wall”"));
      return EXIT_USAGE;
    }
  options.cpu = clock_name != NULL && g_str_equal (clock_name, "cpu");
  if ((rules = strata_report_parse_rules (rule_texts)) == NULL)
    return EXIT_USAGE;
  options.rules = rules;
  return strata_report_diff (&options);
}

/**
 * strata_report_run:
 *
 * `strata -r`: the report of one file (or, with --diff, of two), in the
 * format asked for, on standard output.
 *
 * Returns: the exit status (STRATA_EXIT_*)
 */
int
strata_report_run (const StrataCliOptions *options)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataLoader) loader = NULL;
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(StrataProfile) profile = NULL;
  g_autoptr(StrataTraceNames) names = NULL;
  g_autoptr(GFile) file = NULL;
  char **files = options->files;
  const char *tree_name = options->tree;
  const char *mapping_path = options->mapping;
  int depth = options->depth;
  int top = options->top;
  ReportFormat format;
  Report report = { 0 };

  if (files == NULL || files[0] == NULL || files[1] != NULL)
    {
      g_printerr ("strata: %s\n", _("report mode takes exactly one FILE"));
      return EXIT_USAGE;
    }
  if (!parse_report_format (options->format, &format) || top < -1)
    {
      g_printerr ("strata: %s\n", _("unknown report format; use “text”, “json”, “csv” or “folded”"));
      return EXIT_USAGE;
    }
  if (tree_name != NULL && !g_str_equal (tree_name, "top-down") && !g_str_equal (tree_name, "bottom-up"))
    {
      g_printerr ("strata: %s\n", _("unknown tree; use “top-down” or “bottom-up”"));
      return EXIT_USAGE;
    }
  if (depth >= 0 && (tree_name == NULL || format == REPORT_CSV || format == REPORT_FOLDED))
    {
      g_printerr ("strata: %s\n", _("--depth applies to --tree as text or JSON (CSV has every node, with its depth)"));
      return EXIT_USAGE;
    }

  if (options->diff != NULL)
    return run_diff (options->diff, files[0], format, options->clock, options->match, options->fail_if, top,
                     options->follow_weak, mapping_path, options->baseline_mapping);
  if (options->baseline_mapping != NULL)
    {
      g_printerr ("strata: %s\n", _("--baseline-mapping needs --diff=BASELINE"));
      return EXIT_USAGE;
    }
  if (options->fail_if != NULL || options->match != NULL)
    {
      g_printerr ("strata: %s\n", _("--fail-if and --match need --diff=BASELINE"));
      return EXIT_USAGE;
    }

  file = g_file_new_for_commandline_arg (files[0]);
  loader = strata_loader_new (file);
  strata_loader_set_follow_weak (loader, options->follow_weak);
  if (!(trace = strata_loader_load (loader, NULL, &error)) ||
      !(profile = strata_profile_new (trace, -1, NULL, &error)))
    {
      g_printerr ("strata: %s: %s\n", files[0], error->message);
      return EXIT_LOAD_FAILED;
    }

  if (mapping_path != NULL && !(names = apply_mapping (trace, mapping_path, options->strict_mapping)))
    return EXIT_LOAD_FAILED;
  if (options->strict_mapping && mapping_path == NULL)
    {
      g_printerr ("strata: %s\n", _("--strict-mapping needs --mapping=MAPPING"));
      return EXIT_USAGE;
    }

  report = (Report) { trace, profile, 0, top < 0 ? DEFAULT_TOP : top, top < 0 ? DEFAULT_HEAP_TOP : top, mapping_path, names };
  if (!choose_clock (trace, options->clock, &report.clock))
    {
      g_printerr ("strata: %s\n", _("unknown clock; use “cpu” or “wall”"));
      return EXIT_USAGE;
    }

  if ((format == REPORT_FOLDED || tree_name != NULL) && strata_trace_get_n_spans (trace) == 0)
    {
      g_printerr ("strata: %s: %s\n", files[0],
                  strata_trace_get_heap (trace) != NULL
                    ? _("a heap dump has no calls to make a call tree or stacks of; “strata -r” reports its classes, dominators and leak suspects")
                    : _("the file has no calls to make a call tree or stacks of"));
      return EXIT_USAGE;
    }
  if (format == REPORT_FOLDED || tree_name != NULL)
    {
      if (!print_call_tree (&report, format, tree_name, depth, &error))
        {
          g_printerr ("strata: %s\n", error->message);
          return EXIT_LOAD_FAILED;
        }
    }
  else if (format == REPORT_TEXT)
    print_text (&report);
  else if (format == REPORT_CSV)
    {
      if (!strata_report_write_csv (trace, profile, report.clock, &error))
        {
          g_printerr ("strata: %s\n", error->message);
          return EXIT_LOAD_FAILED;
        }
    }
  else if (!print_json (&report, &error))
    {
      g_printerr ("strata: %s\n", error->message);
      return EXIT_LOAD_FAILED;
    }

  return EXIT_SUCCESS;
}
