/* strata-comparison.c: two profiles or two heap dumps, method by method
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "strata-comparison.h"
#include "strata-hprof-index.h"
#include "strata-string-pool.h"
#include "strata-units.h"

struct _StrataComparison
{
  GObject               parent_instance;
  StrataComparisonKind  kind;
  StrataMatchMode       match;
  StrataTrace          *trace[2];
  StrataProfile        *profile[2];
  guint                 n_clocks;
  guint                 clock[2][STRATA_MAX_CLOCKS];  /* each side's clock for ours */
  gboolean              has_retained;
  GArray               *rows;                         /* StrataComparisonRow */
  GHashTable           *by_name;                      /* name → row + 1 */
  guint32              *row_of[2];                    /* method or class → row */
  guint                 n_indices[2];
  gint64                total[2][STRATA_COMPARISON_SLOTS];
  GStringChunk         *names;
};

G_DEFINE_FINAL_TYPE (StrataComparison, strata_comparison, G_TYPE_OBJECT)

/* What rows show, in order, for each kind. */
static const StrataFigure profile_figures[] = {
  STRATA_FIGURE_INCLUSIVE, STRATA_FIGURE_EXCLUSIVE, STRATA_FIGURE_CALLS,
};
static const StrataFigure heap_figures[] = {
  STRATA_FIGURE_RETAINED, STRATA_FIGURE_SHALLOW, STRATA_FIGURE_INSTANCES,
};

static const char *const figure_ids[STRATA_N_FIGURES] = {
  "incl", "excl", "calls", "instances", "shallow", "retained",
};

static void
strata_comparison_finalize (GObject *object)
{
  StrataComparison *self = STRATA_COMPARISON (object);

  for (guint side = 0; side < 2; side++)
    {
      g_clear_object (&self->trace[side]);
      g_clear_object (&self->profile[side]);
      g_free (self->row_of[side]);
    }
  g_array_unref (self->rows);
  g_hash_table_unref (self->by_name);
  g_string_chunk_free (self->names);

  G_OBJECT_CLASS (strata_comparison_parent_class)->finalize (object);
}

static void
strata_comparison_class_init (StrataComparisonClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strata_comparison_finalize;
}

static void
strata_comparison_init (StrataComparison *self)
{
  self->rows = g_array_new (FALSE, TRUE, sizeof (StrataComparisonRow));
  self->by_name = g_hash_table_new (g_str_hash, g_str_equal);
  self->names = g_string_chunk_new (64 * 1024);
}

/* Profile slots: inclusive per clock, exclusive per clock, then calls. */
static guint
slot_of (StrataFigure figure,
         guint        clock)
{
  switch (figure)
    {
    case STRATA_FIGURE_INCLUSIVE: return clock;
    case STRATA_FIGURE_EXCLUSIVE: return STRATA_MAX_CLOCKS + clock;
    case STRATA_FIGURE_CALLS: return 2 * STRATA_MAX_CLOCKS;
    case STRATA_FIGURE_INSTANCES: return 0;
    case STRATA_FIGURE_SHALLOW: return 1;
    case STRATA_FIGURE_RETAINED: return 2;
    case STRATA_N_FIGURES:
    default: g_return_val_if_reached (0);
    }
}

static guint
row_for_name (StrataComparison *self,
              const char       *name,
              gsize             length)
{
  g_autofree char *key = g_strndup (name, length);
  gpointer found = g_hash_table_lookup (self->by_name, key);
  StrataComparisonRow row = { 0 };

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;

  row.name = g_string_chunk_insert_const (self->names, key);
  row.index[0] = row.index[1] = STRATA_COMPARISON_ABSENT;
  g_array_append_val (self->rows, row);
  g_hash_table_insert (self->by_name, (char *) row.name, GUINT_TO_POINTER (self->rows->len));
  return self->rows->len - 1;
}

/* By name alone, "pkg.Class.method (I)V" is matched as "pkg.Class.method". */
static gsize
method_key_length (StrataTrace     *trace,
                   guint32          method,
                   StrataMatchMode  match)
{
  const char *name = strata_trace_get_method_name (trace, method);
  const char *signature;

  if (match == STRATA_MATCH_NAME && strata_trace_get_method (trace, method)->signature != 0 &&
      (signature = strstr (name, " (")) != NULL)
    return signature - name;
  return strlen (name);
}

static void
add_method (StrataComparison *self,
            StrataSide        side,
            guint32           method)
{
  StrataTrace *trace = self->trace[side];
  const StrataProfileEntry *entry = strata_profile_get_entry (self->profile[side], method);
  const char *name = strata_trace_get_method_name (trace, method);
  guint r = row_for_name (self, name, method_key_length (trace, method, self->match));
  StrataComparisonRow *row = &g_array_index (self->rows, StrataComparisonRow, r);
  gint64 *value = row->value[side];

  row->index[side] = row->index[side] == STRATA_COMPARISON_ABSENT ? method : row->index[side];
  self->row_of[side][method] = r;
  for (guint c = 0; c < self->n_clocks; c++)
    {
      guint clock = self->clock[side][c];
      value[slot_of (STRATA_FIGURE_INCLUSIVE, c)] += entry->inclusive[clock];
      value[slot_of (STRATA_FIGURE_EXCLUSIVE, c)] += entry->exclusive[clock];
    }
  value[slot_of (STRATA_FIGURE_CALLS, 0)] += entry->calls + entry->recursive_calls;
}

static void
add_class (StrataComparison *self,
           StrataSide        side,
           guint             index)
{
  const StrataHeap *heap = strata_trace_get_heap (self->trace[side]);
  const StrataHeapClass *klass = strata_heap_get_class (heap, index);
  const char *name = strata_trace_get_string (self->trace[side], klass->name);
  guint r = row_for_name (self, name, strlen (name));
  StrataComparisonRow *row = &g_array_index (self->rows, StrataComparisonRow, r);
  gint64 *value = row->value[side];

  row->index[side] = row->index[side] == STRATA_COMPARISON_ABSENT ? index : row->index[side];
  self->row_of[side][index] = r;
  value[slot_of (STRATA_FIGURE_INSTANCES, 0)] += klass->instances;
  value[slot_of (STRATA_FIGURE_SHALLOW, 0)] += klass->shallow_bytes;
  value[slot_of (STRATA_FIGURE_RETAINED, 0)] += klass->retained_bytes;
}

static gboolean
is_called (StrataProfile *profile,
           guint32        method)
{
  const StrataProfileEntry *entry = strata_profile_get_entry (profile, method);

  return entry->calls + entry->recursive_calls > 0;
}

static void
add_side (StrataComparison *self,
          StrataSide        side)
{
  StrataTrace *trace = self->trace[side];
  guint n = self->kind == STRATA_COMPARISON_HEAP ? strata_heap_get_n_classes (strata_trace_get_heap (trace))
                                                 : strata_trace_get_n_methods (trace);

  self->n_indices[side] = n;
  self->row_of[side] = g_new (guint32, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      self->row_of[side][i] = STRATA_COMPARISON_ABSENT;
      if (self->kind == STRATA_COMPARISON_HEAP)
        add_class (self, side, i);
      /* A method in the key but never called is not in the profile. */
      else if (is_called (self->profile[side], i))
        add_method (self, side, i);
    }
}

static void
sum_totals (StrataComparison *self)
{
  for (guint side = 0; side < 2; side++)
    {
      for (guint r = 0; r < self->rows->len; r++)
        for (guint s = 0; s < STRATA_COMPARISON_SLOTS; s++)
          self->total[side][s] += g_array_index (self->rows, StrataComparisonRow, r).value[side][s];
      /* Inclusive times overlap; the whole is what the trace traced. */
      if (self->kind == STRATA_COMPARISON_PROFILE)
        for (guint c = 0; c < self->n_clocks; c++)
          self->total[side][slot_of (STRATA_FIGURE_INCLUSIVE, c)] =
            strata_profile_get_total (self->profile[side], self->clock[side][c]);
    }
}

static gboolean
choose_kind (StrataComparison  *self,
             GError           **error)
{
  gboolean heap[2] = { strata_trace_is_heap_only (self->trace[0]), strata_trace_is_heap_only (self->trace[1]) };

  if (heap[0] != heap[1])
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                           _("A heap dump can only be compared with another heap dump, and a trace with another trace"));
      return FALSE;
    }
  self->kind = heap[0] ? STRATA_COMPARISON_HEAP : STRATA_COMPARISON_PROFILE;
  if (self->kind == STRATA_COMPARISON_HEAP)
    self->has_retained = strata_heap_get_graph (strata_trace_get_heap (self->trace[0])) != NULL &&
                         strata_heap_get_graph (strata_trace_get_heap (self->trace[1])) != NULL;
  return TRUE;
}

/* Clocks are paired by kind: thread CPU with thread CPU, wall with wall. */
static gboolean
pair_clocks (StrataComparison  *self,
             GError           **error)
{
  StrataTrace *baseline = self->trace[STRATA_SIDE_BASELINE];
  StrataTrace *current = self->trace[STRATA_SIDE_CURRENT];

  for (guint c = 0; c < strata_trace_get_n_clocks (current); c++)
    for (guint b = 0; b < strata_trace_get_n_clocks (baseline); b++)
      if (strata_trace_get_clock_kind (current, c) == strata_trace_get_clock_kind (baseline, b))
        {
          self->clock[STRATA_SIDE_CURRENT][self->n_clocks] = c;
          self->clock[STRATA_SIDE_BASELINE][self->n_clocks++] = b;
          break;
        }
  if (self->n_clocks > 0 || self->kind == STRATA_COMPARISON_HEAP)
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
               _("The two files share no clock: one is timed on %s, the other on %s"),
               strata_trace_get_clock_name (baseline, 0), strata_trace_get_clock_name (current, 0));
  return FALSE;
}

/**
 * strata_comparison_check:
 *
 * Returns: whether the two traces can be compared: two heap dumps, or two
 *   traces with calls on a clock of the same kind; %FALSE with @error
 *   saying why not
 */
gboolean
strata_comparison_check (StrataTrace  *baseline,
                         StrataTrace  *current,
                         GError      **error)
{
  g_autoptr(StrataComparison) probe = g_object_new (STRATA_TYPE_COMPARISON, NULL);

  probe->trace[STRATA_SIDE_BASELINE] = g_object_ref (baseline);
  probe->trace[STRATA_SIDE_CURRENT] = g_object_ref (current);
  return choose_kind (probe, error) && pair_clocks (probe, error);
}

/**
 * strata_comparison_new:
 * @baseline: the profile before (of the whole trace, all threads)
 * @current: the profile after
 *
 * Returns: (transfer full): the comparison, or %NULL when the two cannot
 *   be compared (a heap dump with a method trace, no clock in common)
 */
StrataComparison *
strata_comparison_new (StrataProfile    *baseline,
                       StrataProfile    *current,
                       StrataMatchMode   match,
                       GError          **error)
{
  g_autoptr(StrataComparison) self = g_object_new (STRATA_TYPE_COMPARISON, NULL);

  g_return_val_if_fail (STRATA_IS_PROFILE (baseline) && STRATA_IS_PROFILE (current), NULL);

  self->match = match;
  self->profile[STRATA_SIDE_BASELINE] = g_object_ref (baseline);
  self->profile[STRATA_SIDE_CURRENT] = g_object_ref (current);
  for (guint side = 0; side < 2; side++)
    self->trace[side] = g_object_ref (strata_profile_get_trace (self->profile[side]));
  if (!choose_kind (self, error) || !pair_clocks (self, error))
    return NULL;
  add_side (self, STRATA_SIDE_BASELINE);
  add_side (self, STRATA_SIDE_CURRENT);
  sum_totals (self);
  return g_steal_pointer (&self);
}

StrataComparisonKind
strata_comparison_get_kind (StrataComparison *self)
{
  g_return_val_if_fail (STRATA_IS_COMPARISON (self), STRATA_COMPARISON_PROFILE);

  return self->kind;
}

StrataMatchMode
strata_comparison_get_match (StrataComparison *self)
{
  g_return_val_if_fail (STRATA_IS_COMPARISON (self), STRATA_MATCH_SIGNATURE);

  return self->match;
}

StrataTrace *
strata_comparison_get_trace (StrataComparison *self,
                             StrataSide        side)
{
  g_return_val_if_fail (STRATA_IS_COMPARISON (self) && side <= STRATA_SIDE_CURRENT, NULL);

  return self->trace[side];
}

guint
strata_comparison_get_n_clocks (StrataComparison *self)
{
  g_return_val_if_fail (STRATA_IS_COMPARISON (self), 0);

  return self->n_clocks;
}

/* The clock of @side's trace that the comparison's @clock stands for. */
guint
strata_comparison_get_clock (StrataComparison *self,
                             StrataSide        side,
                             guint             clock)
{
  g_return_val_if_fail (STRATA_IS_COMPARISON (self) && side <= STRATA_SIDE_CURRENT, 0);
  g_return_val_if_fail (clock < MAX (self->n_clocks, 1), 0);

  return self->clock[side][clock];
}

guint
strata_comparison_get_n_rows (StrataComparison *self)
{
  g_return_val_if_fail (STRATA_IS_COMPARISON (self), 0);

  return self->rows->len;
}

const StrataComparisonRow *
strata_comparison_get_row (StrataComparison *self,
                           guint             row)
{
  g_return_val_if_fail (STRATA_IS_COMPARISON (self) && row < self->rows->len, NULL);

  return &g_array_index (self->rows, StrataComparisonRow, row);
}

/**
 * strata_comparison_find_row:
 * @index: a method (profiles) or class (heap dumps) of @side's trace
 *
 * Returns: its row, or %STRATA_COMPARISON_ABSENT
 */
guint
strata_comparison_find_row (StrataComparison *self,
                            StrataSide        side,
                            guint32           index)
{
  g_return_val_if_fail (STRATA_IS_COMPARISON (self) && side <= STRATA_SIDE_CURRENT, STRATA_COMPARISON_ABSENT);

  return index < self->n_indices[side] ? self->row_of[side][index] : STRATA_COMPARISON_ABSENT;
}

gboolean
strata_comparison_has_figure (StrataComparison *self,
                              StrataFigure      figure)
{
  g_return_val_if_fail (STRATA_IS_COMPARISON (self), FALSE);

  if (self->kind == STRATA_COMPARISON_PROFILE)
    return figure <= STRATA_FIGURE_CALLS;
  if (figure == STRATA_FIGURE_RETAINED)
    return self->has_retained;
  return figure >= STRATA_FIGURE_INSTANCES && figure < STRATA_N_FIGURES;
}

/**
 * strata_comparison_get_figures:
 * @n_figures: (out): how many
 *
 * Returns: the figures of the comparison's kind, in the order they are
 *   shown: inclusive, exclusive and calls, or retained, shallow and
 *   instances; a figure the files lack (strata_comparison_has_figure())
 *   is among them
 */
const StrataFigure *
strata_comparison_get_figures (StrataComparison *self,
                               guint            *n_figures)
{
  gboolean heap = strata_comparison_get_kind (self) == STRATA_COMPARISON_HEAP;

  *n_figures = heap ? G_N_ELEMENTS (heap_figures) : G_N_ELEMENTS (profile_figures);
  return heap ? heap_figures : profile_figures;
}

/* The figure rows are ordered by at first: the first the files have
 * (inclusive time; retained bytes, or shallow without a graph). */
StrataFigure
strata_comparison_get_leading_figure (StrataComparison *self)
{
  guint n;
  const StrataFigure *figures = strata_comparison_get_figures (self, &n);

  for (guint i = 0; i < n; i++)
    if (strata_comparison_has_figure (self, figures[i]))
      return figures[i];
  return figures[0];
}

/* The figure whose total is a side's whole: the traced time, or the
 * heap's shallow bytes (classes' retained sizes overlap). */
StrataFigure
strata_comparison_get_whole_figure (StrataComparison *self)
{
  return strata_comparison_get_kind (self) == STRATA_COMPARISON_HEAP ? STRATA_FIGURE_SHALLOW : STRATA_FIGURE_INCLUSIVE;
}

gint64
strata_comparison_get_value (StrataComparison *self,
                             guint             row,
                             StrataSide        side,
                             StrataFigure      figure,
                             guint             clock)
{
  g_return_val_if_fail (STRATA_IS_COMPARISON (self) && row < self->rows->len, 0);
  g_return_val_if_fail (side <= STRATA_SIDE_CURRENT && clock < STRATA_MAX_CLOCKS, 0);

  return g_array_index (self->rows, StrataComparisonRow, row).value[side][slot_of (figure, clock)];
}

gint64
strata_comparison_get_delta (StrataComparison *self,
                             guint             row,
                             StrataFigure      figure,
                             guint             clock)
{
  return strata_comparison_get_value (self, row, STRATA_SIDE_CURRENT, figure, clock) -
         strata_comparison_get_value (self, row, STRATA_SIDE_BASELINE, figure, clock);
}

/**
 * strata_comparison_get_change:
 *
 * Returns: the delta as a fraction of the baseline: 0.1 for 10% more;
 *   infinite when the baseline had none and the current has some, NaN
 *   when both have none
 */
double
strata_comparison_get_change (StrataComparison *self,
                              guint             row,
                              StrataFigure      figure,
                              guint             clock)
{
  gint64 before = strata_comparison_get_value (self, row, STRATA_SIDE_BASELINE, figure, clock);
  gint64 delta = strata_comparison_get_delta (self, row, figure, clock);

  if (before == 0)
    return delta == 0 ? NAN : delta > 0 ? INFINITY : -INFINITY;
  return (double) delta / (double) before;
}

/* A side's whole: what the trace traced for inclusive time, otherwise the
 * sum over its rows. */
gint64
strata_comparison_get_total (StrataComparison *self,
                             StrataSide        side,
                             StrataFigure      figure,
                             guint             clock)
{
  g_return_val_if_fail (STRATA_IS_COMPARISON (self) && side <= STRATA_SIDE_CURRENT, 0);
  g_return_val_if_fail (clock < STRATA_MAX_CLOCKS, 0);

  return self->total[side][slot_of (figure, clock)];
}

typedef struct
{
  gint64 magnitude;
  guint  row;
} SortKey;

static int
compare_keys (gconstpointer a,
              gconstpointer b)
{
  const SortKey *ka = a, *kb = b;

  if (ka->magnitude != kb->magnitude)
    return ka->magnitude > kb->magnitude ? -1 : 1;
  return ka->row < kb->row ? -1 : ka->row > kb->row;
}

/**
 * strata_comparison_sort:
 *
 * Returns: (transfer full): every row, the largest change of @figure first
 *   (by its size, growth or shrinkage alike)
 */
guint *
strata_comparison_sort (StrataComparison *self,
                        StrataFigure      figure,
                        guint             clock)
{
  guint n = self->rows->len;
  g_autofree SortKey *keys = g_new (SortKey, MAX (n, 1));
  guint *rows = g_new (guint, MAX (n, 1));

  for (guint r = 0; r < n; r++)
    {
      gint64 delta = strata_comparison_get_delta (self, r, figure, clock);
      keys[r] = (SortKey) { delta < 0 ? -delta : delta, r };
    }
  qsort (keys, n, sizeof *keys, compare_keys);
  for (guint r = 0; r < n; r++)
    rows[r] = keys[r].row;
  return rows;
}

const char *
strata_figure_get_id (StrataFigure figure)
{
  g_return_val_if_fail (figure < STRATA_N_FIGURES, "");

  return figure_ids[figure];
}

gboolean
strata_figure_from_id (const char   *id,
                       StrataFigure *figure)
{
  for (guint f = 0; f < STRATA_N_FIGURES; f++)
    if (g_str_equal (id, figure_ids[f]))
      {
        *figure = f;
        return TRUE;
      }
  return FALSE;
}

StrataFigureUnit
strata_figure_get_unit (StrataFigure figure)
{
  switch (figure)
    {
    case STRATA_FIGURE_INCLUSIVE:
    case STRATA_FIGURE_EXCLUSIVE:
      return STRATA_UNIT_TIME;
    case STRATA_FIGURE_SHALLOW:
    case STRATA_FIGURE_RETAINED:
      return STRATA_UNIT_BYTES;
    case STRATA_FIGURE_CALLS:
    case STRATA_FIGURE_INSTANCES:
    case STRATA_N_FIGURES:
    default:
      return STRATA_UNIT_COUNT;
    }
}

const char *
strata_side_get_id (StrataSide side)
{
  return side == STRATA_SIDE_BASELINE ? "before" : "after";
}

StrataRowStatus
strata_comparison_row_status (const StrataComparisonRow *row)
{
  if (row->index[STRATA_SIDE_BASELINE] == STRATA_COMPARISON_ABSENT)
    return STRATA_ROW_ADDED;
  if (row->index[STRATA_SIDE_CURRENT] == STRATA_COMPARISON_ABSENT)
    return STRATA_ROW_REMOVED;
  return STRATA_ROW_IN_BOTH;
}

/* @counts: how many rows are in both, added and removed, by status */
void
strata_comparison_count_rows (StrataComparison *self,
                              guint             counts[STRATA_N_ROW_STATUSES])
{
  memset (counts, 0, STRATA_N_ROW_STATUSES * sizeof (guint));
  for (guint r = 0; r < self->rows->len; r++)
    counts[strata_comparison_row_status (&g_array_index (self->rows, StrataComparisonRow, r))]++;
}

const char *
strata_row_status_get_id (StrataRowStatus status)
{
  return status == STRATA_ROW_ADDED ? "added" : status == STRATA_ROW_REMOVED ? "removed" : "both";
}

/**
 * strata_comparison_format_value:
 * @signed_: write a sign, as for a delta
 * @exact: every digit (reports) rather than a few (tables)
 *
 * Returns: (transfer full): @value of @figure as text: a time or sample
 *   count on @clock, bytes, or a count
 */
char *
strata_comparison_format_value (StrataComparison *self,
                                StrataFigure      figure,
                                guint             clock,
                                gint64            value,
                                gboolean          signed_,
                                gboolean          exact)
{
  /* ASCII signs: reports are read by scripts too. */
  const char *sign = !signed_ ? "" : value > 0 ? "+" : value < 0 ? "-" : "";
  guint64 size = value < 0 ? -(guint64) value : (guint64) value;
  g_autofree char *text = NULL;

  switch (strata_figure_get_unit (figure))
    {
    case STRATA_UNIT_TIME:
      text = strata_trace_format_weight (self->trace[STRATA_SIDE_CURRENT],
                                         self->clock[STRATA_SIDE_CURRENT][clock], (gint64) size, exact);
      break;
    case STRATA_UNIT_BYTES:
      text = exact ? g_strdup_printf ("%" G_GUINT64_FORMAT " B", size)
                   : strata_units_format_quantity ((double) size, TRUE);
      break;
    case STRATA_UNIT_COUNT:
    default:
      text = exact ? g_strdup_printf ("%" G_GUINT64_FORMAT, size) : strata_units_format_count (size);
      break;
    }
  return g_strconcat (sign, text, NULL);
}

/**
 * strata_comparison_format_fraction:
 * @change: a change of @row as a fraction (0.1 for 10% more), however
 *   it was measured
 *
 * Returns: (transfer full): @change as "+12.5%"; "added" or "removed" for
 *   a row only one side has, "" when neither has any (NaN)
 */
char *
strata_comparison_format_fraction (StrataComparison *self,
                                   guint             row,
                                   double            change)
{
  StrataRowStatus status = strata_comparison_row_status (strata_comparison_get_row (self, row));

  if (status == STRATA_ROW_ADDED)
    /* Translators: a method or class only the second file has */
    return g_strdup (C_("comparison", "added"));
  if (status == STRATA_ROW_REMOVED)
    /* Translators: a method or class only the first file has */
    return g_strdup (C_("comparison", "removed"));
  if (isnan (change))
    return g_strdup ("");
  if (isinf (change))
    return g_strdup (change > 0 ? "+∞" : "-∞");
  /* Translators: a signed relative change, e.g. "+12.5%" */
  return g_strdup_printf (_("%s%.1f%%"), change > 0 ? "+" : change < 0 ? "-" : "", fabs (change) * 100.0);
}

/* Returns: (transfer full): the relative change of @figure on @row as text */
char *
strata_comparison_format_change (StrataComparison *self,
                                 guint             row,
                                 StrataFigure      figure,
                                 guint             clock)
{
  return strata_comparison_format_fraction (self, row, strata_comparison_get_change (self, row, figure, clock));
}

/**
 * strata_comparison_dup_new_objects:
 * @row: a heap class's row
 * @n_objects: (out): how many
 *
 * The current dump's instances of @row's class whose object ids the
 * baseline dump does not have: what was made between two dumps of one
 * process, whose ids stay put (objects a collector moved get new ids and
 * count as new).
 *
 * Returns: (transfer full): objects of the current dump's graph; empty
 *   without graphs
 */
guint32 *
strata_comparison_dup_new_objects (StrataComparison *self,
                                   guint             row,
                                   guint32          *n_objects)
{
  const StrataHeap *heap = strata_trace_get_heap (self->trace[STRATA_SIDE_CURRENT]);
  const StrataHeap *old_heap = strata_trace_get_heap (self->trace[STRATA_SIDE_BASELINE]);
  StrataHeapGraph *graph = heap != NULL ? strata_heap_get_graph (heap) : NULL;
  StrataHeapGraph *old_graph = old_heap != NULL ? strata_heap_get_graph (old_heap) : NULL;
  GArray *found = g_array_new (FALSE, FALSE, sizeof (guint32));

  g_return_val_if_fail (STRATA_IS_COMPARISON (self) && row < self->rows->len, NULL);

  for (guint klass = 0; graph != NULL && old_graph != NULL && self->kind == STRATA_COMPARISON_HEAP &&
                        klass < self->n_indices[STRATA_SIDE_CURRENT]; klass++)
    {
      g_autofree guint32 *instances = NULL;
      guint32 n;

      if (self->row_of[STRATA_SIDE_CURRENT][klass] != row)
        continue;
      instances = strata_heap_graph_list_instances (graph, klass, &n);
      for (guint32 i = 0; i < n; i++)
        if (strata_heap_graph_lookup (old_graph, strata_heap_graph_get_id (graph, instances[i])) == STRATA_HEAP_NO_OBJECT)
          g_array_append_val (found, instances[i]);
    }
  *n_objects = found->len;
  return (guint32 *) g_array_free (found, FALSE);
}

/**
 * strata_comparison_count_new_objects:
 *
 * strata_comparison_dup_new_objects() for every row at once, in one walk
 * over the current dump's objects.
 *
 * Returns: (transfer full) (nullable): per row, its new instances; %NULL
 *   unless both dumps have graphs
 */
guint32 *
strata_comparison_count_new_objects (StrataComparison *self)
{
  const StrataHeap *heap = strata_trace_get_heap (self->trace[STRATA_SIDE_CURRENT]);
  const StrataHeap *old_heap = strata_trace_get_heap (self->trace[STRATA_SIDE_BASELINE]);
  StrataHeapGraph *graph = heap != NULL ? strata_heap_get_graph (heap) : NULL;
  StrataHeapGraph *old_graph = old_heap != NULL ? strata_heap_get_graph (old_heap) : NULL;
  guint32 *counts;

  g_return_val_if_fail (STRATA_IS_COMPARISON (self), NULL);

  if (self->kind != STRATA_COMPARISON_HEAP || graph == NULL || old_graph == NULL)
    return NULL;
  counts = g_new0 (guint32, MAX (self->rows->len, 1));
  for (guint32 o = 0; o < strata_heap_graph_get_n_objects (graph); o++)
    {
      guint32 klass = strata_heap_graph_get_class (graph, o);

      if (klass < self->n_indices[STRATA_SIDE_CURRENT] && self->row_of[STRATA_SIDE_CURRENT][klass] != STRATA_COMPARISON_ABSENT &&
          strata_heap_graph_lookup (old_graph, strata_heap_graph_get_id (graph, o)) == STRATA_HEAP_NO_OBJECT)
        counts[self->row_of[STRATA_SIDE_CURRENT][klass]]++;
    }
  return counts;
}

/* A dump's class objects by their class's name: name -> id, 0 for a name
 * more than one class has (loaded by two loaders). */
static GHashTable *
class_object_ids (StrataTrace *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  StrataHeapGraph *graph = heap != NULL ? strata_heap_get_graph (heap) : NULL;
  GHashTable *ids = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint klass = 0; graph != NULL && klass < strata_heap_get_n_classes (heap); klass++)
    {
      g_autofree guint32 *objects = NULL;
      guint32 n;

      if (!g_str_equal (strata_trace_get_string (trace, strata_heap_get_class (heap, klass)->name), "java.lang.Class"))
        continue;
      objects = strata_heap_graph_list_instances (graph, klass, &n);
      for (guint32 i = 0; i < n; i++)
        {
          guint64 id = strata_heap_graph_get_id (graph, objects[i]);
          const char *name = strata_hprof_index_get_class_name (strata_heap_get_index (heap), trace, id);

          if (name != NULL)
            g_hash_table_insert (ids, (gpointer) name,
                                 g_hash_table_contains (ids, name) ? NULL : GSIZE_TO_POINTER ((gsize) id));
        }
    }
  return ids;
}

/**
 * strata_comparison_count_moved_classes:
 * @n_compared: (out): the classes whose objects both dumps have, by name
 *
 * Object ids are addresses. A moving collector that ran between two dumps
 * of one process gives the same objects new ones, and then no object can
 * be matched by its id: it shows in the class objects, which every dump
 * has and which the program did not make.
 *
 * Returns: how many of those class objects have another id in the current
 *   dump than in the baseline
 */
guint
strata_comparison_count_moved_classes (StrataComparison *self,
                                       guint            *n_compared)
{
  g_autoptr(GHashTable) before = NULL;
  g_autoptr(GHashTable) after = NULL;
  GHashTableIter iter;
  gpointer name, id;
  guint moved = 0;

  g_return_val_if_fail (STRATA_IS_COMPARISON (self), 0);

  *n_compared = 0;
  if (self->kind != STRATA_COMPARISON_HEAP)
    return 0;
  before = class_object_ids (self->trace[STRATA_SIDE_BASELINE]);
  after = class_object_ids (self->trace[STRATA_SIDE_CURRENT]);
  g_hash_table_iter_init (&iter, after);
  while (g_hash_table_iter_next (&iter, &name, &id))
    {
      gpointer old = g_hash_table_lookup (before, name);

      if (id == NULL || old == NULL)
        continue;
      (*n_compared)++;
      moved += old != id;
    }
  return moved;
}
