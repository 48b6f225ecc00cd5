/* strata-report-diff.c: `strata -r --diff=BASELINE FILE`, and its gate
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <gio/gunixoutputstream.h>

#include "strata-gate-rule.h"
#include "strata-json-writer.h"
#include "strata-loader.h"
#include "strata-report-private.h"
#include "strata-trace-mapping.h"

#define EXIT_LOAD_FAILED 1
#define EXIT_USAGE 2
#define EXIT_GATE_BROKEN 3

typedef struct
{
  GFile         *file;
  gboolean       follow_weak;
  const char    *mapping;      /* this file's build's mapping.txt, or NULL */
  StrataProfile *profile;
  GError        *error;
  const char    *failed;       /* the file the error is about: the trace or its mapping */
} Side;

typedef struct
{
  StrataComparison *comparison;
  guint             clock;
  GPtrArray        *rules;        /* StrataGateRule */
  int               top;          /* rows to print; -1: the default */
  guint32          *new_objects;  /* heap dumps: per row, or NULL */
  guint             n_moved;      /* heap dumps: class objects with new ids */
  guint             n_compared;   /* of those in both */
} Diff;


static gpointer
load_side (gpointer data)
{
  Side *side = data;
  g_autoptr(StrataLoader) loader = strata_loader_new (side->file);
  g_autoptr(StrataTrace) trace = NULL;

  strata_loader_set_follow_weak (loader, side->follow_weak);
  if ((trace = strata_loader_load (loader, NULL, &side->error)) == NULL)
    return NULL;
  if (side->mapping != NULL)
    {
      g_autoptr(GFile) mapping = g_file_new_for_commandline_arg (side->mapping);
      g_autoptr(StrataTraceNames) names = strata_trace_map_names (trace, mapping, NULL, &side->error);

      if (names == NULL)
        {
          side->failed = side->mapping;
          return NULL;
        }
      strata_trace_names_apply (names, trace);
    }
  side->profile = strata_profile_new (trace, -1, NULL, &side->error);
  return NULL;
}

/* Both files load at once: while one waits on the disk or its profile's
 * workers, the other runs (bench-compare: at once 1.9–2.6 s, in turn 2.7–
 * 3.1 s for two 20M-record traces on two processors). */
static gboolean
load_both (Side *sides)
{
  GThread *baseline = g_thread_new ("strata-baseline", load_side, &sides[0]);

  load_side (&sides[1]);
  g_thread_join (baseline);
  for (guint i = 0; i < 2; i++)
    if (sides[i].error != NULL)
      {
        g_autofree char *name = g_file_get_parse_name (sides[i].file);
        g_printerr ("strata: %s: %s\n", sides[i].failed != NULL ? sides[i].failed : name, sides[i].error->message);
        return FALSE;
      }
  return TRUE;
}

static gboolean
row_changed (StrataComparison *comparison,
             guint             row,
             guint             clock)
{
  guint n;
  const StrataFigure *figures = strata_comparison_get_figures (comparison, &n);

  if (strata_comparison_row_status (strata_comparison_get_row (comparison, row)) != STRATA_ROW_IN_BOTH)
    return TRUE;
  for (guint i = 0; i < n; i++)
    if (strata_comparison_get_delta (comparison, row, figures[i], clock) != 0)
      return TRUE;
  return FALSE;
}

/* printf pads by bytes; "Δ" and "∞" are two and three. */
static void
print_right (const char *text,
             guint       width)
{
  glong length = g_utf8_strlen (text, -1);

  for (glong i = length; i < (glong) width; i++)
    g_print (" ");
  g_print ("%s ", text);
}

static void
print_file_line (const char  *label,
                 StrataTrace *trace)
{
  g_autofree char *location = g_file_get_parse_name (strata_trace_get_file (trace));

  g_print ("%s: %s\n", label, location);
}

static void
print_totals (const Diff *diff)
{
  StrataComparison *comparison = diff->comparison;
  gboolean heap = strata_comparison_get_kind (comparison) == STRATA_COMPARISON_HEAP;
  StrataFigure figure = strata_comparison_get_whole_figure (comparison);
  gint64 before = strata_comparison_get_total (comparison, STRATA_SIDE_BASELINE, figure, diff->clock);
  gint64 after = strata_comparison_get_total (comparison, STRATA_SIDE_CURRENT, figure, diff->clock);
  g_autofree char *before_text = strata_comparison_format_value (comparison, figure, diff->clock, before, FALSE, TRUE);
  g_autofree char *after_text = strata_comparison_format_value (comparison, figure, diff->clock, after, FALSE, TRUE);
  g_autofree char *delta = strata_comparison_format_value (comparison, figure, diff->clock, after - before, TRUE, TRUE);

  if (!heap)
    {
      StrataTrace *trace = strata_comparison_get_trace (comparison, STRATA_SIDE_CURRENT);
      guint clock = strata_comparison_get_clock (comparison, STRATA_SIDE_CURRENT, diff->clock);
      g_print (_("Clock: %s; traced %s, then %s (%s)\n"), strata_trace_get_clock_name (trace, clock),
               before_text, after_text, delta);
    }
  else
    g_print (_("Heap: %s, then %s (%s)\n"), before_text, after_text, delta);
}

static void
print_counts (const Diff *diff)
{
  StrataComparison *comparison = diff->comparison;
  guint counts[STRATA_N_ROW_STATUSES];

  strata_comparison_count_rows (comparison, counts);
  g_print (strata_comparison_get_kind (comparison) == STRATA_COMPARISON_HEAP
             ? _("Classes: %u in both, %u added, %u removed\n")
             : _("Methods: %u in both, %u added, %u removed\n"),
           counts[STRATA_ROW_IN_BOTH], counts[STRATA_ROW_ADDED], counts[STRATA_ROW_REMOVED]);
  if (diff->n_moved > 0)
    /* Translators: two counts of class objects */
    g_print (_("Object ids moved between the dumps (%u of %u class objects have new ones): a moving collector ran, "
               "so objects are compared by their counts per class, not told apart by id.\n"),
             diff->n_moved, diff->n_compared);
}

static const char *
figure_title (StrataFigure figure)
{
  switch (figure)
    {
    case STRATA_FIGURE_INCLUSIVE: return _("Δ Incl");
    case STRATA_FIGURE_EXCLUSIVE: return _("Δ Excl");
    case STRATA_FIGURE_CALLS: return _("Δ Calls");
    case STRATA_FIGURE_INSTANCES: return _("Δ Instances");
    case STRATA_FIGURE_SHALLOW: return _("Δ Shallow");
    case STRATA_FIGURE_RETAINED: return _("Δ Retained");
    case STRATA_N_FIGURES:
    default: return "";
    }
}

static void
print_row (const Diff *diff,
           guint       row)
{
  StrataComparison *comparison = diff->comparison;
  guint n;
  const StrataFigure *figures = strata_comparison_get_figures (comparison, &n);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *delta = NULL;
      g_autofree char *change = NULL;

      if (!strata_comparison_has_figure (comparison, figures[i]))
        continue;
      delta = strata_comparison_format_value (comparison, figures[i], diff->clock,
                                              strata_comparison_get_delta (comparison, row, figures[i], diff->clock),
                                              TRUE, TRUE);
      change = strata_comparison_format_change (comparison, row, figures[i], diff->clock);
      print_right (delta, 18);
      print_right (change, 9);
    }
  g_print (" %s\n", strata_comparison_get_row (comparison, row)->name);
}

static void
print_header_row (StrataComparison *comparison)
{
  guint n;
  const StrataFigure *figures = strata_comparison_get_figures (comparison, &n);

  g_print ("\n");
  for (guint i = 0; i < n; i++)
    if (strata_comparison_has_figure (comparison, figures[i]))
      {
        print_right (figure_title (figures[i]), 18);
        print_right ("%", 9);
      }
  g_print (" %s\n", strata_comparison_get_kind (comparison) == STRATA_COMPARISON_HEAP ? _("Class") : _("Name"));
}

static void
print_rows (const Diff *diff)
{
  StrataComparison *comparison = diff->comparison;
  g_autofree guint *order = strata_comparison_sort (comparison, strata_comparison_get_leading_figure (comparison), diff->clock);
  guint limit = diff->top < 0 ? 20 : (guint) diff->top;
  guint shown = 0;

  print_header_row (comparison);
  for (guint i = 0; i < strata_comparison_get_n_rows (comparison) && shown < limit; i++)
    if (row_changed (comparison, order[i], diff->clock))
      {
        print_row (diff, order[i]);
        shown++;
      }
  if (shown == 0)
    g_print ("  %s\n", _("no differences"));
}

static GArray *
rows_breaking (const Diff     *diff,
               StrataGateRule *rule)
{
  StrataComparison *comparison = diff->comparison;
  g_autofree guint *order = strata_comparison_sort (comparison, strata_gate_rule_get_figure (rule), diff->clock);
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < strata_comparison_get_n_rows (comparison); i++)
    if (strata_gate_rule_is_broken_by (rule, comparison, diff->clock, order[i]))
      g_array_append_val (rows, order[i]);
  return rows;
}

static gboolean
print_rules (const Diff *diff)
{
  gboolean broken = FALSE;

  if (diff->rules->len == 0)
    return FALSE;
  g_print ("\n%s\n", _("Rules"));
  for (guint i = 0; i < diff->rules->len; i++)
    {
      StrataGateRule *rule = g_ptr_array_index (diff->rules, i);
      g_autoptr(GArray) rows = rows_breaking (diff, rule);

      if (rows->len == 0)
        {
          g_print ("  %s: %s\n", strata_gate_rule_get_text (rule), _("kept"));
          continue;
        }
      broken = TRUE;
      g_print ("  %s: ", strata_gate_rule_get_text (rule));
      g_print (g_dngettext (GETTEXT_PACKAGE, "broken by %u row", "broken by %u rows", rows->len), rows->len);
      g_print ("\n");
      print_header_row (diff->comparison);
      for (guint r = 0; r < rows->len; r++)
        print_row (diff, g_array_index (rows, guint, r));
    }
  return broken;
}

static gboolean
print_diff_text (const Diff *diff)
{
  StrataComparison *comparison = diff->comparison;

  print_file_line (_("Baseline"), strata_comparison_get_trace (comparison, STRATA_SIDE_BASELINE));
  print_file_line (_("Current"), strata_comparison_get_trace (comparison, STRATA_SIDE_CURRENT));
  print_totals (diff);
  print_counts (diff);
  print_rows (diff);
  return print_rules (diff);
}

static void
write_json_figures (StrataJsonWriter *json,
                    const Diff       *diff,
                    guint             row)
{
  StrataComparison *comparison = diff->comparison;
  guint n;
  const StrataFigure *figures = strata_comparison_get_figures (comparison, &n);

  for (guint i = 0; i < n; i++)
    {
      if (!strata_comparison_has_figure (comparison, figures[i]))
        continue;
      strata_json_writer_member (json, strata_figure_get_id (figures[i]));
      strata_json_writer_begin_object (json);
      for (StrataSide side = STRATA_SIDE_BASELINE; side <= STRATA_SIDE_CURRENT; side++)
        {
          strata_json_writer_member (json, strata_side_get_id (side));
          strata_json_writer_int (json, strata_comparison_get_value (comparison, row, side, figures[i], diff->clock));
        }
      strata_json_writer_member (json, "delta");
      strata_json_writer_int (json, strata_comparison_get_delta (comparison, row, figures[i], diff->clock));
      strata_json_writer_end_object (json);
    }
}

static void
write_json_row (StrataJsonWriter *json,
                const Diff       *diff,
                guint             row)
{
  const StrataComparisonRow *item = strata_comparison_get_row (diff->comparison, row);

  strata_json_writer_begin_object (json);
  strata_json_writer_member (json, "name");
  strata_json_writer_string (json, item->name);
  strata_json_writer_member (json, "status");
  strata_json_writer_string (json, strata_row_status_get_id (strata_comparison_row_status (item)));
  write_json_figures (json, diff, row);
  /* Objects whose ids the baseline lacks: made since, in one process. */
  if (diff->new_objects != NULL && strata_comparison_row_status (item) != STRATA_ROW_REMOVED)
    {
      strata_json_writer_member (json, "new_instances");
      strata_json_writer_uint (json, diff->new_objects[row]);
    }
  strata_json_writer_end_object (json);
}

static void
write_json_rows (StrataJsonWriter *json,
                 const Diff       *diff)
{
  StrataComparison *comparison = diff->comparison;
  g_autofree guint *order = strata_comparison_sort (comparison, strata_comparison_get_leading_figure (comparison), diff->clock);
  guint shown = 0;

  strata_json_writer_member (json, strata_comparison_get_kind (comparison) == STRATA_COMPARISON_HEAP ? "classes" : "methods");
  strata_json_writer_begin_array (json);
  for (guint i = 0; i < strata_comparison_get_n_rows (comparison); i++)
    if (diff->top < 0 || shown < (guint) diff->top)
      {
        write_json_row (json, diff, order[i]);
        shown++;
      }
  strata_json_writer_end_array (json);
}

static gboolean
write_json_rules (StrataJsonWriter *json,
                  const Diff       *diff)
{
  gboolean broken = FALSE;

  strata_json_writer_member (json, "rules");
  strata_json_writer_begin_array (json);
  for (guint i = 0; i < diff->rules->len; i++)
    {
      StrataGateRule *rule = g_ptr_array_index (diff->rules, i);
      g_autoptr(GArray) rows = rows_breaking (diff, rule);

      broken |= rows->len > 0;
      strata_json_writer_begin_object (json);
      strata_json_writer_member (json, "rule");
      strata_json_writer_string (json, strata_gate_rule_get_text (rule));
      strata_json_writer_member (json, "broken");
      strata_json_writer_boolean (json, rows->len > 0);
      strata_json_writer_member (json, "rows");
      strata_json_writer_begin_array (json);
      for (guint r = 0; r < rows->len; r++)
        strata_json_writer_string (json, strata_comparison_get_row (diff->comparison, g_array_index (rows, guint, r))->name);
      strata_json_writer_end_array (json);
      strata_json_writer_end_object (json);
    }
  strata_json_writer_end_array (json);
  return broken;
}

static void
write_json_side (StrataJsonWriter *json,
                 const Diff       *diff,
                 StrataSide        side)
{
  StrataComparison *comparison = diff->comparison;
  StrataTrace *trace = strata_comparison_get_trace (comparison, side);
  g_autofree char *location = g_file_get_parse_name (strata_trace_get_file (trace));
  StrataFigure figure = strata_comparison_get_whole_figure (comparison);

  strata_json_writer_member (json, side == STRATA_SIDE_BASELINE ? "baseline" : "current");
  strata_json_writer_begin_object (json);
  strata_json_writer_member (json, "file");
  strata_json_writer_string (json, location);
  strata_json_writer_member (json, "total");
  strata_json_writer_int (json, strata_comparison_get_total (comparison, side, figure, diff->clock));
  strata_json_writer_end_object (json);
}

static gboolean
print_diff_json (const Diff  *diff,
                 gboolean    *broken,
                 GError     **error)
{
  g_autoptr(GOutputStream) out = g_unix_output_stream_new (STDOUT_FILENO, FALSE);
  g_autoptr(StrataJsonWriter) json = strata_json_writer_new (out, 2);
  StrataComparison *comparison = diff->comparison;

  strata_json_writer_begin_object (json);
  write_json_side (json, diff, STRATA_SIDE_BASELINE);
  write_json_side (json, diff, STRATA_SIDE_CURRENT);
  if (strata_comparison_get_kind (comparison) == STRATA_COMPARISON_PROFILE)
    {
      StrataTrace *trace = strata_comparison_get_trace (comparison, STRATA_SIDE_CURRENT);
      strata_json_writer_member (json, "clock");
      strata_json_writer_string (json, strata_report_clock_id (trace, strata_comparison_get_clock (comparison, STRATA_SIDE_CURRENT, diff->clock)));
    }
  if (strata_comparison_get_kind (comparison) == STRATA_COMPARISON_HEAP)
    {
      /* Whether "new_instances" could be found by object id. */
      strata_json_writer_member (json, "object_ids");
      strata_json_writer_begin_object (json);
      strata_json_writer_member (json, "stable");
      strata_json_writer_boolean (json, diff->n_moved == 0);
      strata_json_writer_member (json, "class_objects_moved");
      strata_json_writer_uint (json, diff->n_moved);
      strata_json_writer_member (json, "class_objects_compared");
      strata_json_writer_uint (json, diff->n_compared);
      strata_json_writer_end_object (json);
    }
  write_json_rows (json, diff);
  *broken = write_json_rules (json, diff);
  strata_json_writer_end_object (json);
  return strata_json_writer_finish (json, error);
}

/* The comparison's clock for the --clock asked: wall time, as the window
 * opens on, unless thread CPU was asked for. */
static guint
choose_diff_clock (StrataComparison *comparison,
                   StrataClockKind   wanted)
{
  StrataTrace *trace = strata_comparison_get_trace (comparison, STRATA_SIDE_CURRENT);

  for (guint c = 0; c < strata_comparison_get_n_clocks (comparison); c++)
    if (strata_trace_get_clock_kind (trace, strata_comparison_get_clock (comparison, STRATA_SIDE_CURRENT, c)) == wanted)
      return c;
  return 0;
}

static gboolean
check_rules (const Diff *diff)
{
  for (guint i = 0; i < diff->rules->len; i++)
    {
      g_autoptr(GError) error = NULL;

      if (!strata_gate_rule_applies_to (g_ptr_array_index (diff->rules, i), diff->comparison, diff->clock, &error))
        {
          g_printerr ("strata: %s\n", error->message);
          return FALSE;
        }
    }
  return TRUE;
}

/**
 * strata_report_parse_rules:
 *
 * Returns: (transfer full): the rules of --fail-if, or %NULL after saying
 *   which cannot be read
 */
GPtrArray *
strata_report_parse_rules (char **texts)
{
  g_autoptr(GPtrArray) rules = g_ptr_array_new_with_free_func ((GDestroyNotify) strata_gate_rule_free);

  for (guint i = 0; texts != NULL && texts[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      StrataGateRule *rule = strata_gate_rule_parse (texts[i], &error);

      if (rule == NULL)
        {
          g_printerr ("strata: %s\n", error->message);
          return NULL;
        }
      g_ptr_array_add (rules, rule);
    }
  return g_steal_pointer (&rules);
}

/**
 * strata_report_diff:
 *
 * Returns: the exit status: 0, 1 when a file does not load or the two
 *   cannot be compared, 2 for a rule that does not fit, 3 when a rule is
 *   broken
 */
int
strata_report_diff (const StrataReportDiffOptions *options)
{
  Side sides[2] = {
    { g_file_new_for_commandline_arg (options->baseline), options->follow_weak, options->baseline_mapping, NULL, NULL, NULL },
    { g_file_new_for_commandline_arg (options->current), options->follow_weak, options->mapping, NULL, NULL, NULL },
  };
  g_autoptr(StrataComparison) comparison = NULL;
  g_autoptr(GError) error = NULL;
  gboolean broken = FALSE;
  int status = EXIT_SUCCESS;
  Diff diff = { NULL, 0, options->rules, options->top, NULL, 0, 0 };

  if (!load_both (sides))
    status = EXIT_LOAD_FAILED;
  else if (!(comparison = strata_comparison_new (sides[0].profile, sides[1].profile, options->match, &error)))
    {
      g_printerr ("strata: %s\n", error->message);
      status = EXIT_LOAD_FAILED;
    }
  else
    {
      diff.comparison = comparison;
      diff.clock = choose_diff_clock (comparison, options->cpu ? STRATA_CLOCK_THREAD_CPU : STRATA_CLOCK_WALL);
      diff.n_moved = strata_comparison_count_moved_classes (comparison, &diff.n_compared);
      /* New instances are told by id only while ids stayed. */
      diff.new_objects = options->json && diff.n_moved == 0 ? strata_comparison_count_new_objects (comparison) : NULL;
      if (!check_rules (&diff))
        status = EXIT_USAGE;
      else if (!options->json)
        broken = print_diff_text (&diff);
      else if (!print_diff_json (&diff, &broken, &error))
        {
          g_printerr ("strata: %s\n", error->message);
          status = EXIT_LOAD_FAILED;
        }
    }

  g_free (diff.new_objects);
  for (guint i = 0; i < 2; i++)
    {
      g_object_unref (sides[i].file);
      g_clear_object (&sides[i].profile);
      g_clear_error (&sides[i].error);
    }
  return status == EXIT_SUCCESS && broken ? EXIT_GATE_BROKEN : status;
}
