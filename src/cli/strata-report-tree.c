/* strata-report-tree.c: `strata -r --tree` and `--format=folded`
 *
 * The merged call tree as indented text or nested JSON, and collapsed
 * stacks ("thread;frame;frame weight"), the input of flamegraph.pl,
 * inferno and speedscope.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <gio/gunixoutputstream.h>

#include "strata-report-private.h"
#include "strata-units.h"

/* The most Strata writes as an indented tree or folded stacks: a stack
 * n frames deep makes lines that add up to n² frames. */
#define MAX_REPORT_BYTES (G_GUINT64_CONSTANT (1) << 30)

/* Each node's depth, counted from 1 below the root: the tree numbers
 * its nodes breadth first, so a parent comes before its children. */
static guint *
node_depths (StrataCallTree *tree)
{
  guint32 n = strata_call_tree_get_n_nodes (tree);
  guint *depths = g_new0 (guint, MAX (n, 1));

  for (guint32 v = 1; v < n; v++)
    depths[v] = depths[strata_call_tree_get_parent (tree, v)] + 1;
  return depths;
}

static gsize
name_length (StrataCallTree *tree,
             guint32         node)
{
  g_autofree char *name = strata_call_tree_dup_name (tree, node);

  return strlen (name);
}

/* The bytes of the indented tree, without writing it. */
static guint64
estimate_tree (StrataCallTree *tree,
               int             max_depth)
{
  g_autofree guint *depths = node_depths (tree);
  guint64 total = 0;

  for (guint32 v = 1; v < strata_call_tree_get_n_nodes (tree); v++)
    if (max_depth < 0 || depths[v] <= (guint) max_depth)
      total += 50 + MIN (2 * (depths[v] - 1), 2000) + name_length (tree, v);
  return total;
}

static gboolean
check_size (StrataCallTree  *tree,
            guint64          bytes,
            GError         **error)
{
  g_autofree char *size = NULL, *limit = NULL, *deepest = NULL;

  if (bytes <= MAX_REPORT_BYTES)
    return TRUE;
  size = g_format_size (bytes);
  limit = g_format_size (MAX_REPORT_BYTES);
  deepest = strata_units_format_count (strata_call_tree_get_depth (tree, strata_call_tree_get_n_nodes (tree) - 1));
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
               /* Translators: sizes such as “3.2 GB”, then a count of frames */
               _("it would write %s, more than the %s a report writes at most: the stacks run %s frames deep. "
                 "Give --depth=N to keep N levels of them."),
               size, limit, deepest);
  return FALSE;
}

static void
print_node (StrataCallTree *tree,
            guint32         node,
            guint           clock,
            gint64          whole,
            guint           depth)
{
  StrataTrace *trace = strata_call_tree_get_trace (tree);
  gint64 total = strata_call_tree_get_total (tree, node, clock);
  g_autofree char *total_text = strata_trace_format_weight (trace, clock, total, TRUE);
  g_autofree char *self_text = strata_trace_format_weight (trace, clock, strata_call_tree_get_self (tree, node, clock), TRUE);
  g_autofree char *name = strata_call_tree_dup_name (tree, node);
  g_autofree char *clipped = NULL;

  g_print ("%14s %6.1f%% %14s %10" G_GUINT64_FORMAT "  %*s%s\n", total_text, whole > 0 ? 100.0 * total / whole : 0.0,
           self_text, strata_call_tree_get_calls (tree, node), (int) MIN (2 * depth, 2000), "",
           strata_units_clip_for_display (name, &clipped));
}

/* A node whose children are being printed, the largest on the clock
 * first (the tree orders them by the first clock). */
typedef struct
{
  guint32 *order;
  guint32  n;
  guint32  next;
} OpenNode;

static void
open_node_clear (gpointer data)
{
  g_free (((OpenNode *) data)->order);
}

/**
 * strata_report_print_tree:
 * @max_depth: levels to print, or -1 for all
 *
 * The tree, a node a line, indented by depth: total (and its share),
 * self, calls and the method.
 */
gboolean
strata_report_print_tree (StrataCallTree  *tree,
                          guint            clock,
                          int              max_depth,
                          GError         **error)
{
  StrataTrace *trace = strata_call_tree_get_trace (tree);
  gint64 whole = strata_call_tree_get_total (tree, STRATA_CALL_TREE_ROOT, clock);

  if (!check_size (tree, estimate_tree (tree, max_depth), error))
    return FALSE;

  g_print ("\n%s (%s)\n", strata_call_tree_get_kind (tree) == STRATA_CALL_TREE_TOP_DOWN ? _("Call tree, top down")
                                                                                    : _("Call tree, bottom up"),
           strata_trace_get_clock_name (trace, clock));
  g_autoptr(GArray) open = g_array_new (FALSE, FALSE, sizeof (OpenNode));
  OpenNode root = { NULL, 0, 0 };

  g_print ("%14s %7s %14s %10s  %s\n", _("Total"), "%", _("Self"), _("Calls"), _("Method"));
  /* Depth first with a stack of its own: real stacks run thousands of
   * frames deep, more than the C stack would take recursing. */
  g_array_set_clear_func (open, open_node_clear);
  root.order = strata_call_tree_order_children (tree, STRATA_CALL_TREE_ROOT, clock, &root.n);
  g_array_append_val (open, root);
  while (open->len > 0)
    {
      OpenNode *top = &g_array_index (open, OpenNode, open->len - 1);
      guint depth = open->len - 1;
      guint32 node;

      if (top->next == top->n)
        {
          g_array_set_size (open, open->len - 1);
          continue;
        }
      node = top->order[top->next++];
      print_node (tree, node, clock, whole, depth);
      if (max_depth < 0 || (int) depth + 1 < max_depth)
        {
          OpenNode child = { NULL, 0, 0 };

          child.order = strata_call_tree_order_children (tree, node, clock, &child.n);
          g_array_append_val (open, child);
        }
    }
  return TRUE;
}

static void
write_clock_values (StrataJsonWriter *json,
                    StrataCallTree   *tree,
                    guint32           node,
                    const char       *name,
                    gboolean          self)
{
  StrataTrace *trace = strata_call_tree_get_trace (tree);

  strata_json_writer_member (json, name);
  strata_json_writer_begin_object (json);
  for (guint c = 0; c < strata_call_tree_get_n_clocks (tree); c++)
    {
      strata_json_writer_member (json, strata_report_clock_id (trace, c));
      strata_json_writer_int (json, self ? strata_call_tree_get_self (tree, node, c)
                                         : strata_call_tree_get_total (tree, node, c));
    }
  strata_json_writer_end_object (json);
}

/* A node's members up to its list of children, which is left open. */
static void
begin_json_node (StrataJsonWriter *json,
                 StrataCallTree   *tree,
                 guint32           node)
{
  g_autofree char *name = strata_call_tree_dup_name (tree, node);

  strata_json_writer_begin_object (json);
  strata_json_writer_member (json, "name");
  strata_json_writer_string (json, name);
  write_clock_values (json, tree, node, "total", FALSE);
  write_clock_values (json, tree, node, "self", TRUE);
  strata_json_writer_member (json, "calls");
  strata_json_writer_uint (json, strata_call_tree_get_calls (tree, node));
  strata_json_writer_member (json, "children");
  strata_json_writer_begin_array (json);
}

/* The children of @parent, depth first with a stack of its own (real
 * stacks run thousands of frames deep); each node's children in the
 * tree's order. */
static void
write_json_children (StrataJsonWriter *json,
                     StrataCallTree   *tree,
                     guint32           parent,
                     int               max_depth)
{
  g_autoptr(GArray) next = g_array_new (FALSE, FALSE, sizeof (guint32));   /* per open node: its next child */
  g_autoptr(GArray) end = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 first = strata_call_tree_get_first_child (tree, parent);
  guint32 last = first + strata_call_tree_get_n_children (tree, parent);

  g_array_append_val (next, first);
  g_array_append_val (end, last);
  while (next->len > 0)
    {
      guint depth = next->len - 1;
      guint32 *child = &g_array_index (next, guint32, depth);
      guint32 node;

      if (*child == g_array_index (end, guint32, depth))
        {
          g_array_set_size (next, depth);
          g_array_set_size (end, depth);
          if (depth > 0)
            {
              strata_json_writer_end_array (json);
              strata_json_writer_end_object (json);
            }
          continue;
        }
      node = (*child)++;
      begin_json_node (json, tree, node);
      if (max_depth >= 0 && (int) depth + 1 >= max_depth)
        first = last = 0;
      else
        {
          first = strata_call_tree_get_first_child (tree, node);
          last = first + strata_call_tree_get_n_children (tree, node);
        }
      g_array_append_val (next, first);
      g_array_append_val (end, last);
    }
}

/**
 * strata_report_write_json_tree:
 *
 * `{"tree": "top-down", "clock": "wall", "clocks": [...], "nodes": [...]}`:
 * each node with its name, total and self per clock (ns, or samples),
 * calls and children; "clock" is the one the report was asked for.
 */
gboolean
strata_report_write_json_tree (StrataCallTree  *tree,
                               guint            clock,
                               int              max_depth,
                               GError         **error)
{
  StrataTrace *trace = strata_call_tree_get_trace (tree);
  g_autoptr(GOutputStream) out = g_unix_output_stream_new (STDOUT_FILENO, FALSE);
  /* The document's top members and the items of its lists get a line each. */
  g_autoptr(StrataJsonWriter) json = strata_json_writer_new (out, 2);

  strata_json_writer_begin_object (json);
  strata_json_writer_member (json, "tree");
  strata_json_writer_string (json, strata_call_tree_get_kind (tree) == STRATA_CALL_TREE_TOP_DOWN ? "top-down" : "bottom-up");
  strata_json_writer_member (json, "clock");
  strata_json_writer_string (json, strata_report_clock_id (trace, clock));
  strata_json_writer_member (json, "clocks");
  strata_json_writer_begin_array (json);
  for (guint c = 0; c < strata_call_tree_get_n_clocks (tree); c++)
    strata_json_writer_string (json, strata_report_clock_id (trace, c));
  strata_json_writer_end_array (json);
  write_clock_values (json, tree, STRATA_CALL_TREE_ROOT, "total", FALSE);
  strata_json_writer_member (json, "nodes");
  strata_json_writer_begin_array (json);
  write_json_children (json, tree, STRATA_CALL_TREE_ROOT, max_depth);
  strata_json_writer_end_array (json);
  strata_json_writer_end_object (json);
  return strata_json_writer_finish (json, error);
}

/* A frame's name as collapsed stacks can hold it: ';' separates frames
 * and the line ends at a newline. */
static void
append_frame (GString    *line,
              const char *name)
{
  for (const char *p = name; *p != '\0'; p++)
    g_string_append_c (line, *p == ';' ? ':' : *p == '\n' || *p == '\r' ? ' ' : *p);
}

/* With @max_depth frames kept, each node's time goes to its ancestor at
 * that depth (the thread is above them): @own gets each line's weight,
 * @path_bytes each line's length; returns the bytes of all lines. */
static guint64
fold_to_depth (StrataCallTree *tree,
               guint           clock,
               int             max_depth,
               gint64         *own,
               guint64        *path_bytes)
{
  guint32 n = strata_call_tree_get_n_nodes (tree);
  g_autofree guint *depths = node_depths (tree);
  g_autofree guint32 *kept = g_new0 (guint32, MAX (n, 1));
  guint64 total = 0;

  for (guint32 v = 1; v < n; v++)
    {
      guint32 parent = strata_call_tree_get_parent (tree, v);

      kept[v] = max_depth < 0 || depths[v] <= (guint) max_depth + 1 ? v : kept[parent];
      own[kept[v]] += strata_call_tree_get_self (tree, v, clock);
      path_bytes[v] = (parent != STRATA_CALL_TREE_ROOT ? path_bytes[parent] : 0) + name_length (tree, v) + 1;
    }
  for (guint32 v = 1; v < n; v++)
    if (own[v] > 0)
      total += path_bytes[v] + 21;
  return total;
}

/**
 * strata_report_write_folded:
 * @tree: a top-down tree made by thread
 * @max_depth: frames kept of each stack, or -1 for all
 *
 * A first line "# clock=wall unit=ns" (or thread-cpu, samples) says what
 * the weights are; flamegraph.pl, inferno and speedscope skip it. Then a
 * line per distinct path with self time on @clock: the thread, the
 * frames from the bottom of the stack, and the weight (ns, or samples).
 * The weights add up to the profile's total; time deeper than
 * @max_depth goes to the frame at that depth.
 */
gboolean
strata_report_write_folded (StrataCallTree  *tree,
                            guint            clock,
                            int              max_depth,
                            GError         **error)
{
  StrataTrace *trace = strata_call_tree_get_trace (tree);
  guint32 n = strata_call_tree_get_n_nodes (tree);
  g_autoptr(GOutputStream) out = g_unix_output_stream_new (STDOUT_FILENO, FALSE);
  g_autoptr(GOutputStream) buffered = g_buffered_output_stream_new_sized (out, 1 << 16);
  gboolean samples = strata_trace_get_clock_kind (trace, clock) == STRATA_CLOCK_SAMPLES;
  g_autoptr(GString) line = g_string_new (NULL);
  g_autoptr(GPtrArray) frames = g_ptr_array_new_with_free_func (g_free);
  g_autofree gint64 *own = g_new0 (gint64, MAX (n, 1));
  g_autofree guint64 *path_bytes = g_new0 (guint64, MAX (n, 1));

  if (!check_size (tree, fold_to_depth (tree, clock, max_depth, own, path_bytes), error))
    return FALSE;
  g_string_printf (line, "# clock=%s unit=%s\n", strata_report_clock_id (trace, clock), samples ? "samples" : "ns");
  if (!g_output_stream_write_all (buffered, line->str, line->len, NULL, NULL, error))
    return FALSE;
  for (guint32 v = 1; v < n; v++)
    {
      /* A thread's own line: its traced time outside any call. */
      if (own[v] <= 0)
        continue;
      g_ptr_array_set_size (frames, 0);
      for (guint32 u = v; u != STRATA_CALL_TREE_ROOT; u = strata_call_tree_get_parent (tree, u))
        g_ptr_array_add (frames, strata_call_tree_dup_name (tree, u));
      g_string_truncate (line, 0);
      for (guint i = frames->len; i > 0; i--)
        {
          append_frame (line, g_ptr_array_index (frames, i - 1));
          g_string_append_c (line, i > 1 ? ';' : ' ');
        }
      /* Samples are drawn as 1 ms each: their count is the weight. */
      g_string_append_printf (line, "%" G_GINT64_FORMAT "\n", samples ? own[v] / STRATA_UNITS_NS_PER_SAMPLE : own[v]);
      if (!g_output_stream_write_all (buffered, line->str, line->len, NULL, NULL, error))
        return FALSE;
    }
  return g_output_stream_close (buffered, NULL, error);
}
