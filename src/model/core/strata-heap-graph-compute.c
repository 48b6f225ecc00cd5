/* strata-heap-graph-compute.c: what keeps what alive in a heap graph
 *
 * The dominator tree comes from the Semi-NCA algorithm (Georgiadis,
 * "Linear-time algorithms for dominators and related problems", 2005): a
 * depth-first numbering from the virtual root, semidominators computed in
 * reverse preorder with path compression, then each immediate dominator
 * as the nearest common ancestor of the parent and the semidominator.
 * Every walk is iterative, with explicit stacks, so a linked list of
 * millions of objects is as cheap as a bushy tree. An object's retained
 * size is its shallow size plus that of everything it dominates.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include "strata-heap-graph-private.h"
#include "strata-radix-sort.h"
#include "strata-memory.h"

/* ---- Referrers ---- */

void
strata_heap_graph_build_referrers (StrataHeapGraph *self)
{
  guint32 n_edges = self->first[self->n];
  guint32 *fill;

  self->rev_first = g_new0 (guint32, (gsize) self->n + 1);
  self->rev_sources = g_new (guint32, MAX (n_edges, 1));
  for (guint32 e = 0; e < n_edges; e++)
    self->rev_first[self->targets[e] + 1]++;
  for (guint32 i = 0; i < self->n; i++)
    self->rev_first[i + 1] += self->rev_first[i];
  fill = g_memdup2 (self->rev_first, (gsize) self->n * sizeof (guint32));
  for (guint32 i = 0; i < self->n; i++)
    for (guint32 e = self->first[i]; e < self->first[i + 1]; e++)
      self->rev_sources[fill[self->targets[e]]++] = i;
  g_free (fill);
}

/* ---- Dominators (Semi-NCA) ----
 *
 * Vertices are the n objects and the virtual root, numbered n. Arrays in
 * preorder space are indexed by depth-first number; the root is 0. */

typedef struct
{
  const StrataHeapGraph *graph;
  guint32  n_vertices;     /* n + 1 */
  guint32  n_reached;
  guint32 *pre;            /* vertex -> preorder number, STRATA_HEAP_GRAPH_NONE if unreached */
  guint32 *vertex;         /* preorder number -> vertex */
  guint32 *parent;         /* preorder numbers */
  guint32 *semi;
  guint32 *label;          /* the depth-first walk's next edges before */
  guint32 *ancestor;
  GArray  *path;           /* guint32: eval's path, as long as it gets */
  StrataHeapGraphProgress progress;   /* told how far, or NULL */
  gpointer progress_data;
} Dominators;

/* Tells how far the computation is, from 0 to 1. */
static void
tell_progress (const Dominators *d,
               double            fraction)
{
  if (d->progress != NULL)
    d->progress (d->progress_data, fraction);
}

/* The successors of @v: its references, or for the root the GC roots. */
static inline const guint32 *
successors (const StrataHeapGraph *graph,
            guint32                v,
            guint32               *n)
{
  if (v == graph->n)
    {
      *n = graph->n_roots;
      return graph->roots;
    }
  *n = graph->first[v + 1] - graph->first[v];
  return graph->targets + graph->first[v];
}

/* The walk's stack is the chain of parents: going back up is following
 * parent[], so it needs no array of its own. @next_edge (per preorder
 * number) becomes the label array afterwards. */
static gboolean
number_depth_first (Dominators   *d,
                    guint32      *next_edge,
                    GCancellable *cancellable)
{
  const StrataHeapGraph *graph = d->graph;
  guint32 current = 0;

  d->pre[graph->n] = 0;
  d->vertex[0] = graph->n;
  d->parent[0] = 0;
  d->n_reached = 1;
  next_edge[0] = 0;
  for (;;)
    {
      guint32 v = d->vertex[current], n_succ, w;
      const guint32 *succ = successors (graph, v, &n_succ);

      if (next_edge[current] == n_succ)
        {
          if (current == 0)
            return TRUE;
          current = d->parent[current];
          continue;
        }
      w = succ[next_edge[current]++];
      if (d->pre[w] != STRATA_HEAP_GRAPH_NONE)
        continue;
      d->pre[w] = d->n_reached;
      d->vertex[d->n_reached] = w;
      d->parent[d->n_reached] = current;
      next_edge[d->n_reached] = 0;
      current = d->n_reached;
      if (++d->n_reached % STRATA_HEAP_GRAPH_CANCEL_INTERVAL == 0 &&
          (tell_progress (d, 0.25 * d->n_reached / d->n_vertices), g_cancellable_is_cancelled (cancellable)))
        return FALSE;
    }
}

/* The least semidominator on the path from @v up to (not including) the
 * root of its tree in the forest linked so far; compresses that path. */
static guint32
eval (Dominators *d,
      guint32     v)
{
  guint32 x = v;

  if (d->ancestor[v] == STRATA_HEAP_GRAPH_NONE)
    return d->label[v];
  g_array_set_size (d->path, 0);
  while (d->ancestor[d->ancestor[x]] != STRATA_HEAP_GRAPH_NONE)
    {
      g_array_append_val (d->path, x);
      x = d->ancestor[x];
    }
  for (guint n = d->path->len; n > 0; n--)
    {
      guint32 a;

      x = g_array_index (d->path, guint32, n - 1);
      a = d->ancestor[x];
      if (d->label[a] < d->label[x])
        d->label[x] = d->label[a];
      d->ancestor[x] = d->ancestor[a];
    }
  return d->label[v];
}

static gboolean
compute_semidominators (Dominators   *d,
                        GCancellable *cancellable)
{
  const StrataHeapGraph *graph = d->graph;
  /* The roots as bits: asked of every vertex, a search each took 5 %. */
  g_autofree guint64 *is_root = g_new0 (guint64, graph->n / 64 + 1);

  for (guint32 r = 0; r < graph->n_roots; r++)
    is_root[graph->roots[r] / 64] |= G_GUINT64_CONSTANT (1) << (graph->roots[r] % 64);
  for (guint32 i = 0; i < d->n_reached; i++)
    {
      d->semi[i] = d->label[i] = i;
      d->ancestor[i] = STRATA_HEAP_GRAPH_NONE;
    }
  for (guint32 i = d->n_reached - 1; i > 0; i--)
    {
      guint32 w = d->vertex[i];

      /* A GC root has the virtual root among its predecessors. */
      if (w < graph->n && (is_root[w / 64] >> (w % 64)) & 1)
        d->semi[i] = 0;
      for (guint32 e = graph->rev_first[w]; w < graph->n && e < graph->rev_first[w + 1]; e++)
        {
          guint32 v = graph->rev_sources[e];
          guint32 s;

          if (v == STRATA_HEAP_GRAPH_NONE)
            continue;
          s = eval (d, v);
          if (s < d->semi[i])
            d->semi[i] = s;
        }
      d->label[i] = d->semi[i];
      d->ancestor[i] = d->parent[i];
      if (i % STRATA_HEAP_GRAPH_CANCEL_INTERVAL == 0 &&
          (tell_progress (d, 0.55 + 0.1 * (d->n_reached - i) / d->n_reached), g_cancellable_is_cancelled (cancellable)))
        return FALSE;
    }
  return TRUE;
}

/* Each immediate dominator is the nearest ancestor of the parent in the
 * dominator tree built so far whose number is at most the semidominator. */
static void
compute_idoms (Dominators *d,
               guint32    *idom_pre)
{
  idom_pre[0] = 0;
  for (guint32 i = 1; i < d->n_reached; i++)
    {
      guint32 x = d->parent[i];

      while (x > d->semi[i])
        x = idom_pre[x];
      idom_pre[i] = x;
    }
}

/* In reverse preorder each object is done before its dominator, which
 * then adds it: the sums build in place. */
static void
sum_retained (StrataHeapGraph *self,
              Dominators      *d,
              const guint32   *idom_pre)
{
  self->retained_lo = g_new0 (guint32, MAX (self->n, 1));
  self->retained_hi = g_new0 (guint8, MAX (self->n, 1));
  self->idom = g_new (guint32, MAX (self->n, 1));
  self->reached = g_new0 (guint64, (gsize) self->n / 64 + 1);
  memset (self->idom, 0xff, (gsize) MAX (self->n, 1) * sizeof (guint32));
  self->reachable_bytes = 0;
  for (guint32 i = d->n_reached - 1; i > 0; i--)
    {
      guint32 v = d->vertex[i];
      guint32 dom = d->vertex[idom_pre[i]];

      guint64 retained = strata_heap_graph_retained_of (self, v) + strata_heap_graph_get_shallow (self, v);

      strata_heap_graph_set_retained (self, v, retained);
      if (dom == self->n)
        self->reachable_bytes += retained;
      else
        {
          strata_heap_graph_set_retained (self, dom, strata_heap_graph_retained_of (self, dom) + retained);
          self->idom[v] = dom;
        }
      self->reached[v / 64] |= G_GUINT64_CONSTANT (1) << (v % 64);
    }
  self->n_unreachable = self->n - (d->n_reached - 1);
}

/* ---- The dominator tree, as rows of children ---- */

/* Largest retained size first; the same sizes in object order. */
int
strata_heap_graph_compare_by_retained (gconstpointer a,
                                       gconstpointer b,
                                       gpointer      graph)
{
  guint64 x = strata_heap_graph_retained_of (graph, *(const guint32 *) a);
  guint64 y = strata_heap_graph_retained_of (graph, *(const guint32 *) b);

  if (x != y)
    return x > y ? -1 : 1;
  return strata_heap_graph_compare_u32 (a, b);
}

/* Rows this long are sorted by radix, not by comparisons: an array of
 * 20 million elements took 3 s in a comparison sort. */
#define RADIX_ROW 4096

/* Sorts a row of children, in object order now, largest retained first:
 * each becomes (the complement of its retained size, its place), sorted
 * by the size alone, stably. A row with a child that retains 4 GB or
 * more is sorted by comparisons. */
static void
sort_row (StrataHeapGraph *self,
          guint32         *row,
          guint32          n)
{
  g_autofree guint64 *keys = NULL;
  gboolean by_radix = n >= RADIX_ROW;

  for (guint32 i = 0; i < n && by_radix; i++)
    by_radix = strata_heap_graph_retained_of (self, row[i]) <= G_MAXUINT32;
  if (!by_radix)
    {
      g_qsort_with_data (row, n, sizeof (guint32), strata_heap_graph_compare_by_retained, self);
      return;
    }
  keys = g_new (guint64, n);
  for (guint32 i = 0; i < n; i++)
    keys[i] = (guint64) (G_MAXUINT32 - strata_heap_graph_retained_of (self, row[i])) << 32 | row[i];
  strata_radix_sort_u64 (keys, n, 32);
  for (guint32 i = 0; i < n; i++)
    row[i] = (guint32) keys[i];
}

static void
build_dominator_rows (StrataHeapGraph *self)
{
  guint32 n_rows = self->n + 1;   /* row n: the virtual root's */
  g_autofree guint32 *fill = NULL;
  guint32 n_children = 0;

  self->dom_first = g_new0 (guint32, (gsize) n_rows + 1);
  for (guint32 i = 0; i < self->n; i++)
    if (strata_heap_graph_is_reached (self, i))
      {
        self->dom_first[(self->idom[i] == STRATA_HEAP_GRAPH_NONE ? self->n : self->idom[i]) + 1]++;
        n_children++;
      }
  for (guint32 r = 0; r < n_rows; r++)
    self->dom_first[r + 1] += self->dom_first[r];
  self->dom_children = g_new (guint32, MAX (n_children, 1));
  fill = g_memdup2 (self->dom_first, (gsize) n_rows * sizeof (guint32));
  for (guint32 i = 0; i < self->n; i++)
    if (strata_heap_graph_is_reached (self, i))
      self->dom_children[fill[self->idom[i] == STRATA_HEAP_GRAPH_NONE ? self->n : self->idom[i]]++] = i;
  /* Gone before the sorts, which take room of their own: the peak. */
  g_clear_pointer (&fill, g_free);
  for (guint32 r = 0; r < n_rows; r++)
    if (self->dom_first[r + 1] - self->dom_first[r] > 1)
      sort_row (self, self->dom_children + self->dom_first[r], self->dom_first[r + 1] - self->dom_first[r]);
}

/* ---- Shortest paths from the roots ---- */

#define UNSEEN (STRATA_HEAP_GRAPH_NONE - 1)

void
strata_heap_graph_search_breadth_first (StrataHeapGraph *self)
{
  g_autofree guint32 *queue = g_new (guint32, MAX (self->n, 1));
  guint32 head = 0, tail = 0;

  self->bfs_parent = g_new (guint32, MAX (self->n, 1));
  for (guint32 v = 0; v < self->n; v++)
    self->bfs_parent[v] = UNSEEN;
  for (guint32 r = 0; r < self->n_roots; r++)
    {
      self->bfs_parent[self->roots[r]] = STRATA_HEAP_GRAPH_NONE;
      queue[tail++] = self->roots[r];
    }
  while (head < tail)
    {
      guint32 v = queue[head++];

      for (guint32 e = self->first[v]; e < self->first[v + 1]; e++)
        {
          guint32 w = self->targets[e];

          if (self->bfs_parent[w] != UNSEEN)
            continue;
          self->bfs_parent[w] = v;
          queue[tail++] = w;
        }
    }
}

/**
 * strata_heap_graph_compute:
 *
 * Referrers, the dominator tree, retained sizes and shortest paths from
 * the GC roots. Call once, after the references and roots are set.
 * @progress, if not %NULL, is told how far it is, from 0 to 1, each step
 * weighed by the time it took on a 35 M-object heap.
 *
 * Returns: %FALSE when cancelled
 */
/* The referrers, in preorder numbers, for the semidominators only: the
 * number of each vertex replaces it, and unreached ones become STRATA_HEAP_GRAPH_NONE. */
static void
number_referrers (StrataHeapGraph *self,
                  const guint32   *pre)
{
  guint32 n_edges = self->first[self->n];

  for (guint32 e = 0; e < n_edges; e++)
    self->rev_sources[e] = pre[self->rev_sources[e]];
}

static gpointer
move_shallow (gpointer data)
{
  StrataHeapGraph *self = data;

  self->shallow = strata_scratch_move (self->shallow, (gsize) MAX (self->n, 1) * sizeof (guint32), &self->shallow_mapped);
  return NULL;
}

/* Classes and shallow sizes to scratch files, one on each core: copying
 * 280 MB into the page cache takes half a second on one. */
static void
move_to_scratch (StrataHeapGraph *self)
{
  GThread *worker = NULL;

  if (!self->shallow_mapped)
    worker = g_thread_try_new ("strata-scratch", move_shallow, self, NULL);
  if (!self->classes_mapped)
    self->classes = strata_scratch_move (self->classes, (gsize) MAX (self->n, 1) * sizeof (guint32), &self->classes_mapped);
  if (worker != NULL)
    g_thread_join (worker);
  else if (!self->shallow_mapped)
    move_shallow (self);
}

gboolean
strata_heap_graph_compute (StrataHeapGraph         *self,
                           GCancellable            *cancellable,
                           StrataHeapGraphProgress  progress,
                           gpointer                 progress_data)
{
  Dominators d = { .graph = self, .n_vertices = self->n + 1, .progress = progress, .progress_data = progress_data };
  guint32 *idom_pre;
  gboolean ok;

  move_to_scratch (self);
  d.pre = g_new (guint32, d.n_vertices);
  memset (d.pre, 0xff, (gsize) d.n_vertices * sizeof (guint32));
  d.vertex = g_new (guint32, d.n_vertices);
  d.parent = g_new (guint32, d.n_vertices);
  d.label = g_new (guint32, d.n_vertices);
  d.path = g_array_new (FALSE, FALSE, sizeof (guint32));
  ok = number_depth_first (&d, d.label, cancellable);
  if (ok)
    {
      strata_heap_graph_build_referrers (self);
      number_referrers (self, d.pre);
      tell_progress (&d, 0.55);
      g_clear_pointer (&d.pre, g_free);
      d.semi = g_new (guint32, d.n_reached);
      d.ancestor = g_new (guint32, d.n_reached);
      ok = compute_semidominators (&d, cancellable);
      g_clear_pointer (&d.ancestor, g_free);
      /* Numbered for the walk above: made again if referrers are asked for. */
      g_clear_pointer (&self->rev_first, g_free);
      g_clear_pointer (&self->rev_sources, g_free);
    }
  if (ok)
    {
      /* The labels are done with: their room holds the dominators. */
      idom_pre = d.label;
      compute_idoms (&d, idom_pre);
      g_clear_pointer (&d.parent, g_free);
      g_clear_pointer (&d.semi, g_free);
      tell_progress (&d, 0.75);
      sum_retained (self, &d, idom_pre);
      tell_progress (&d, 0.85);
    }
  g_free (d.pre);
  g_free (d.label);
  g_free (d.parent);
  g_free (d.semi);
  g_free (d.ancestor);
  g_free (d.vertex);
  g_array_unref (d.path);
  if (!ok)
    return FALSE;
  /* The shallow sizes were summed: their pages wait in the scratch file. */
  strata_heap_graph_release_pages (self, 0, self->n);
  build_dominator_rows (self);
  tell_progress (&d, 1.0);
  return !g_cancellable_is_cancelled (cancellable);
}

/* ---- What a set of objects retains together ---- */

#define BIT_SET(bits, v) ((bits)[(v) >> 6] |= G_GUINT64_CONSTANT (1) << ((v) & 63))
#define BIT_GET(bits, v) (((bits)[(v) >> 6] >> ((v) & 63)) & 1)

/* Marks in @seen what the roots reach without going through @seen's
 * objects marked already (the set). Returns FALSE when cancelled. */
static gboolean
reach_around (const StrataHeapGraph *self,
              guint64               *seen,
              GCancellable          *cancellable)
{
  g_autofree guint32 *queue = g_new (guint32, MAX (self->n, 1));
  guint32 head = 0, tail = 0;

  for (guint32 r = 0; r < self->n_roots; r++)
    if (!BIT_GET (seen, self->roots[r]))
      {
        BIT_SET (seen, self->roots[r]);
        queue[tail++] = self->roots[r];
      }
  while (head < tail)
    {
      guint32 v = queue[head++];

      if ((head & (STRATA_HEAP_GRAPH_CANCEL_INTERVAL - 1)) == 0 && g_cancellable_is_cancelled (cancellable))
        return FALSE;
      for (guint32 e = self->first[v]; e < self->first[v + 1]; e++)
        {
          guint32 w = self->targets[e];

          if (BIT_GET (seen, w))
            continue;
          BIT_SET (seen, w);
          queue[tail++] = w;
        }
    }
  return TRUE;
}

/**
 * strata_heap_graph_retained_by_set:
 * @objects: (array length=n_objects): the set
 * @n_retained: (out): how many objects it retains
 *
 * What the objects keep alive together, as Eclipse MAT's precise
 * retained size of a selection: every reachable object that no path
 * from a GC root reaches without passing through one of them, the
 * reachable ones of them included. Objects that none of them retains
 * alone can be among it (two lists sharing their elements). One search
 * from the roots around the set.
 *
 * Returns: the bytes, shallow sizes summed; 0 when cancelled
 */
guint64
strata_heap_graph_retained_by_set (const StrataHeapGraph *self,
                                   const guint32         *objects,
                                   guint32                n_objects,
                                   guint64               *n_retained,
                                   GCancellable          *cancellable)
{
  g_autofree guint64 *seen = g_new0 (guint64, self->n / 64 + 1);
  g_autofree guint64 *counted = g_new0 (guint64, self->n / 64 + 1);
  guint64 bytes = 0;

  *n_retained = 0;
  /* The set is marked first, so the search goes around it. */
  for (guint32 i = 0; i < n_objects; i++)
    if (objects[i] < self->n)
      BIT_SET (seen, objects[i]);
  if (!reach_around (self, seen, cancellable))
    return 0;
  for (guint32 v = 0; v < self->n; v++)
    if (!BIT_GET (seen, v) && strata_heap_graph_is_reached (self, v))
      {
        (*n_retained)++;
        bytes += strata_heap_graph_get_shallow (self, v);
      }
  /* And the set's own reachable objects, each once. */
  for (guint32 i = 0; i < n_objects; i++)
    if (objects[i] < self->n && !BIT_GET (counted, objects[i]) && strata_heap_graph_is_reached (self, objects[i]))
      {
        BIT_SET (counted, objects[i]);
        (*n_retained)++;
        bytes += strata_heap_graph_get_shallow (self, objects[i]);
      }
  return bytes;
}
