/* strata-report.c: report mode; links the model only, never GTK
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <unistd.h>
#include <glib/gi18n.h>


#include "strata-heap-labels.h"
#include "strata-json-writer.h"
#include "strata-loader.h"
#include "strata-profile.h"
#include "strata-load-guard.h"
#include "strata-report.h"
#include "strata-heap-object-row.h"
#include "strata-report-private.h"
#include "strata-trace-mapping.h"
#include "strata-units.h"

#define EXIT_LOAD_FAILED STRATA_EXIT_UNREADABLE
#define EXIT_USAGE STRATA_EXIT_USAGE
#define DEFAULT_TOP 10
#define DEFAULT_HEAP_TOP 100

typedef enum
{
  REPORT_TEXT,
  REPORT_JSON,
  REPORT_FOLDED,
  REPORT_CSV,
  REPORT_SPEEDSCOPE,
} ReportFormat;


/* Which mapping named the methods, and whether it seems to be this
 * build's. */
static void
print_mapping (const StrataReport *report)
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
print_header (const StrataReport *report)
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
  if (strata_trace_is_heap_only (trace))
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
format_weight (const StrataReport *report,
               gint64        ns)
{
  return strata_trace_format_weight (report->trace, report->clock, ns, TRUE);
}

static void
print_method_row (const StrataReport *report,
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
  g_autofree char *clipped = NULL;

  g_print ("%7s %16s %7s %16s %12s %16s  %s\n", incl_pct, incl_text, excl_pct, excl_text,
           calls, per_call, strata_units_clip_for_display (strata_trace_get_method_name (report->trace, method), &clipped));
}

static gboolean
was_called (const StrataProfileEntry *entry)
{
  return entry->calls + entry->recursive_calls > 0;
}

static void
print_methods (const StrataReport *report)
{
  guint n;
  const guint32 *sorted = strata_profile_get_sorted (report->profile, report->clock, &n);

  g_print ("\n%7s %16s %7s %16s %12s %16s  %s\n", _("Incl %"), _("Incl"), _("Excl %"), _("Excl"),
           _("Calls+Rec"), _("Time/Call"), _("Name"));
  for (guint i = 0; i < n; i++)
    if (was_called (strata_profile_get_entry (report->profile, sorted[i])))
      print_method_row (report, sorted[i]);
}

/* Clipped as the window clips names: a name can be a whole file. */
static const char *
edge_end_name (const StrataReport *report,
               guint32             method,
               char              **clipped)
{
  *clipped = NULL;
  return method == STRATA_PROFILE_TOPLEVEL
         ? _("(toplevel)")
         : strata_units_clip_for_display (strata_trace_get_method_name (report->trace, method), clipped);
}

static void
print_edges (const StrataReport  *report,
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
      g_autofree char *clipped = NULL;

      g_print ("      %16s %10u/%-10" G_GUINT64_FORMAT " %s\n", time, edge->calls,
               callee->calls + callee->recursive_calls, edge_end_name (report, other, &clipped));
    }
}

static void
print_relations (const StrataReport *report)
{
  guint n;
  const guint32 *sorted = strata_profile_get_sorted (report->profile, report->clock, &n);

  if (report->top == 0)
    return;

  g_print ("\n%s\n", _("Parents and children of the top methods"));
  for (guint i = 0; i < n && i < report->top; i++)
    {
      guint n_parents, n_children;
      g_autofree char *clipped = NULL;
      const guint32 *parents = strata_profile_get_parents (report->profile, sorted[i], &n_parents);
      const guint32 *children = strata_profile_get_children (report->profile, sorted[i], &n_children);

      if (!was_called (strata_profile_get_entry (report->profile, sorted[i])))
        break;
      g_print ("\n  [%u] %s\n", i + 1, edge_end_name (report, sorted[i], &clipped));
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
  /* What is normal for the kind of file comes apart, and only when said. */
  if (strata_trace_get_n_notes (trace) > 0)
    g_print ("\n%s\n", _("Notes"));
  for (guint i = 0; i < strata_trace_get_n_notes (trace); i++)
    g_print ("  %s\n", strata_trace_get_note (trace, i));
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

/* A string of the trace as a line shows it: clipped like the window's. */
static const char *
shown_string (const StrataReport *report,
              guint32             string,
              char              **clipped)
{
  return strata_units_clip_for_display (strata_trace_get_string (report->trace, string), clipped);
}

static void
print_heap_threads (const StrataReport     *report,
                    const StrataHeap *heap)
{
  guint n = strata_heap_get_n_threads (heap);

  if (n == 0)
    return;
  g_print ("\n%s\n", _("Threads"));
  for (guint i = 0; i < n; i++)
    {
      const StrataHeapThread *thread = strata_heap_get_thread (heap, i);
      g_autofree char *clipped = NULL;
      const char *name = shown_string (report, thread->name, &clipped);

      guint n_held, n_frames;
      const StrataFrameRoot *held = strata_heap_get_frame_roots (heap, thread->serial, &n_held);
      const guint32 *frames = strata_heap_get_stack (heap, thread->stack, &n_frames);

      StrataHeapGraph *graph = strata_heap_get_graph (heap);

      /* Translators: a thread the heap dump does not name */
      g_print ("  %u %s", thread->serial, *name ? name : _("(unnamed)"));
      if (graph != NULL && thread->object != STRATA_HEAP_NO_OBJECT)
        {
          g_autofree char *bytes = g_strdup_printf ("%" G_GUINT64_FORMAT, strata_heap_graph_get_retained (graph, thread->object));

          /* Translators: after a thread's name: the bytes its thread object keeps alive */
          g_print (_(" (retains %s bytes)"), bytes);
        }
      g_print ("\n");
      /* Each frame, then what it holds; what no frame is known for, last. */
      for (guint f = 0; f <= n_frames; f++)
        {
          if (f < n_frames)
            {
              g_autofree char *frame_clipped = NULL;

              g_print ("      %s\n", shown_string (report, frames[f], &frame_clipped));
            }
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
print_sites (const StrataReport     *report,
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
      g_autofree char *clipped = NULL;

      g_print ("%5u %14" G_GUINT64_FORMAT " %10" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT " %10" G_GUINT64_FORMAT
               " %8u  %s\n", i + 1, site->live_bytes, site->live_objects, site->allocated_bytes,
               site->allocated_objects, site->trace, shown_string (report, site->class_name, &clipped));
    }
}

/* Android: each heap's objects and bytes. */
static void
print_heaps (const StrataReport     *report,
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
print_heap (const StrataReport *report)
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
      g_autofree char *clipped = NULL;

      if (klass->instances == 0)
        break;
      g_print ("%14" G_GUINT64_FORMAT " %16" G_GUINT64_FORMAT " %16" G_GUINT64_FORMAT "  %s\n", klass->instances,
               klass->shallow_bytes, klass->retained_bytes, shown_string (report, klass->name, &clipped));
    }
  /* Translators: the last line of the class histogram */
  g_print ("%14" G_GUINT64_FORMAT " %16" G_GUINT64_FORMAT " %16s  %s\n", instances, bytes, "", _("Total"));
  print_heaps (report, heap);
  if (strata_heap_get_graph (heap) != NULL)
    {
      g_autofree char *weak = strata_heap_describe_weak_referents (heap);
      g_autofree char *unreachable = strata_heap_describe_unreachable (heap);

      g_print ("%s\n", weak);
      /* Translators: before the unreachable objects' count, size and kinds */
      g_print ("%s %s\n", _("Unreachable objects:"), unreachable);
    }
  strata_report_print_groups (report->trace);
  strata_report_print_suspects (report->trace);
  strata_report_print_android (report->trace);
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
print_text (const StrataReport *report)
{
  print_header (report);
  if (strata_trace_get_heap (report->trace) == NULL || strata_trace_get_n_spans (report->trace) > 0)
    {
      print_methods (report);
      print_relations (report);
      strata_report_print_frames (report->trace);
    }
  print_heap (report);
  print_phase_counts (report->trace);
  strata_report_print_user_notes (report->trace);
  print_diagnostics (report->trace);
}

/* --tree (top-down or bottom-up) as text or JSON, or --format=folded. */
static gboolean
print_call_tree (const StrataReport  *report,
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
    return strata_report_write_folded (tree, report->clock, depth, error);
  if (g_str_equal (tree_name, "bottom-up") && !(inverted = strata_call_tree_invert (tree, NULL, error)))
    return FALSE;
  if (format == REPORT_JSON)
    return strata_report_write_json_tree (inverted ? inverted : tree, report->clock, depth, error);
  if (format == REPORT_CSV)
    return strata_report_write_csv_tree (inverted ? inverted : tree, error);
  print_header (report);
  return strata_report_print_tree (inverted ? inverted : tree, report->clock, depth, error);
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
  else if (g_str_equal (name, "speedscope"))
    *format = REPORT_SPEEDSCOPE;
  else
    return FALSE;
  return TRUE;
}

/**
 * strata_report_apply_mapping:
 * @strict: refuse a mapping that fits poorly (another build's)
 *
 * --mapping, for reports and exports alike: the names of the build's
 * mapping.txt applied to @trace. What the mapping could not read and
 * whether it fits are said on standard error.
 *
 * Returns: (transfer full): the names applied, or %NULL with @error set
 */
StrataTraceNames *
strata_report_apply_mapping (StrataTrace  *trace,
                             const char   *path,
                             gboolean      strict,
                             GError      **error)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(StrataTraceNames) names = strata_trace_map_names (trace, file, NULL, error);
  const char *warning;

  if (names == NULL)
    return NULL;
  if (strata_trace_names_get_problems (names) != NULL)
    g_printerr ("strata: %s: %s\n", path, strata_trace_names_get_problems (names));
  if ((warning = strata_trace_names_get_fit_warning (names)) != NULL)
    {
      if (strict)
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, warning);
          return NULL;
        }
      g_printerr ("strata: %s: %s\n", path, warning);
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
  options.cpu = clock_name != NULL && g_str_equal (clock_name, "cpu");
  if ((rules = strata_report_parse_rules (rule_texts)) == NULL)
    return EXIT_USAGE;
  options.rules = rules;
  return strata_report_diff (&options);
}

/* The options of a report of one file, checked before anything loads:
 * Returns: the exit status of a usage error, or EXIT_SUCCESS */
static int
check_report_usage (const StrataCliOptions *options,
                    ReportFormat           *format)
{
  const char *tree_name = options->tree;

  if (options->files == NULL || options->files[0] == NULL || options->files[1] != NULL)
    {
      g_printerr ("strata: %s\n", _("report mode takes exactly one FILE"));
      return EXIT_USAGE;
    }
  if (!parse_report_format (options->format, format) || options->top < -1)
    {
      g_printerr ("strata: %s\n", _("unknown report format; use “text”, “json”, “csv”, “folded” or “speedscope”"));
      return EXIT_USAGE;
    }
  if (tree_name != NULL && !g_str_equal (tree_name, "top-down") && !g_str_equal (tree_name, "bottom-up"))
    {
      g_printerr ("strata: %s\n", _("unknown tree; use “top-down” or “bottom-up”"));
      return EXIT_USAGE;
    }
  if (options->depth >= 0 && *format != REPORT_FOLDED && (tree_name == NULL || *format == REPORT_CSV))
    {
      g_printerr ("strata: %s\n", _("--depth applies to --tree as text or JSON, and to --format=folded (CSV has every node, with its depth)"));
      return EXIT_USAGE;
    }
  if (options->diff == NULL && options->baseline_mapping != NULL)
    {
      g_printerr ("strata: %s\n", _("--baseline-mapping needs --diff=BASELINE"));
      return EXIT_USAGE;
    }
  if (options->diff == NULL && (options->fail_if != NULL || options->match != NULL))
    {
      g_printerr ("strata: %s\n", _("--fail-if and --match need --diff=BASELINE"));
      return EXIT_USAGE;
    }
  return EXIT_SUCCESS;
}

/* The file loaded, profiled and renamed through --mapping, into @report.
 * Returns: EXIT_SUCCESS, or EXIT_LOAD_FAILED having said why */
static int
load_report (const StrataCliOptions *options,
             StrataReport           *report)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (options->files[0]);
  g_autoptr(StrataLoader) loader = strata_loader_new (file);
  int top = options->top;

  strata_loader_set_follow_weak (loader, options->follow_weak);
  if (!(report->trace = strata_loader_load (loader, NULL, &error)) ||
      !(report->profile = strata_profile_new (report->trace, -1, NULL, &error)))
    {
      g_printerr ("strata: %s: %s\n", options->files[0], error->message);
      return EXIT_LOAD_FAILED;
    }
  if (options->mapping != NULL &&
      !(report->names = strata_report_apply_mapping (report->trace, options->mapping, options->strict_mapping, &error)))
    {
      g_printerr ("strata: %s: %s\n", options->mapping, error->message);
      return EXIT_LOAD_FAILED;
    }
  report->clock = strata_cli_choose_clock (report->trace, options->clock);
  report->top = top < 0 ? DEFAULT_TOP : top;
  report->heap_top = top < 0 ? DEFAULT_HEAP_TOP : top;
  report->mapping_path = options->mapping;
  return EXIT_SUCCESS;
}

/* @report in @format: a call tree or folded stacks, the text report,
 * CSV or JSON. */
static int
print_report (StrataReport           *report,
              const StrataCliOptions *options,
              ReportFormat            format)
{
  g_autoptr(GError) error = NULL;
  gboolean printed = TRUE;

  if ((format == REPORT_FOLDED || format == REPORT_SPEEDSCOPE || options->tree != NULL) &&
      strata_trace_get_n_spans (report->trace) == 0)
    {
      g_printerr ("strata: %s: %s\n", options->files[0],
                  strata_trace_get_heap (report->trace) != NULL
                    ? _("a heap dump has no calls to make a call tree or stacks of; “strata -r” reports its classes, dominators and leak suspects")
                    : _("the file has no calls to make a call tree or stacks of"));
      return EXIT_USAGE;
    }
  if (format == REPORT_FOLDED || options->tree != NULL)
    printed = print_call_tree (report, format, options->tree, options->depth, &error);
  else if (format == REPORT_TEXT)
    print_text (report);
  else if (format == REPORT_CSV)
    printed = strata_report_write_csv (report->trace, report->profile, report->clock, &error);
  else if (format == REPORT_SPEEDSCOPE)
    printed = strata_report_write_speedscope (report, &error);
  else
    printed = strata_report_print_json (report, &error);
  if (!printed)
    {
      g_printerr ("strata: %s\n", error->message);
      return EXIT_LOAD_FAILED;
    }
  return EXIT_SUCCESS;
}

/* For tests: with STRATA_TEST_AFTER_LOAD_MARKER set, the report makes
 * that file once the trace is loaded and waits (at most 30 s) until it
 * is gone, so a test can change the file between the load and the
 * report. */
static void
wait_for_test (void)
{
  const char *marker = g_getenv ("STRATA_TEST_AFTER_LOAD_MARKER");

  if (marker == NULL || !g_file_set_contents (marker, "", 0, NULL))
    return;
  for (guint waited = 0; waited < 3000 && g_file_test (marker, G_FILE_TEST_EXISTS); waited++)
    g_usleep (10000);
}

/* The file stays mapped while the report reads it (a heap dump's
 * strings and arrays are read from it when asked): one that shrinks
 * now ends the report with a message, not a bus error. */
static int
print_report_guarded (StrataReport           *report,
                      const StrataCliOptions *options,
                      ReportFormat            format)
{
  StrataLoadGuard guard;
  int status;

  if (STRATA_LOAD_GUARD_FAULTED (&guard))
    {
      g_autoptr(GError) error = NULL;

      fflush (stdout);
      strata_load_guard_set_error (&guard, &error);
      g_printerr ("strata: %s: %s\n", options->files[0], error->message);
      return EXIT_LOAD_FAILED;
    }
  status = print_report (report, options, format);
  strata_load_guard_pop (&guard);
  return status;
}

int
strata_report_run (const StrataCliOptions *options)
{
  StrataReport report = { 0 };
  ReportFormat format;
  int status;

  if ((status = check_report_usage (options, &format)) != EXIT_SUCCESS)
    return status;
  if (options->diff != NULL)
    return run_diff (options->diff, options->files[0], format, options->clock, options->match, options->fail_if,
                     options->top, options->follow_weak, options->mapping, options->baseline_mapping);
  status = load_report (options, &report);
  if (status == EXIT_SUCCESS)
    {
      GThread *paths;

      wait_for_test ();
      /* Joined whichever way the report ends: it reads the trace. */
      paths = strata_report_start_paths (report.trace);
      status = print_report_guarded (&report, options, format);
      if (paths != NULL)
        g_thread_join (paths);
    }
  /* As they were made, backwards: the names restore the trace's own. */
  g_clear_pointer (&report.names, strata_trace_names_free);
  g_clear_object (&report.profile);
  g_clear_object (&report.trace);
  return status;
}
