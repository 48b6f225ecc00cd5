/* strata-call-tree-transform.c: a top-down tree reshaped
 *
 * A transform sends each node of the tree to a node of the result, or to
 * none. The result is made a level at a time, as the tree itself is: a
 * node of the result holds the nodes of the tree whose self time and
 * calls it takes (its feeders), and their children are sorted out into
 * what they become: a child of the node by method (or by collapsed
 * name), part of the node itself (a frame merged away, whose own
 * children are then sorted out the same way), or nothing. Children are
 * grouped in a table the size of the method list, nothing is hashed, and
 * the tree is read in the order it is laid out in.
 *
 * Totals are summed from the selfs at the end; a last breadth-first pass
 * orders each node's children by them, largest first.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "strata-call-tree-private.h"
#include "strata-memory.h"

#define NO_NODE G_MAXUINT32

/* What a node of the tree becomes under the node of the result that its
 * parent feeds. */
typedef enum
{
  FATE_CHILD,         /* a child, by its code */
  FATE_MERGED,        /* part of the node, its calls not counted */
  FATE_NONE,          /* nothing here: dropped, or taken by an outer frame */
} Fate;

/* A child being made: its feeders' figures, and how many they are. */
typedef struct
{
  gint64  own[STRATA_MAX_CLOCKS];
  guint64 calls;
  guint32 code;
  guint32 n_feeders;
} Kid;

/* A node of the tree and the child it feeds (its place among its
 * parent's kids). */
typedef struct
{
  guint32 node;
  guint32 kid;
} Feed;

/* The feeders of a level's nodes, grouped by node. */
typedef struct
{
  guint32 *feeders;
  gsize   *start;      /* per node, and one past the last */
  guint32  n_nodes;
  gsize    n_feeders;
  gsize    feeders_alloc;
  gsize    start_alloc;
} Level;

typedef struct _Reshape Reshape;

/* A worker's part of a level: the nodes @first to @last sorted out,
 * their kids and feeds kept in turn, then placed. */
typedef struct
{
  /* Each worker's own cache lines: the two are written at once. */
  _Alignas (128) Reshape *reshape;
  guint32                 first;
  guint32                 last;
  StrataKidTable          kid_of;        /* by code index */
  Kid                    *kids;          /* each node's, in turn */
  gsize                   n_kids;
  gsize                   kids_alloc;
  gsize                   segment;       /* where the node's kids begin */
  Feed                   *feeds;         /* each node's, in turn; kids counted from its segment */
  gsize                   n_feeds;
  gsize                   feeds_alloc;
  gsize                  *node_kids;     /* per node, and one past: its first kid */
  gsize                  *node_feeds;    /* per node, and one past: its first feed */
  gsize                   node_kids_alloc;
  gsize                   node_feeds_alloc;
  guint32                *open;          /* feeders whose children are still to sort out */
  gsize                   open_alloc;
  gsize                  *place;
  guint32                 node_base;
  gsize                   feeder_base;
  gboolean                cancelled;
} Sorter;

struct _Reshape
{
  StrataCallTree            *source;
  StrataCallTree            *result;
  const StrataCallTransform *transform;
  GCancellable              *cancellable;
  guint32                    collapsed;    /* COLLAPSE_PREFIX: the code of the runs */
  guint8                    *prefixed;     /* COLLAPSE_PREFIX: the methods the prefix names */
  guint32                   *inner_start;  /* COLLAPSE_RECURSION: per node, its inner calls of the method */
  guint32                   *inner;
  guint8                    *is_inner;     /* per node: a call of the method under another */
  guint                      n_methods;
  guint                      n_synthetic;
  guint                      n_buckets;
  guint                      n_workers;
  /* The result as it is made, children in the order made: */
  gint64                    *own[STRATA_MAX_CLOCKS];
  guint64                   *calls;
  Sorter                     sorters[2];
  Level                      level;
  Level                      next;
  guint32                    level_first;  /* the level's first node */
  guint32                    next_first;   /* the next level's */
};

/* ---- Prefixes and recursion ---- */

/* For each method, whether its name starts with @prefix: decided once,
 * not for each of the nodes that name it. */
static guint8 *
match_prefix (StrataTrace *trace,
              const char  *prefix)
{
  guint n = strata_trace_get_n_methods (trace);
  guint8 *matches = g_new0 (guint8, MAX (n, 1));

  for (guint m = 0; m < n; m++)
    matches[m] = g_str_has_prefix (strata_trace_get_method_name (trace, m), prefix);
  return matches;
}

/* Whether @code (a node's method field) is a method @matches marks. */
static inline gboolean
has_prefix (const guint8 *matches,
            guint32       code)
{
  return IS_METHOD (code) && matches[code];
}

/* The synthetic name "@prefix*" in @tree, added once. */
static guint32
synthetic_code (StrataCallTree *tree,
                const char     *prefix)
{
  g_autofree char *name = g_strconcat (prefix, "*", NULL);

  if (tree->synthetic == NULL)
    tree->synthetic = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < tree->synthetic->len; i++)
    if (g_str_equal (g_ptr_array_index (tree->synthetic, i), name))
      return SYNTHETIC_NODE | i;
  g_ptr_array_add (tree->synthetic, g_steal_pointer (&name));
  return SYNTHETIC_NODE | (tree->synthetic->len - 1);
}

/* COLLAPSE_RECURSION: for each outermost call of the method, the calls
 * of it below (at any depth), which its node takes whole. */
static void
find_inner_calls (Reshape *reshape)
{
  StrataCallTree *source = reshape->source;
  guint32 n = MAX (source->n_nodes, 1), method = reshape->transform->method;
  g_autofree guint32 *outermost = strata_memory_new_large (n, sizeof (guint32));
  g_autofree guint32 *fill = NULL;

  reshape->inner_start = g_new0 (guint32, (gsize) n + 1);
  reshape->is_inner = g_new0 (guint8, n);
  outermost[STRATA_CALL_TREE_ROOT] = NO_NODE;
  /* Breadth first: a node's parent comes before it. */
  for (guint32 v = 1; v < source->n_nodes; v++)
    {
      guint32 above = outermost[source->parent[v]];

      outermost[v] = above != NO_NODE ? above : source->method[v] == method ? v : NO_NODE;
      reshape->is_inner[v] = above != NO_NODE && source->method[v] == method;
      if (reshape->is_inner[v])
        reshape->inner_start[above + 1]++;
    }
  for (guint32 v = 0; v < n; v++)
    reshape->inner_start[v + 1] += reshape->inner_start[v];
  reshape->inner = g_new (guint32, MAX (reshape->inner_start[n], 1));
  fill = g_memdup2 (reshape->inner_start, (gsize) n * sizeof (guint32));
  for (guint32 v = 1; v < source->n_nodes; v++)
    if (reshape->is_inner[v])
      reshape->inner[fill[outermost[source->parent[v]]]++] = v;
}

/* ---- Sorting children out ---- */

static inline gint64
node_own (const StrataCallTree *source,
          guint32               node,
          guint                 clock)
{
  gint64 own = source->total[clock][node];

  if (source->own[clock] != NULL)
    return source->own[clock][node];
  for (guint32 c = source->first_child[node]; c < source->first_child[node + 1]; c++)
    own -= source->total[clock][c];
  return own;
}

/* What @node (a child of @parent in the tree) becomes, and its code as
 * a child in @code. */
static Fate
fate_of (const Reshape *reshape,
         guint32        parent,
         guint32        node,
         guint32       *code)
{
  const StrataCallTransform *transform = reshape->transform;
  guint32 method = reshape->source->method[node];

  *code = method;
  switch (transform->kind)
    {
    case STRATA_CALL_TRANSFORM_MERGE_FUNCTION:
      return method == transform->method ? FATE_MERGED : FATE_CHILD;
    case STRATA_CALL_TRANSFORM_DROP_FUNCTION:
      return method == transform->method ? FATE_NONE : FATE_CHILD;
    case STRATA_CALL_TRANSFORM_COLLAPSE_RECURSION:
      return reshape->is_inner[node] ? FATE_NONE : FATE_CHILD;
    case STRATA_CALL_TRANSFORM_COLLAPSE_PREFIX:
      if (!has_prefix (reshape->prefixed, method))
        return FATE_CHILD;
      if (parent != STRATA_CALL_TREE_ROOT && has_prefix (reshape->prefixed, reshape->source->method[parent]))
        return FATE_MERGED;
      *code = reshape->collapsed;
      return FATE_CHILD;
    case STRATA_CALL_TRANSFORM_FOCUS_FUNCTION:
    case STRATA_CALL_TRANSFORM_FOCUS_SUBTREE:
    default:
      return FATE_CHILD;
    }
}

static void
sorter_reserve (Sorter *sorter,
                gsize   n_kids,
                gsize   n_feeds)
{
  sorter->kids = strata_memory_reserve_large (sorter->kids, sorter->n_kids, n_kids, &sorter->kids_alloc, sizeof (Kid));
  sorter->feeds = strata_memory_reserve_large (sorter->feeds, sorter->n_feeds, n_feeds, &sorter->feeds_alloc, sizeof (Feed));
}

/* @node feeds the kid of @code: its figures go there. */
static void
feed_kid (Sorter  *sorter,
          guint32  code,
          guint32  node)
{
  const Reshape *reshape = sorter->reshape;
  const StrataCallTree *source = reshape->source;
  guint32 index = strata_call_tree_code_index (reshape->n_methods, reshape->n_synthetic, code), made;
  gboolean added;
  Kid *kid;

  made = strata_kid_table_find (&sorter->kid_of, index, (guint32) (sorter->n_kids - sorter->segment), &added);
  if (added)
    {
      sorter_reserve (sorter, sorter->n_kids + 1, 0);
      sorter->kids[sorter->n_kids++] = (Kid) { { 0 }, 0, code, 0 };
    }
  kid = &sorter->kids[sorter->segment + made];
  for (guint c = 0; c < source->n_clocks; c++)
    kid->own[c] += node_own (source, node, c);
  kid->calls += source->calls[node];
  kid->n_feeders++;
  sorter_reserve (sorter, 0, sorter->n_feeds + 1);
  sorter->feeds[sorter->n_feeds++] = (Feed) { node, made };
}

/* @node, a child that opens a run of the method whose recursion
 * collapses, and the calls of it below, which it takes. */
static void
feed_outermost (Sorter  *sorter,
                guint32  code,
                guint32  node)
{
  const Reshape *reshape = sorter->reshape;

  feed_kid (sorter, code, node);
  for (guint32 i = reshape->inner_start[node]; reshape->inner != NULL && i < reshape->inner_start[node + 1]; i++)
    feed_kid (sorter, code, reshape->inner[i]);
}

/* Starts the kids of the sorter's node @k: none yet. */
static void
begin_node (Sorter  *sorter,
            guint32  k)
{
  sorter->node_kids[k] = sorter->segment = sorter->n_kids;
  sorter->node_feeds[k] = sorter->n_feeds;
  strata_kid_table_empty (&sorter->kid_of);
}

/* The sorter's nodes are @n: the last one's kids and feeds end here. */
static void
end_nodes (Sorter  *sorter,
           guint32  n)
{
  sorter->node_kids[n] = sorter->n_kids;
  sorter->node_feeds[n] = sorter->n_feeds;
}

static void
sorter_begin (Sorter  *sorter,
              guint32  first,
              guint32  last)
{
  gsize n = (gsize) last - first + 1;

  sorter->first = first;
  sorter->last = last;
  sorter->n_kids = sorter->n_feeds = 0;
  sorter->cancelled = FALSE;
  sorter->node_kids = strata_memory_reserve_large (sorter->node_kids, 0, n, &sorter->node_kids_alloc, sizeof (gsize));
  sorter->node_feeds = strata_memory_reserve_large (sorter->node_feeds, 0, n, &sorter->node_feeds_alloc, sizeof (gsize));
}

/* The children of the feeders of result node @at, sorted out into its
 * kids, @at itself (frames merged into it) or nothing. */
static void
sort_out_children (Sorter        *sorter,
                   guint32        at,
                   const guint32 *feeders,
                   gsize          n_feeders)
{
  Reshape *reshape = sorter->reshape;
  const StrataCallTree *source = reshape->source;
  gsize n_open = n_feeders;

  sorter->open = strata_memory_reserve_large (sorter->open, 0, n_feeders, &sorter->open_alloc, sizeof (guint32));
  memcpy (sorter->open, feeders, n_feeders * sizeof (guint32));
  while (n_open > 0)
    {
      guint32 parent = sorter->open[--n_open];

      for (guint32 child = source->first_child[parent]; child < source->first_child[parent + 1]; child++)
        {
          guint32 code;

          switch (fate_of (reshape, parent, child, &code))
            {
            case FATE_CHILD:
              if (reshape->inner_start != NULL && source->method[child] == reshape->transform->method)
                feed_outermost (sorter, code, child);
              else
                feed_kid (sorter, code, child);
              break;
            case FATE_MERGED:
              for (guint c = 0; c < source->n_clocks; c++)
                reshape->own[c][at] += node_own (source, child, c);
              sorter->open = strata_memory_reserve_large (sorter->open, n_open, n_open + 1, &sorter->open_alloc,
                                                          sizeof (guint32));
              sorter->open[n_open++] = child;
              break;
            case FATE_NONE:
            default:
              break;
            }
        }
    }
}

/* Sorts out the children of the sorter's nodes of the level. */
static gpointer
sorter_sort (gpointer data)
{
  Sorter *sorter = data;
  Reshape *reshape = sorter->reshape;
  const Level *level = &reshape->level;

  for (guint32 k = sorter->first; k < sorter->last; k++)
    {
      if ((k - sorter->first) % CANCEL_INTERVAL == 0 && g_cancellable_is_cancelled (reshape->cancellable))
        {
          sorter->cancelled = TRUE;
          return NULL;
        }
      begin_node (sorter, k - sorter->first);
      sort_out_children (sorter, reshape->level_first + k, level->feeders + level->start[k], level->start[k + 1] - level->start[k]);
    }
  end_nodes (sorter, sorter->last - sorter->first);
  return NULL;
}

/* ---- Levels ---- */

static void
level_reserve (Level *level,
               gsize  n_feeders,
               gsize  n_nodes)
{
  level->feeders = strata_memory_reserve_large (level->feeders, level->n_feeders, n_feeders, &level->feeders_alloc,
                                                sizeof (guint32));
  level->start = strata_memory_reserve_large (level->start, level->n_nodes, n_nodes + 1, &level->start_alloc, sizeof (gsize));
}

/* A transform makes no more paths than there were: room for them all,
 * made once, of which what is not touched costs nothing. */
static void
alloc_nodes (Reshape *reshape)
{
  StrataCallTree *result = reshape->result;
  gsize n = (gsize) reshape->source->n_nodes + 1;

  result->parent = strata_memory_new_large (n, sizeof (guint32));
  result->method = strata_memory_new_large (n, sizeof (guint32));
  result->first_child = strata_memory_new_large (n, sizeof (guint32));
  reshape->calls = strata_memory_new_large (n, sizeof (guint64));
  for (guint c = 0; c < result->n_clocks; c++)
    reshape->own[c] = strata_memory_new_large (n, sizeof (gint64));
}

/* The sorter's kids become nodes from its node base on, children of
 * their nodes, and their feeders the next level's from its feeder base
 * on. */
static gpointer
sorter_place (gpointer data)
{
  Sorter *sorter = data;
  Reshape *reshape = sorter->reshape;
  StrataCallTree *result = reshape->result;
  Level *next = &reshape->next;
  guint32 node = sorter->node_base;
  gsize feeders = sorter->feeder_base;

  for (guint32 k = 0; k < sorter->last - sorter->first; k++)
    {
      guint32 at = reshape->level_first + sorter->first + k;

      result->first_child[at] = node;
      for (gsize j = sorter->node_kids[k]; j < sorter->node_kids[k + 1]; j++, node++)
        {
          const Kid *kid = &sorter->kids[j];

          result->parent[node] = at;
          result->method[node] = kid->code;
          reshape->calls[node] = kid->calls;
          for (guint c = 0; c < result->n_clocks; c++)
            reshape->own[c][node] = kid->own[c];
          next->start[node - reshape->next_first] = feeders;
          sorter->place[j - sorter->node_kids[k]] = feeders;
          feeders += kid->n_feeders;
        }
      for (gsize f = sorter->node_feeds[k]; f < sorter->node_feeds[k + 1]; f++)
        next->feeders[sorter->place[sorter->feeds[f].kid]++] = sorter->feeds[f].node;
    }
  return NULL;
}

/* Where the level's @n nodes are split in two of about as many feeders
 * each. */
static guint32
split_nodes (const Level *level,
             guint32      n)
{
  guint32 lo = 0, hi = n;
  gsize half = level->start[n] / 2;

  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (level->start[mid] < half)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The sorters' kids placed as the next level's nodes. */
static void
place_kids (Reshape *reshape,
            guint    n_sorters)
{
  StrataCallTree *result = reshape->result;
  gsize n_kids = 0, n_feeders = 0;

  for (guint w = 0; w < n_sorters; w++)
    {
      reshape->sorters[w].node_base = (guint32) (result->n_nodes + n_kids);
      reshape->sorters[w].feeder_base = n_feeders;
      n_kids += reshape->sorters[w].n_kids;
      for (gsize j = 0; j < reshape->sorters[w].n_kids; j++)
        n_feeders += reshape->sorters[w].kids[j].n_feeders;
    }
  level_reserve (&reshape->next, n_feeders, n_kids);
  reshape->next_first = result->n_nodes;
  strata_call_tree_run_two (sorter_place, &reshape->sorters[0], n_sorters > 1 ? &reshape->sorters[1] : NULL);
  result->n_nodes += (guint32) n_kids;
  reshape->next.n_nodes = (guint32) n_kids;
  reshape->next.n_feeders = n_feeders;
}

/* The first level: under a focus, the calls focused on, else the root's
 * children sorted out. */
static void
make_top (Reshape *reshape)
{
  const StrataCallTransform *transform = reshape->transform;
  StrataCallTree *source = reshape->source, *result = reshape->result;
  Sorter *sorter = &reshape->sorters[0];
  gboolean focus = transform->kind == STRATA_CALL_TRANSFORM_FOCUS_FUNCTION ||
                   transform->kind == STRATA_CALL_TRANSFORM_FOCUS_SUBTREE;
  guint32 root = STRATA_CALL_TREE_ROOT;

  /* The root keeps its own time (threads outside calls) unless focused. */
  result->parent[0] = STRATA_CALL_TREE_NONE;
  result->method[0] = STRATA_CALL_TREE_NONE;
  reshape->calls[0] = 0;
  for (guint c = 0; c < source->n_clocks; c++)
    reshape->own[c][0] = focus ? 0 : node_own (source, STRATA_CALL_TREE_ROOT, c);
  result->n_nodes = 1;
  reshape->level_first = STRATA_CALL_TREE_ROOT;
  sorter_begin (sorter, 0, 1);
  begin_node (sorter, 0);
  if (!focus)
    sort_out_children (sorter, STRATA_CALL_TREE_ROOT, &root, 1);
  else if (transform->kind == STRATA_CALL_TRANSFORM_FOCUS_SUBTREE)
    {
      if (transform->node != STRATA_CALL_TREE_ROOT && transform->node < source->n_nodes)
        feed_kid (sorter, source->method[transform->node], transform->node);
    }
  else
    {
      /* Each first call of the function on its path: the calls of it
       * below are its callees as any others. */
      g_autofree guint8 *below = g_new0 (guint8, MAX (source->n_nodes, 1));

      for (guint32 v = 1; v < source->n_nodes; v++)
        {
          gboolean here = source->method[v] == transform->method;

          if (here && !below[source->parent[v]])
            feed_kid (sorter, transform->method, v);
          below[v] = below[source->parent[v]] || here;
        }
    }
  end_nodes (sorter, 1);
  place_kids (reshape, 1);
}

/* The next level's nodes become the level's. */
static void
next_level (Reshape *reshape)
{
  Level done = reshape->level;

  reshape->next.start[reshape->next.n_nodes] = reshape->next.n_feeders;
  reshape->level = reshape->next;
  reshape->next = done;
  reshape->next.n_nodes = 0;
  reshape->next.n_feeders = 0;
  reshape->level_first = reshape->next_first;
}

/* The result, a level at a time, each wide level shared by two workers;
 * FALSE when cancelled. */
static gboolean
make_levels (Reshape *reshape)
{
  StrataCallTree *result = reshape->result;

  make_top (reshape);
  while (reshape->next.n_nodes > 0)
    {
      guint32 n, split;
      guint n_sorters;

      next_level (reshape);
      n = reshape->level.n_nodes;
      n_sorters = reshape->n_workers > 1 && reshape->level.start[n] >= SHARED_MIN_NODES ? 2 : 1;
      split = n_sorters > 1 ? split_nodes (&reshape->level, n) : n;
      sorter_begin (&reshape->sorters[0], 0, split);
      sorter_begin (&reshape->sorters[1], split, n);
      strata_call_tree_run_two (sorter_sort, &reshape->sorters[0], n_sorters > 1 ? &reshape->sorters[1] : NULL);
      if (reshape->sorters[0].cancelled || reshape->sorters[1].cancelled)
        return FALSE;
      place_kids (reshape, n_sorters);
    }
  result->first_child[result->n_nodes] = result->n_nodes;
  return TRUE;
}

/* ---- Laying out ---- */

typedef struct
{
  const gint64  *total;
  const guint32 *code;
} Order;

static int
compare_nodes (gconstpointer a,
               gconstpointer b,
               gpointer      data)
{
  const Order *order = data;
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  if (order->total[x] != order->total[y])
    return order->total[x] > order->total[y] ? -1 : 1;
  return order->code[x] < order->code[y] ? -1 : order->code[x] > order->code[y];
}

/* Largest first, ties by code; most nodes have a few children. */
static void
sort_nodes (guint32     *nodes,
            guint32      n,
            const Order *order)
{
  if (n > 16)
    {
      g_qsort_with_data (nodes, n, sizeof (guint32), compare_nodes, (gpointer) order);
      return;
    }
  for (guint32 i = 1; i < n; i++)
    {
      guint32 key = nodes[i], j = i;

      for (; j > 0 && compare_nodes (&nodes[j - 1], &key, (gpointer) order) > 0; j--)
        nodes[j] = nodes[j - 1];
      nodes[j] = key;
    }
}

/* Each node's total, summed from the selfs: children come after their
 * parents. The own arrays become the totals. */
static void
sum_totals (Reshape *reshape)
{
  StrataCallTree *result = reshape->result;

  for (guint32 v = result->n_nodes; v-- > 1;)
    for (guint c = 0; c < result->n_clocks; c++)
      reshape->own[c][result->parent[v]] += reshape->own[c][v];
}

/* Whether @n nodes from @first, siblings, are in order already: a
 * transform moves few. */
static gboolean
in_order (guint32      first,
          guint32      n,
          const Order *order)
{
  for (guint32 k = first + 1; k < first + n; k++)
    {
      guint32 previous = k - 1;

      if (compare_nodes (&previous, &k, (gpointer) order) > 0)
        return FALSE;
    }
  return TRUE;
}

/* The result numbered breadth first anew, each node's children largest
 * first, into the tree's arrays, in one pass: a node's children are
 * placed, in order, when the node is reached. */
static void
lay_out (Reshape *reshape)
{
  StrataCallTree *result = reshape->result;
  guint32 n = result->n_nodes, tail = 1;
  g_autofree guint32 *order = strata_memory_new_large (MAX (n, 1), sizeof (guint32));
  guint32 *first_child = strata_memory_new_large ((gsize) n + 1, sizeof (guint32));
  guint32 *parent = strata_memory_new_large (MAX (n, 1), sizeof (guint32));
  guint32 *method = strata_memory_new_large (MAX (n, 1), sizeof (guint32));
  guint32 *calls = strata_memory_new_large (MAX (n, 1), sizeof (guint32));
  gint64 *total[STRATA_MAX_CLOCKS] = { NULL };
  Order by_total = { reshape->own[0], result->method };

  for (guint c = 0; c < result->n_clocks; c++)
    total[c] = strata_memory_new_large (MAX (n, 1), sizeof (gint64));
  order[0] = STRATA_CALL_TREE_ROOT;
  parent[0] = STRATA_CALL_TREE_NONE;
  for (guint32 i = 0; i < n; i++)
    {
      guint32 old = order[i], first = result->first_child[old], n_children = result->first_child[old + 1] - first;

      first_child[i] = tail;
      for (guint32 k = 0; k < n_children; k++)
        order[tail + k] = first + k;
      if (n_children > 1 && !in_order (first, n_children, &by_total))
        sort_nodes (order + tail, n_children, &by_total);
      for (guint32 k = tail; k < tail + n_children; k++)
        parent[k] = i;
      tail += n_children;
      method[i] = result->method[old];
      calls[i] = (guint32) MIN (reshape->calls[old], G_MAXUINT32);
      for (guint c = 0; c < result->n_clocks; c++)
        total[c][i] = reshape->own[c][old];
    }
  first_child[n] = n;
  g_free (result->parent);
  g_free (result->method);
  g_free (result->first_child);
  result->parent = parent;
  result->method = method;
  result->first_child = first_child;
  result->calls = calls;
  for (guint c = 0; c < result->n_clocks; c++)
    result->total[c] = total[c];
}

/* ---- The whole ---- */

static void
sorter_init (Sorter  *sorter,
             Reshape *reshape)
{
  *sorter = (Sorter) { 0 };
  sorter->reshape = reshape;
  strata_kid_table_init (&sorter->kid_of, reshape->n_buckets);
  sorter->place = g_new (gsize, reshape->n_buckets);
  sorter->open_alloc = 64;
  sorter->open = strata_memory_new_large (sorter->open_alloc, sizeof (guint32));
}

static void
sorter_clear (Sorter *sorter)
{
  strata_kid_table_clear (&sorter->kid_of);
  g_free (sorter->place);
  g_free (sorter->open);
  g_free (sorter->kids);
  g_free (sorter->feeds);
  g_free (sorter->node_kids);
  g_free (sorter->node_feeds);
}

static void
reshape_init (Reshape                   *reshape,
              StrataCallTree            *source,
              StrataCallTree            *result,
              const StrataCallTransform *transform,
              GCancellable              *cancellable)
{
  guint n_threads = strata_trace_get_n_threads (source->trace);

  *reshape = (Reshape) { 0 };
  reshape->source = source;
  reshape->result = result;
  reshape->transform = transform;
  reshape->cancellable = cancellable;
  reshape->n_workers = source->n_nodes >= SHARED_MIN_NODES ? MIN (g_get_num_processors (), 2) : 1;
  if (transform->kind == STRATA_CALL_TRANSFORM_COLLAPSE_PREFIX)
    {
      reshape->collapsed = synthetic_code (result, transform->prefix);
      reshape->prefixed = match_prefix (source->trace, transform->prefix);
    }
  if (transform->kind == STRATA_CALL_TRANSFORM_COLLAPSE_RECURSION)
    find_inner_calls (reshape);
  reshape->n_methods = strata_trace_get_n_methods (source->trace);
  reshape->n_synthetic = result->synthetic != NULL ? result->synthetic->len : 0;
  reshape->n_buckets = MAX (reshape->n_methods + reshape->n_synthetic + n_threads, 1);
  sorter_init (&reshape->sorters[0], reshape);
  sorter_init (&reshape->sorters[1], reshape);
  alloc_nodes (reshape);
}

static void
reshape_clear (Reshape *reshape)
{
  g_free (reshape->prefixed);
  g_free (reshape->inner_start);
  g_free (reshape->inner);
  g_free (reshape->is_inner);
  for (guint c = 0; c < STRATA_MAX_CLOCKS; c++)
    g_free (reshape->own[c]);
  g_free (reshape->calls);
  sorter_clear (&reshape->sorters[0]);
  sorter_clear (&reshape->sorters[1]);
  g_free (reshape->level.feeders);
  g_free (reshape->level.start);
  g_free (reshape->next.feeders);
  g_free (reshape->next.start);
}

/**
 * strata_call_tree_transform:
 *
 * A top-down tree reshaped: each node's self time (and calls) moves to
 * where its path leads after @transform, or goes with its path; totals
 * are summed again from the selfs.
 *
 * Returns: (transfer full): the new tree, or %NULL with @error set when
 *   cancelled
 */
StrataCallTree *
strata_call_tree_transform (StrataCallTree            *self,
                            const StrataCallTransform *transform,
                            GCancellable              *cancellable,
                            GError                   **error)
{
  g_autoptr(StrataCallTree) result = NULL;
  Reshape reshape;
  gboolean done;

  g_return_val_if_fail (STRATA_IS_CALL_TREE (self), NULL);
  g_return_val_if_fail (strata_call_tree_get_kind (self) == STRATA_CALL_TREE_TOP_DOWN, NULL);

  result = strata_call_tree_new_blank (self->trace, STRATA_CALL_TREE_TOP_DOWN, self->n_clocks);
  if (self->synthetic != NULL)
    {
      result->synthetic = g_ptr_array_new_with_free_func (g_free);
      for (guint i = 0; i < self->synthetic->len; i++)
        g_ptr_array_add (result->synthetic, g_strdup (g_ptr_array_index (self->synthetic, i)));
    }
  reshape_init (&reshape, self, result, transform, cancellable);
  done = make_levels (&reshape);
  if (done)
    {
      sum_totals (&reshape);
      lay_out (&reshape);
    }
  reshape_clear (&reshape);
  if (!done)
    {
      g_cancellable_set_error_if_cancelled (cancellable, error);
      return NULL;
    }
  return g_steal_pointer (&result);
}
