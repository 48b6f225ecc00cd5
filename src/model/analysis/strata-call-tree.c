/* strata-call-tree.c: calls merged along their whole call paths
 *
 * A tree is a set of arrays, one entry per distinct path, laid out
 * breadth first so that a node's children are a run of numbers, largest
 * first. The top-down tree is made from the calls in
 * strata-call-tree-walk.c, reshaped in strata-call-tree-transform.c; the
 * bottom-up tree is here, its roots made at once and the rest as they
 * are opened.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "strata-call-tree-private.h"
#include "strata-memory.h"
#include "strata-radix-sort.h"
#include "strata-units.h"


G_DEFINE_FINAL_TYPE (StrataCallTree, strata_call_tree, G_TYPE_OBJECT)

static void
strata_call_tree_finalize (GObject *object)
{
  StrataCallTree *self = STRATA_CALL_TREE (object);

  g_clear_object (&self->trace);
  g_free (self->parent);
  g_free (self->method);
  g_free (self->first_child);
  g_free (self->calls);
  for (guint c = 0; c < STRATA_MAX_CLOCKS; c++)
    {
      g_free (self->total[c]);
      g_free (self->own[c]);
      g_free (self->weight[c]);
    }
  g_clear_object (&self->source);
  g_free (self->n_children);
  g_free (self->entry_first);
  g_free (self->entry_count);
  g_clear_pointer (&self->entries, g_array_unref);
  g_clear_pointer (&self->synthetic, g_ptr_array_unref);
  G_OBJECT_CLASS (strata_call_tree_parent_class)->finalize (object);
}

static void
strata_call_tree_class_init (StrataCallTreeClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strata_call_tree_finalize;
}

static void
strata_call_tree_init (StrataCallTree *self)
{
}

/* The time of span @index at @depth on each clock, cut to @range as the
 * profile cuts it; FALSE when it lies outside. */
gboolean
strata_call_tree_span_time (const StrataSpanTable    *table,
                            guint                     depth,
                            guint32                   index,
                            const StrataProfileRange *range,
                            gint64                   *time)
{
  for (guint c = 0; c < table->n_clocks; c++)
    time[c] = strata_span_table_get_end (table, c, depth, index) - strata_span_table_get_start (table, c, depth, index);
  if (range == NULL)
    return TRUE;
  if (!strata_profile_range_holds (range, table, depth, index))
    return FALSE;
  strata_profile_range_cut (range, table, table->n_clocks, depth, index, time);
  return TRUE;
}

/* A tree with no nodes yet, for a builder. */
StrataCallTree *
strata_call_tree_new_blank (StrataTrace        *trace,
                            StrataCallTreeKind  kind,
                            guint               n_clocks)
{
  StrataCallTree *self = g_object_new (STRATA_TYPE_CALL_TREE, NULL);

  self->trace = g_object_ref (trace);
  self->kind = kind;
  self->n_clocks = MAX (n_clocks, 1);
  return self;
}

/**
 * strata_call_tree_new:
 * @thread: a thread's index, or -1 for all threads merged
 * @by_thread: whether each thread is a node of its own under the root
 *   (the first frame of every path), as collapsed stacks name it
 * @range: (nullable): only the calls in this range, cut at its ends
 *
 * Returns: (transfer full): the top-down tree, or %NULL with @error set
 *   when cancelled
 */
StrataCallTree *
strata_call_tree_new (StrataTrace               *trace,
                      int                        thread,
                      gboolean                   by_thread,
                      const StrataProfileRange  *range,
                      GCancellable              *cancellable,
                      GError                   **error)
{
  guint one = (guint) thread;

  g_return_val_if_fail (STRATA_IS_TRACE (trace), NULL);
  g_return_val_if_fail (thread >= -1 && thread < (int) strata_trace_get_n_threads (trace), NULL);

  return strata_call_tree_new_for_threads (trace, thread >= 0 ? &one : NULL, thread >= 0 ? 1 : 0, by_thread, range,
                                           cancellable, error);
}

/**
 * strata_call_tree_new_for_threads:
 * @threads: (array length=n_threads) (nullable): thread indexes
 * @n_threads: how many; 0 for all threads
 *
 * As strata_call_tree_new(), the calls of several threads merged.
 *
 * Returns: (transfer full): the top-down tree, or %NULL with @error set
 *   when cancelled
 */
StrataCallTree *
strata_call_tree_new_for_threads (StrataTrace               *trace,
                                  const guint               *threads,
                                  guint                      n_threads,
                                  gboolean                   by_thread,
                                  const StrataProfileRange  *range,
                                  GCancellable              *cancellable,
                                  GError                   **error)
{
  g_autoptr(StrataCallTree) self = NULL;
  g_autofree guint8 *marked = NULL;

  g_return_val_if_fail (STRATA_IS_TRACE (trace), NULL);

  if (n_threads > 0)
    {
      marked = g_new0 (guint8, MAX (strata_trace_get_n_threads (trace), 1));
      for (guint i = 0; i < n_threads; i++)
        if (threads[i] < strata_trace_get_n_threads (trace))
          marked[threads[i]] = 1;
    }
  self = strata_call_tree_new_blank (trace, STRATA_CALL_TREE_TOP_DOWN, strata_trace_get_n_clocks (trace));
  if (!strata_call_tree_walk (self, marked, by_thread, range, cancellable, error))
    return NULL;
  return g_steal_pointer (&self);
}

/* ---- Transforms ---- */

/**
 * strata_call_transform_copy:
 *
 * Returns: @transform with its prefix and codes copied, for a keeper;
 *   free them with strata_call_transform_clear()
 */
StrataCallTransform
strata_call_transform_copy (const StrataCallTransform *transform)
{
  StrataCallTransform copy = *transform;

  copy.prefix = g_strdup (transform->prefix);
  copy.codes = transform->codes != NULL ? g_memdup2 (transform->codes, transform->n_codes * sizeof (guint32)) : NULL;
  return copy;
}

/* A copy's prefix and codes freed; an array of copies' clear function. */
void
strata_call_transform_clear (gpointer data)
{
  StrataCallTransform *transform = data;

  g_free ((char *) transform->prefix);
  g_free (transform->codes);
}

/**
 * strata_call_transform_describe:
 *
 * Returns: (transfer full): what @transform does, for its breadcrumb
 *   ("Merge: java.lang.String.charAt (I)C")
 */
char *
strata_call_transform_describe (StrataCallTree            *tree,
                                const StrataCallTransform *transform)
{
  g_autofree char *name = NULL;

  if (transform->kind == STRATA_CALL_TRANSFORM_FOCUS_SUBTREE)
    name = strata_call_tree_dup_name (tree, transform->node);
  else if (transform->kind != STRATA_CALL_TRANSFORM_COLLAPSE_PREFIX)
    name = g_strdup (strata_trace_get_method_name (tree->trace, transform->method));
  switch (transform->kind)
    {
    case STRATA_CALL_TRANSFORM_FOCUS_FUNCTION:
      /* Translators: a transform of the call tree, then a method */
      return g_strdup_printf (_("Focus: %s"), name);
    case STRATA_CALL_TRANSFORM_FOCUS_SUBTREE:
      /* Translators: a transform of the call tree, then a call path's last method */
      return g_strdup_printf (_("Focus on subtree: %s"), name);
    case STRATA_CALL_TRANSFORM_MERGE_FUNCTION:
      /* Translators: a transform of the call tree, then a method */
      return g_strdup_printf (_("Merge: %s"), name);
    case STRATA_CALL_TRANSFORM_COLLAPSE_RECURSION:
      /* Translators: a transform of the call tree, then a method */
      return g_strdup_printf (_("Collapse recursion: %s"), name);
    case STRATA_CALL_TRANSFORM_COLLAPSE_PREFIX:
      /* Translators: a transform of the call tree, then a package or class prefix */
      return g_strdup_printf (_("Collapse: %s*"), transform->prefix);
    case STRATA_CALL_TRANSFORM_DROP_FUNCTION:
    default:
      /* Translators: a transform of the call tree, then a method */
      return g_strdup_printf (_("Drop: %s"), name);
    }
}

/* ---- Reading ---- */

StrataTrace *
strata_call_tree_get_trace (StrataCallTree *self)
{
  return self->trace;
}

StrataCallTreeKind
strata_call_tree_get_kind (StrataCallTree *self)
{
  return self->kind;
}

guint
strata_call_tree_get_n_clocks (StrataCallTree *self)
{
  return self->n_clocks;
}

guint32
strata_call_tree_get_n_nodes (StrataCallTree *self)
{
  return self->n_nodes;
}

guint32
strata_call_tree_get_parent (StrataCallTree *self,
                             guint32         node)
{
  return self->parent[node];
}

/* Returns: the node's method, or %STRATA_CALL_TREE_NONE for the root and
 *   threads' nodes */
guint32
strata_call_tree_get_method (StrataCallTree *self,
                             guint32         node)
{
  return node == STRATA_CALL_TREE_ROOT || !IS_METHOD (self->method[node]) ? STRATA_CALL_TREE_NONE
                                                                         : self->method[node];
}

/**
 * strata_call_tree_fit:
 *
 * The top-down tree's arrays, made with room for more, cut to its nodes.
 */
void
strata_call_tree_fit (StrataCallTree *tree)
{
  guint32 n = MAX (tree->n_nodes, 1);

  tree->parent = g_realloc_n (tree->parent, n, sizeof (guint32));
  tree->method = g_realloc_n (tree->method, n, sizeof (guint32));
  tree->first_child = g_realloc_n (tree->first_child, (gsize) n + 1, sizeof (guint32));
  tree->calls = g_realloc_n (tree->calls, n, sizeof (guint32));
  for (guint c = 0; c < tree->n_clocks; c++)
    tree->total[c] = g_realloc_n (tree->total[c], n, sizeof (gint64));
}

/**
 * strata_call_tree_get_size:
 *
 * Returns: the bytes the tree's arrays hold: its nodes' (bottom up, the
 *   room made for them and the calls each stands for), and top down the
 *   self times kept for turning it over once it has been
 */
gsize
strata_call_tree_get_size (StrataCallTree *self)
{
  gsize rows, size;

  g_return_val_if_fail (STRATA_IS_CALL_TREE (self), 0);

  rows = self->kind == STRATA_CALL_TREE_BOTTOM_UP ? self->n_alloc : MAX (self->n_nodes, 1);
  size = rows * (4 * sizeof (guint32) + self->n_clocks * sizeof (gint64)) + sizeof (guint32);
  if (self->kind == STRATA_CALL_TREE_BOTTOM_UP)
    size += rows * 3 * sizeof (guint32) + (gsize) self->entries->len * sizeof (StrataCallTreeEntry);
  for (guint c = 0; c < self->n_clocks; c++)
    if (self->own[c] != NULL)
      size += (gsize) MAX (self->n_nodes, 1) * sizeof (gint64);
  return size;
}

/* Returns: the code naming @node (a method, a thread or a collapsed
 * run), as strata_call_tree_dup_codes() lists them */
guint32
strata_call_tree_get_code (StrataCallTree *self,
                           guint32         node)
{
  return self->method[node];
}

/* Returns: the thread a thread's node stands for, else -1 */
int
strata_call_tree_get_thread (StrataCallTree *self,
                             guint32         node)
{
  if (node == STRATA_CALL_TREE_ROOT || (self->method[node] & THREAD_NODE) == 0 || self->method[node] == STRATA_CALL_TREE_NONE)
    return -1;
  return (int) (self->method[node] & ~THREAD_NODE);
}

/* A bottom-up node's children are made here, the first time: call from
 * one thread at a time. */
guint32
strata_call_tree_get_first_child (StrataCallTree *self,
                                  guint32         node)
{
  if (self->kind == STRATA_CALL_TREE_BOTTOM_UP)
    strata_call_tree_open_node (self, node);
  return self->first_child[node];
}

guint32
strata_call_tree_get_n_children (StrataCallTree *self,
                                 guint32         node)
{
  if (self->kind == STRATA_CALL_TREE_BOTTOM_UP)
    {
      strata_call_tree_open_node (self, node);
      return self->n_children[node];
    }
  return self->first_child[node + 1] - self->first_child[node];
}

typedef struct
{
  StrataCallTree *tree;
  guint           clock;
} ClockOrder;

static int
compare_on_clock (gconstpointer a,
                  gconstpointer b,
                  gpointer      data)
{
  const ClockOrder *order = data;
  gint64 x = strata_call_tree_get_total (order->tree, *(const guint32 *) a, order->clock);
  gint64 y = strata_call_tree_get_total (order->tree, *(const guint32 *) b, order->clock);

  if (x != y)
    return x > y ? -1 : 1;
  return *(const guint32 *) a < *(const guint32 *) b ? -1 : 1;
}

/**
 * strata_call_tree_order_children:
 * @n_children: (out): how many
 *
 * Returns: (transfer full): @node's children, the largest total on
 *   @clock first (the tree itself orders them by the first clock)
 */
guint32 *
strata_call_tree_order_children (StrataCallTree *self,
                                 guint32         node,
                                 guint           clock,
                                 guint32        *n_children)
{
  guint32 first = strata_call_tree_get_first_child (self, node);
  guint32 n = strata_call_tree_get_n_children (self, node);
  guint32 *order = g_new (guint32, MAX (n, 1));
  ClockOrder context = { self, clock };

  for (guint32 i = 0; i < n; i++)
    order[i] = first + i;
  if (clock != 0 && n > 1)
    g_qsort_with_data (order, n, sizeof (guint32), compare_on_clock, &context);
  *n_children = n;
  return order;
}

gint64
strata_call_tree_get_total (StrataCallTree *self,
                            guint32         node,
                            guint           clock)
{
  return clock < self->n_clocks ? self->total[clock][node] : 0;
}

/* The node's total less its children's: time in the method itself (in a
 * bottom-up tree, that of its roots only). */
gint64
strata_call_tree_get_self (StrataCallTree *self,
                           guint32         node,
                           guint           clock)
{
  gint64 own;

  if (clock >= self->n_clocks)
    return 0;
  if (self->kind == STRATA_CALL_TREE_BOTTOM_UP)
    return self->parent[node] == STRATA_CALL_TREE_ROOT ? self->total[clock][node] : 0;
  own = self->total[clock][node];
  for (guint32 c = self->first_child[node]; c < self->first_child[node + 1]; c++)
    own -= self->total[clock][c];
  return own;
}

guint64
strata_call_tree_get_calls (StrataCallTree *self,
                            guint32         node)
{
  return self->calls[node];
}

guint
strata_call_tree_get_depth (StrataCallTree *self,
                            guint32         node)
{
  guint depth = 0;

  for (guint32 v = node; v != STRATA_CALL_TREE_ROOT; v = self->parent[v])
    depth++;
  return depth;
}

/* The deepest node of a top-down tree: numbered breadth first, it is the
 * last. */
static guint
deepest (StrataCallTree *self)
{
  return self->n_nodes > 0 ? strata_call_tree_get_depth (self, self->n_nodes - 1) : 0;
}

/**
 * strata_call_tree_get_depth_below:
 *
 * Returns: how many levels @node's subtree has under it. For a bottom-up
 *   tree, whose nodes are made only as they are opened, a bound that opens
 *   none: no path up through callers is longer than the deepest top-down
 *   path.
 */
guint
strata_call_tree_get_depth_below (StrataCallTree *self,
                                  guint32         node)
{
  g_autoptr(GArray) stack = NULL;
  guint below = 0;
  guint32 top[2] = { node, 0 };

  if (self->kind == STRATA_CALL_TREE_BOTTOM_UP)
    {
      guint depth = strata_call_tree_get_depth (self, node);
      guint longest = deepest (self->source);

      return longest > depth ? longest - depth : 0;
    }
  stack = g_array_new (FALSE, FALSE, sizeof (guint32) * 2);
  g_array_append_val (stack, top);
  while (stack->len > 0)
    {
      guint32 *entry = &g_array_index (stack, guint32, (stack->len - 1) * 2);
      guint32 v = entry[0], depth = entry[1];

      g_array_set_size (stack, stack->len - 1);
      below = MAX (below, depth);
      for (guint32 c = self->first_child[v]; c < self->first_child[v + 1]; c++)
        {
          guint32 child[2] = { c, depth + 1 };

          g_array_append_val (stack, child);
        }
    }
  return below;
}

/**
 * strata_call_tree_dup_name:
 *
 * Returns: (transfer full): the node's method, or its thread's name, or
 *   for the root "All threads"
 */
char *
strata_call_tree_dup_name (StrataCallTree *self,
                           guint32         node)
{
  int thread = strata_call_tree_get_thread (self, node);

  if (node == STRATA_CALL_TREE_ROOT)
    return g_strdup (_("All threads"));
  if ((self->method[node] & (THREAD_NODE | SYNTHETIC_NODE)) == SYNTHETIC_NODE)
    return g_strdup (g_ptr_array_index (self->synthetic, self->method[node] & ~SYNTHETIC_NODE));
  if (thread >= 0)
    {
      const StrataThread *info = strata_trace_get_thread (self->trace, thread);
      const char *name = strata_trace_get_string (self->trace, info->name);

      return name != NULL && *name != '\0' ? g_strdup (name)
                                           : g_strdup_printf ("%" G_GINT64_FORMAT, info->tid);
    }
  return g_strdup (strata_trace_get_method_name (self->trace, self->method[node]));
}

/* The span at @depth - 1 whose children hold @index at @depth. */
static guint32
parent_span (const StrataSpanTable *table,
             guint                  depth,
             guint32                index)
{
  guint32 lo = 0, hi = table->n_spans[depth - 1];

  /* The last parent whose first child is at or before @index. */
  while (hi - lo > 1)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (table->calls[depth - 1][mid].first_child <= index)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

/* The node down the path of @codes from @node, or NONE; bottom up, the
 * nodes on the way are opened. */
static guint32
find_below (StrataCallTree *self,
            guint32         node,
            const guint32  *codes,
            guint           n_codes)
{
  for (guint depth = 0; depth < n_codes && node != STRATA_CALL_TREE_NONE; depth++)
    {
      guint32 first = strata_call_tree_get_first_child (self, node);
      guint32 end = first + strata_call_tree_get_n_children (self, node);
      guint32 found = STRATA_CALL_TREE_NONE;

      for (guint32 c = first; c < end && found == STRATA_CALL_TREE_NONE; c++)
        if (self->method[c] == codes[depth])
          found = c;
      node = found;
    }
  return node;
}

/**
 * strata_call_tree_find_call:
 * @call: a call of the trace
 *
 * Returns: the node of a top-down tree (all threads merged, or made by
 *   thread) whose path is @call's, or %STRATA_CALL_TREE_NONE when the tree
 *   has none (a transform, a range or another thread left it out)
 */
guint32
strata_call_tree_find_call (StrataCallTree       *self,
                            const StrataSliceRef *call)
{
  const StrataThread *thread;
  const StrataSpanTable *table;
  g_autofree guint32 *methods = NULL;
  guint32 node = STRATA_CALL_TREE_ROOT, index = call->index;

  g_return_val_if_fail (STRATA_IS_CALL_TREE (self), STRATA_CALL_TREE_NONE);

  if (self->kind != STRATA_CALL_TREE_TOP_DOWN || call->thread >= strata_trace_get_n_threads (self->trace))
    return STRATA_CALL_TREE_NONE;
  thread = strata_trace_get_thread (self->trace, call->thread);
  table = thread->spans;
  if (table == NULL || call->depth >= table->n_depths || call->index >= table->n_spans[call->depth])
    return STRATA_CALL_TREE_NONE;
  methods = g_new (guint32, call->depth + 1);
  for (guint depth = call->depth;; depth--)
    {
      methods[depth] = table->calls[depth][index].method;
      if (depth == 0)
        break;
      index = parent_span (table, depth, index);
    }
  /* A tree made by thread has the thread first. */
  for (guint32 c = self->first_child[node]; c < self->first_child[node + 1]; c++)
    if (self->method[c] == (THREAD_NODE | call->thread))
      node = c;
  return find_below (self, node, methods, call->depth + 1);
}

/**
 * strata_call_tree_dup_codes:
 *
 * What names each node from the top of a top-down tree down to @node, as
 * strata_call_tree_find_codes() takes it: a node of one tree found again
 * in another made from the same trace (merged anew for another range or
 * thread, with the same transforms). Bottom up, from the root where the
 * time was spent through its callers.
 *
 * Returns: (transfer full): @n_codes codes
 */
guint32 *
strata_call_tree_dup_codes (StrataCallTree *self,
                            guint32         node,
                            guint          *n_codes)
{
  guint depth;
  guint32 *codes;

  g_return_val_if_fail (STRATA_IS_CALL_TREE (self), NULL);
  g_return_val_if_fail (node < self->n_nodes, NULL);

  depth = strata_call_tree_get_depth (self, node);
  codes = g_new (guint32, MAX (depth, 1));
  for (guint d = depth; d > 0; d--, node = self->parent[node])
    codes[d - 1] = self->method[node];
  *n_codes = depth;
  return codes;
}

/**
 * strata_call_tree_find_codes:
 *
 * Returns: the node that strata_call_tree_dup_codes() described, or
 *   %STRATA_CALL_TREE_NONE when this tree has none
 */
guint32
strata_call_tree_find_codes (StrataCallTree *self,
                             const guint32  *codes,
                             guint           n_codes)
{
  g_return_val_if_fail (STRATA_IS_CALL_TREE (self), STRATA_CALL_TREE_NONE);

  return find_below (self, STRATA_CALL_TREE_ROOT, codes, n_codes);
}

static char *
join_path (StrataCallTree *self,
           guint32         node,
           const char     *separator,
           gboolean        clip)
{
  guint depth = strata_call_tree_get_depth (self, node);
  g_autofree char **names = g_new0 (char *, depth + 1);
  guint32 v = node;
  char *path;

  for (guint i = depth; i > 0; i--, v = self->parent[v])
    {
      char *name = strata_call_tree_dup_name (self, v), *clipped = NULL;

      if (clip)
        strata_units_clip_for_display (name, &clipped);
      if (clipped != NULL)
        g_free (g_steal_pointer (&name));
      names[i - 1] = clipped != NULL ? clipped : name;
    }
  path = g_strjoinv (separator, names);
  for (guint i = 0; i < depth; i++)
    g_free (names[i]);
  return path;
}

/**
 * strata_call_tree_dup_path:
 *
 * Returns: (transfer full): the names from the top of the tree down to
 *   @node, joined by @separator
 */
char *
strata_call_tree_dup_path (StrataCallTree *self,
                           guint32         node,
                           const char     *separator)
{
  return join_path (self, node, separator, FALSE);
}

/**
 * strata_call_tree_dup_display_path:
 *
 * strata_call_tree_dup_path() with each name clipped for display
 * (strata_units_clip_for_display()): a path to show, not to copy.
 *
 * Returns: (transfer full): the path
 */
char *
strata_call_tree_dup_display_path (StrataCallTree *self,
                                   guint32         node,
                                   const char     *separator)
{
  return join_path (self, node, separator, TRUE);
}
