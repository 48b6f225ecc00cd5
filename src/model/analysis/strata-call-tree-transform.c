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
 * A node's total is known as it is made: its feeders' totals, less what
 * leaves their subtrees (calls dropped, or taken up by an outer call of
 * a recursion). So each node's children are ordered, largest first, as
 * they are placed, and the next level is made in that order: the result
 * is written breadth first where it stays, with no pass to number it
 * anew. Most nodes take one node of the tree whose children stay as they
 * are: those are copied straight from the tree, block by block where
 * neighbouring nodes do the same, without being sorted out.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "strata-call-tree-reshape-private.h"
#include "strata-memory.h"
/* ---- Sorting children out ---- */

/* What @node (a child of @parent in the tree) becomes, and its code as
 * a child in @code. */
static inline Fate
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
      return strata_reshape_is_inner (reshape, parent, node) ? FATE_NONE : FATE_CHILD;
    case STRATA_CALL_TRANSFORM_COLLAPSE_PREFIX:
      if (!strata_reshape_has_prefix (reshape->prefixed, method))
        return FATE_CHILD;
      if (parent != STRATA_CALL_TREE_ROOT && strata_reshape_has_prefix (reshape->prefixed, reshape->source->method[parent]))
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
    kid->total[c] += strata_reshape_staying (reshape, node, c);
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
  gsize n_inner;
  const Inner *inner = strata_reshape_inner_calls (sorter->reshape, node, &n_inner);

  feed_kid (sorter, code, node);
  for (gsize i = 0; i < n_inner; i++)
    feed_kid (sorter, code, inner[i].node);
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
  sorter->n_kids = sorter->n_feeds = sorter->n_copied = 0;
  sorter->cancelled = FALSE;
  sorter->node_kids = strata_memory_reserve_large (sorter->node_kids, 0, n, &sorter->node_kids_alloc, sizeof (guint32));
  sorter->node_feeds = strata_memory_reserve_large (sorter->node_feeds, 0, n, &sorter->node_feeds_alloc, sizeof (guint32));
  sorter->copied = strata_memory_reserve_large (sorter->copied, 0, n, &sorter->copied_alloc, sizeof (guint32));
  sorter->whole = strata_memory_reserve_large (sorter->whole, 0, n, &sorter->whole_alloc, sizeof (guint8));
}

/* Whether @child, among its siblings, keeps its place when it takes
 * another code: its total differs from theirs on either side, so its
 * code decides nothing. */
static gboolean
keeps_place (const StrataCallTree *source,
             guint32               parent,
             guint32               child)
{
  const gint64 *total = source->total[0];

  return (child == source->first_child[parent] || total[child - 1] != total[child]) &&
         (child + 1 == source->first_child[parent + 1] || total[child + 1] != total[child]);
}

/* How many kids copying @parent's children gives: each child a kid as
 * it is, or nothing, as children of one node mostly are (their methods
 * differ, so there is nothing to group, and their order is kept); or -1
 * when they must be sorted out. One child may take another code (a
 * collapsed name) where that keeps its place; *@renamed tells. */
static gssize
count_copies (const Reshape *reshape,
              guint32        parent,
              gboolean      *renamed)
{
  const StrataCallTree *source = reshape->source;
  gssize n = 0;

  *renamed = FALSE;
  for (guint32 child = source->first_child[parent]; child < source->first_child[parent + 1]; child++)
    {
      guint32 code;
      Fate fate = fate_of (reshape, parent, child, &code);

      if (fate == FATE_NONE)
        continue;
      if (fate == FATE_MERGED ||
          (code != source->method[child] && (*renamed || !keeps_place (source, parent, child))) ||
          (reshape->has_leaving != NULL && strata_reshape_has_leaving (reshape, child)) ||
          (reshape->inner != NULL && strata_reshape_is_call_of (reshape, child)))
        return -1;
      *renamed |= code != source->method[child];
      n++;
    }
  return n;
}

/* The children of the feeders of a result node, sorted out into its
 * kids, the node itself (frames merged into it, whose time it has
 * already) or nothing. */
static void
sort_out_children (Sorter        *sorter,
                   guint32        k,
                   const guint32 *feeders,
                   gsize          n_feeders)
{
  Reshape *reshape = sorter->reshape;
  const StrataCallTree *source = reshape->source;
  gsize n_open = n_feeders;
  gssize n_copies;
  gboolean renamed;

  sorter->copied[k] = NO_NODE;
  if (n_feeders == 1 && (n_copies = count_copies (reshape, feeders[0], &renamed)) >= 0)
    {
      sorter->copied[k] = feeders[0];
      sorter->whole[k] = !renamed && (guint32) n_copies == source->first_child[feeders[0] + 1] - source->first_child[feeders[0]];
      sorter->n_copied += n_copies;
      return;
    }
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
              if (reshape->inner != NULL && strata_reshape_is_call_of (reshape, child))
                feed_outermost (sorter, code, child);
              else
                feed_kid (sorter, code, child);
              break;
            case FATE_MERGED:
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
      sort_out_children (sorter, k - sorter->first, level->feeders + level->start[k], level->start[k + 1] - level->start[k]);
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
  level->start = strata_memory_reserve_large (level->start, level->n_nodes, n_nodes + 1, &level->start_alloc, sizeof (guint32));
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
  result->calls = strata_memory_new_large (n, sizeof (guint32));
  for (guint c = 0; c < result->n_clocks; c++)
    result->total[c] = strata_memory_new_large (n, sizeof (gint64));
}

/* Largest total on the first clock first, ties by code: the order every
 * top-down tree keeps. */
static inline gboolean
kid_before (const Kid *a,
            const Kid *b)
{
  if (a->total[0] != b->total[0])
    return a->total[0] > b->total[0];
  return a->code < b->code;
}

static int
compare_kids (gconstpointer a,
              gconstpointer b,
              gpointer      data)
{
  const Kid *kids = data;
  const Kid *x = &kids[*(const guint32 *) a], *y = &kids[*(const guint32 *) b];

  return kid_before (x, y) ? -1 : kid_before (y, x) ? 1 : 0;
}

/* @rank filled with @kids' indices, largest first; most nodes have a few
 * kids, mostly in order already. */
static void
rank_kids (guint32   *rank,
           const Kid *kids,
           guint32    n)
{
  for (guint32 i = 0; i < n; i++)
    rank[i] = i;
  if (n > 16)
    {
      g_qsort_with_data (rank, n, sizeof (guint32), compare_kids, (gpointer) kids);
      return;
    }
  for (guint32 i = 1; i < n; i++)
    {
      guint32 key = rank[i], j = i;

      for (; j > 0 && kid_before (&kids[key], &kids[rank[j - 1]]); j--)
        rank[j] = rank[j - 1];
      rank[j] = key;
    }
}

/* The children of @parent in the tree copied as those of @at from @node
 * on, each its own feeder from *@feeders on; returns the next node. */
static guint32
copy_children (Reshape *reshape,
               guint32  at,
               guint32  parent,
               guint32  node,
               guint32 *feeders)
{
  const StrataCallTree *source = reshape->source;
  StrataCallTree *result = reshape->result;
  Level *next = &reshape->next;

  for (guint32 child = source->first_child[parent]; child < source->first_child[parent + 1]; child++)
    {
      guint32 code;

      if (fate_of (reshape, parent, child, &code) == FATE_NONE)
        continue;
      result->parent[node] = at;
      result->method[node] = code;
      result->calls[node] = source->calls[child];
      for (guint c = 0; c < result->n_clocks; c++)
        result->total[c][node] = source->total[c][child];
      next->start[node - reshape->next_first] = *feeders;
      next->feeders[(*feeders)++] = child;
      node++;
    }
  return node;
}

/* The children of @n nodes of the tree from @parent on, all copied, as
 * those of @n from @at on, from @node on: the same consecutive nodes of
 * the tree, block by block. Each is its own feeder, from *@feeders on.
 * Returns the next node. */
static guint32
copy_all_children (Reshape *reshape,
                   guint32  at,
                   guint32  parent,
                   guint32  n,
                   guint32  node,
                   guint32 *feeders)
{
  const StrataCallTree *source = reshape->source;
  StrataCallTree *result = reshape->result;
  Level *next = &reshape->next;
  guint32 first = source->first_child[parent], n_children = source->first_child[parent + n] - first;
  guint32 *start = next->start + (node - reshape->next_first), *fed = next->feeders + *feeders;
  guint32 shift = at - parent;   /* modulo 2^32: a tree's parent to the result's */

  for (guint32 i = 0; i < n; i++)
    result->first_child[at + i] = node + (source->first_child[parent + i] - first);
  memcpy (result->method + node, source->method + first, n_children * sizeof (guint32));
  memcpy (result->calls + node, source->calls + first, n_children * sizeof (guint32));
  for (guint c = 0; c < result->n_clocks; c++)
    memcpy (result->total[c] + node, source->total[c] + first, n_children * sizeof (gint64));
  for (guint32 i = 0; i < n_children; i++)
    {
      result->parent[node + i] = source->parent[first + i] + shift;
      start[i] = *feeders + i;
      fed[i] = first + i;
    }
  *feeders += n_children;
  return node + n_children;
}

/* How many of the sorter's nodes from @k on copy all the children of
 * consecutive nodes of the tree. */
static guint32
whole_copies (const Sorter *sorter,
              guint32       k)
{
  guint32 n = sorter->last - sorter->first, j = k;

  if (sorter->copied[k] == NO_NODE || !sorter->whole[k])
    return 0;
  while (j < n && sorter->copied[j] == sorter->copied[k] + (j - k) && sorter->whole[j])
    j++;
  return j - k;
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
  guint32 feeders = sorter->feeder_base;

  for (guint32 k = 0; k < sorter->last - sorter->first; k++)
    {
      guint32 at = reshape->level_first + sorter->first + k;
      const Kid *kids = sorter->kids + sorter->node_kids[k];
      guint32 n_kids = (guint32) (sorter->node_kids[k + 1] - sorter->node_kids[k]);
      guint32 n_whole = whole_copies (sorter, k);

      if (n_whole > 0)
        {
          node = copy_all_children (reshape, at, sorter->copied[k], n_whole, node, &feeders);
          k += n_whole - 1;
          continue;
        }
      result->first_child[at] = node;
      if (sorter->copied[k] != NO_NODE)
        {
          node = copy_children (reshape, at, sorter->copied[k], node, &feeders);
          continue;
        }
      rank_kids (sorter->rank, kids, n_kids);
      for (guint32 r = 0; r < n_kids; r++, node++)
        {
          const Kid *kid = &kids[sorter->rank[r]];

          result->parent[node] = at;
          result->method[node] = kid->code;
          result->calls[node] = (guint32) MIN (kid->calls, G_MAXUINT32);
          for (guint c = 0; c < result->n_clocks; c++)
            result->total[c][node] = kid->total[c];
          next->start[node - reshape->next_first] = feeders;
          sorter->place[sorter->rank[r]] = feeders;
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
      /* A feed per feeder; a copied child feeds itself. */
      n_kids += reshape->sorters[w].n_kids + reshape->sorters[w].n_copied;
      n_feeders += reshape->sorters[w].n_feeds + reshape->sorters[w].n_copied;
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

  result->parent[0] = STRATA_CALL_TREE_NONE;
  result->method[0] = STRATA_CALL_TREE_NONE;
  result->calls[0] = 0;
  result->n_nodes = 1;
  reshape->level_first = STRATA_CALL_TREE_ROOT;
  sorter_begin (sorter, 0, 1);
  begin_node (sorter, 0);
  sorter->copied[0] = NO_NODE;
  if (!focus)
    sort_out_children (sorter, 0, &root, 1);
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
  /* The root keeps its own time (threads outside calls) unless focused. */
  for (guint c = 0; c < source->n_clocks; c++)
    {
      result->total[c][0] = focus ? 0 : strata_reshape_staying (reshape, STRATA_CALL_TREE_ROOT, c);
      for (gsize j = 0; focus && j < sorter->n_kids; j++)
        result->total[c][0] += sorter->kids[j].total[c];
    }
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

/* ---- The whole ---- */

static void
sorter_init (Sorter  *sorter,
             Reshape *reshape)
{
  *sorter = (Sorter) { 0 };
  sorter->reshape = reshape;
  strata_kid_table_init (&sorter->kid_of, reshape->n_buckets);
  sorter->place = g_new (guint32, reshape->n_buckets);
  sorter->rank = g_new (guint32, reshape->n_buckets);
  sorter->open_alloc = 64;
  sorter->open = strata_memory_new_large (sorter->open_alloc, sizeof (guint32));
}

static void
sorter_clear (Sorter *sorter)
{
  strata_kid_table_clear (&sorter->kid_of);
  g_free (sorter->place);
  g_free (sorter->rank);
  g_free (sorter->open);
  g_free (sorter->kids);
  g_free (sorter->feeds);
  g_free (sorter->node_kids);
  g_free (sorter->node_feeds);
  g_free (sorter->copied);
  g_free (sorter->whole);
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
      reshape->collapsed = strata_reshape_synthetic_code (result, transform->prefix);
      reshape->prefixed = strata_reshape_match_prefix (source->trace, transform->prefix);
    }
  if (transform->kind == STRATA_CALL_TRANSFORM_COLLAPSE_RECURSION ||
      transform->kind == STRATA_CALL_TRANSFORM_DROP_FUNCTION)
    strata_reshape_find_leaving (reshape);
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
  g_free (reshape->under);
  g_free (reshape->inner);
  g_free (reshape->has_leaving);
  for (guint c = 0; c < STRATA_MAX_CLOCKS; c++)
    g_free (reshape->leaving[c]);
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
 * where its path leads after @transform, or goes with its path.
 *
 * Returns: (transfer full): the new tree, or %NULL with @error set when
 *   cancelled
 */
StrataCallTree *
strata_call_tree_transform (StrataCallTree             *self,
                            const StrataCallTransform  *transform,
                            GCancellable               *cancellable,
                            GError                    **error)
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
  /* The room of a result much smaller than its source (a focus) given
   * back. */
  if (done && result->n_nodes < self->n_nodes / 2)
    strata_call_tree_fit (result);
  reshape_clear (&reshape);
  if (!done)
    {
      g_cancellable_set_error_if_cancelled (cancellable, error);
      return NULL;
    }
  return g_steal_pointer (&result);
}

