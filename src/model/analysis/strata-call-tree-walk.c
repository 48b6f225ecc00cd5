/* strata-call-tree-walk.c: the top-down tree made from the calls
 *
 * The tree is made a level at a time, in the breadth-first order it
 * keeps. Each node of a level holds its calls; their callees (a run of
 * the next depth each) are grouped by method into the node's children,
 * largest first, and the calls of each child are listed for the next
 * level. Callees are read in runs and grouped in a table the size of the
 * method list, so no lookup leaves the cache, no node is hashed and none
 * is ever moved.
 *
 * A wide level is shared by two workers: each groups the callees of half
 * its nodes (by calls), then, once both know how many children they
 * made, each writes its children where they go.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "strata-call-tree-private.h"
#include "strata-memory.h"

/* A call: its row (a thread's depth) and its index there. */
typedef guint64 CallRef;

#define CALL_REF(row, index) ((CallRef) (row) << 32 | (index))
#define CALL_ROW(ref) ((guint32) ((ref) >> 32))
#define CALL_INDEX(ref) ((guint32) (ref))
#define NO_KID G_MAXUINT32
#define WALK_MIN 65536
#define PREFETCH_AHEAD 8
#define MAX_SHARES 2
#define SHARED_MIN_CALLS 16384   /* a level with fewer is grouped by one worker */

typedef struct
{
  const StrataSpanTable *table;
  const StrataPackedSpan *spans;
  const StrataClockSpan *second;    /* NULL with one clock, or where the depth keeps */
  const StrataSparseClock *sparse;  /* only the calls that have a place there (nullable) */
  const StrataPackedSpan *below;    /* the next depth's, or NULL */
  guint                  depth;
  guint                  thread;
  guint32                n;
  guint32                n_below;
} Row;

/* A run of calls of one row: a call's callees, or the calls that hang
 * from a thread's top. */
typedef struct
{
  guint32 row;
  guint32 first;
  guint32 last;
} Run;

/* A child being made: its figures, and how many calls it has. */
typedef struct
{
  gint64  total[STRATA_MAX_CLOCKS];
  guint32 method;
  guint32 calls;      /* saturating */
  guint32 n_calls;
  guint32 made;       /* its place in the order its parent's callees made it */
} Kid;

/* The calls of a level's nodes, grouped by node. */
typedef struct
{
  CallRef *calls;
  guint32 *start;     /* per node, and one past the last */
  gsize    n_calls;
  guint32  n_nodes;
  gsize    calls_alloc;
  gsize    start_alloc;
} Level;

typedef struct _Walk Walk;

/* A worker's part of a level: parents @first to @last. */
typedef struct
{
  /* Each worker's own cache lines: the two are written at once. */
  _Alignas (128) Walk *walk;
  guint32   first;
  guint32   last;
  /* Grouping: */
  StrataKidTable kid_of;   /* by method */
  Kid      *kids;          /* each parent's, largest first */
  gsize     n_kids;
  gsize     kids_alloc;
  guint32  *parent_kids;   /* per parent, and one past: its first kid */
  gsize     parent_kids_alloc;
  guint32  *noted;         /* each callee's kid among its parent's, in the order read */
  gsize     n_noted;
  gsize     noted_alloc;
  gsize     n_calls;       /* callees kept */
  gboolean  cancelled;
  gsize     call_first;    /* the calls whose callees it finds */
  gsize     call_last;
  /* Placing: */
  gsize    *place;         /* per kid of a parent: where its next call goes */
  guint32   node_base;
  gsize     calls_base;
} Share;

struct _Walk
{
  StrataCallTree           *tree;        /* its arrays grow as nodes come */
  gsize                     n_alloc;
  const StrataProfileRange *range;
  GCancellable             *cancellable;
  guint                     n_clocks;
  guint                     n_methods;
  Row                      *rows;
  guint                     n_rows;
  guint                    *first_row;   /* each thread's depth 0, or G_MAXUINT */
  Run                      *runs;        /* the level's parents' callees */
  const guint32            *runs_start;  /* per parent, and one past the last */
  guint32                  *top_start;   /* the top's parents' runs_start; below, the calls' start serves */
  gsize                     runs_alloc;
  gsize                     top_start_alloc;
  Level                     level;       /* the parents' calls */
  Level                     next;        /* their children's */
  guint32                   level_first; /* the parents' first node */
  guint32                   next_first;  /* their children's */
  Share                     shares[MAX_SHARES];
  guint                     n_workers;
};

/* ---- Rows and runs ---- */

static void
add_rows (Walk          *walk,
          StrataTrace   *trace,
          const guint8  *threads)
{
  guint n_threads = strata_trace_get_n_threads (trace);

  walk->first_row = g_new (guint, MAX (n_threads, 1));
  for (guint t = 0; t < n_threads; t++)
    {
      const StrataSpanTable *table = strata_trace_get_thread (trace, t)->spans;

      walk->first_row[t] = G_MAXUINT;
      if (table == NULL || (threads != NULL && !threads[t]) || table->n_depths == 0)
        continue;
      walk->first_row[t] = walk->n_rows;
      walk->n_rows += table->n_depths;
    }
  walk->rows = g_new (Row, MAX (walk->n_rows, 1));
  for (guint t = 0; t < n_threads; t++)
    {
      const StrataSpanTable *table = strata_trace_get_thread (trace, t)->spans;

      for (guint d = 0; walk->first_row[t] != G_MAXUINT && d < table->n_depths; d++)
        {
          gboolean last = d + 1 >= table->n_depths;

          walk->rows[walk->first_row[t] + d] = (Row) {
            table, table->calls[d], table->n_clocks > 1 ? table->second[d] : NULL,
            table->n_clocks > 1 ? strata_span_table_get_sparse (table, d) : NULL,
            last ? NULL : table->calls[d + 1], d, t, table->n_spans[d], last ? 0 : table->n_spans[d + 1]
          };
        }
    }
}

/* The calls of a level's nodes are fewer than the calls of the widest
 * depth over all threads, but for those whose callers left no span. */
static gsize
guess_level (const Walk *walk)
{
  g_autofree gsize *per_depth = NULL;
  guint deepest = 0;
  gsize widest = WALK_MIN;

  for (guint r = 0; r < walk->n_rows; r++)
    deepest = MAX (deepest, walk->rows[r].depth + 1);
  per_depth = g_new0 (gsize, MAX (deepest, 1));
  for (guint r = 0; r < walk->n_rows; r++)
    per_depth[walk->rows[r].depth] += walk->rows[r].n;
  for (guint d = 0; d < deepest; d++)
    widest = MAX (widest, per_depth[d]);
  return widest;
}

static void
reserve_runs (Walk  *walk,
              gsize  n_runs,
              gsize  n_parents)
{
  walk->runs = strata_memory_reserve_large (walk->runs, walk->runs_alloc, n_runs, &walk->runs_alloc, sizeof (Run));
  walk->top_start = strata_memory_reserve_large (walk->top_start, walk->top_start_alloc, n_parents + 1,
                                                 &walk->top_start_alloc, sizeof (guint32));
}

/* The runs of calls that hang from a thread's top, appended: all of
 * depth 0, and at each depth those before the first a caller covers,
 * whose callers began before tracing and left no span. */
static gsize
add_top_runs (Walk  *walk,
              guint  thread,
              gsize  n_runs)
{
  guint first = walk->first_row[thread];

  for (guint r = first; first != G_MAXUINT && r < walk->n_rows && walk->rows[r].thread == thread; r++)
    {
      const Row *row = &walk->rows[r];
      guint32 covered = row->n;

      if (row->depth > 0)
        covered = row[-1].n > 0 ? MIN (row[-1].spans[0].first_child, row->n) : row->n;
      if (covered > 0)
        {
          reserve_runs (walk, n_runs + 1, 0);
          walk->runs[n_runs++] = (Run) { r, 0, covered };
        }
    }
  return n_runs;
}

/* The callees of call @ref: a run of the next depth. */
static inline Run
callees_of (const Walk *walk,
            CallRef     ref)
{
  guint32 r = CALL_ROW (ref), i = CALL_INDEX (ref);
  const Row *row = &walk->rows[r];
  guint32 first, last;

  if (row->below == NULL)
    return (Run) { r + 1, 0, 0 };
  first = MIN (row->spans[i].first_child, row->n_below);
  last = i + 1 < row->n ? MIN (row->spans[i + 1].first_child, row->n_below) : row->n_below;
  return (Run) { r + 1, first, MAX (first, last) };
}

/* The runs of a share of the level's calls: the callees of each call,
 * in one pass that asks for the calls' lines ahead. */
static gpointer
share_find (gpointer data)
{
  Share *share = data;
  const Walk *walk = share->walk;
  const Level *level = &walk->level;

  for (gsize c = share->call_first; c < share->call_last; c++)
    {
      if (c + PREFETCH_AHEAD < share->call_last)
        {
          CallRef ahead = level->calls[c + PREFETCH_AHEAD];

          __builtin_prefetch (&walk->rows[CALL_ROW (ahead)].spans[CALL_INDEX (ahead)]);
        }
      walk->runs[c] = callees_of (walk, level->calls[c]);
    }
  return NULL;
}

static inline gboolean
row_time (const Row                *row,
          guint32                   index,
          const StrataProfileRange *range,
          gint64                   *time)
{
  if (range != NULL)
    return strata_call_tree_span_time (row->table, row->depth, index, range, time);
  time[0] = strata_span_table_duration (row->table, row->depth, index);
  /* Moments on the second clock (and one clock) take none of its time. */
  time[1] = row->second != NULL ? row->second[index].end - row->second[index].start
                                : strata_sparse_clock_duration (row->sparse, index);
  return TRUE;
}

/* ---- Grouping ---- */

static void
share_init (Share *share,
            Walk  *walk)
{
  guint n_kids = MAX (walk->n_methods, walk->n_rows) + 1;

  *share = (Share) { 0 };
  share->walk = walk;
  strata_kid_table_init (&share->kid_of, walk->n_methods);
  share->place = g_new (gsize, n_kids);
}

static void
share_clear (Share *share)
{
  strata_kid_table_clear (&share->kid_of);
  g_clear_pointer (&share->place, g_free);
  g_clear_pointer (&share->kids, free);
  g_clear_pointer (&share->parent_kids, free);
  g_clear_pointer (&share->noted, free);
}

static void
share_reserve (Share *share,
               gsize  n_kids,
               gsize  n_noted)
{
  share->kids = strata_memory_reserve_large (share->kids, share->n_kids, n_kids, &share->kids_alloc, sizeof (Kid));
  share->noted = strata_memory_reserve_large (share->noted, share->n_noted, n_noted, &share->noted_alloc, sizeof (guint32));
}

#define FEW_CALLEES 4   /* a parent with no more finds its kids by looking at each */

/* Among the kids from @base on (at most FEW_CALLEES), the one of
 * @method, or where it goes when it has none yet (@added set). */
static inline guint32
find_kid_among_few (const Share *share,
                    gsize        base,
                    guint32      method,
                    gboolean    *added)
{
  for (gsize k = base; k < share->n_kids; k++)
    if (share->kids[k].method == method)
      {
        *added = FALSE;
        return (guint32) (k - base);
      }
  *added = TRUE;
  return (guint32) (share->n_kids - base);
}

/* The callees of @run grouped by method into the kids of the parent
 * whose kids begin at @base, each callee's kid noted. A parent of @few
 * callees finds their kids among the few it has, not in the table. */
static void
group_run (Share     *share,
           const Run *run,
           gsize      base,
           gboolean   few)
{
  const Walk *walk = share->walk;
  const Row *row = &walk->rows[run->row];
  guint32 *noted = share->noted + share->n_noted;

  for (guint32 i = run->first; i < run->last; i++)
    {
      gint64 time[STRATA_MAX_CLOCKS] = { 0 };
      guint32 method = row->spans[i].method, made;
      gboolean added;
      Kid *kid;

      if (!row_time (row, i, walk->range, time))
        {
          *noted++ = NO_KID;
          continue;
        }
      if (few)
        made = find_kid_among_few (share, base, method, &added);
      else
        made = strata_kid_table_find (&share->kid_of, method, (guint32) (share->n_kids - base), &added);
      if (added)
        share->kids[share->n_kids++] = (Kid) { { 0 }, method, 0, 0, made };
      kid = &share->kids[base + made];
      for (guint c = 0; c < walk->n_clocks; c++)
        kid->total[c] += time[c];
      kid->calls += kid->calls < G_MAXUINT32;
      kid->n_calls++;
      *noted++ = made;
      share->n_calls++;
    }
  share->n_noted += run->last - run->first;
}

static int
compare_kids (gconstpointer a,
              gconstpointer b)
{
  const Kid *x = a, *y = b;

  if (x->total[0] != y->total[0])
    return x->total[0] > y->total[0] ? -1 : 1;
  return x->method < y->method ? -1 : x->method > y->method;
}

/* Largest first; most nodes have a few children. */
static void
sort_kids (Kid   *kids,
           gsize  n)
{
  if (n > 16)
    {
      qsort (kids, n, sizeof (Kid), compare_kids);
      return;
    }
  for (gsize i = 1; i < n; i++)
    {
      Kid key = kids[i];
      gsize j = i;

      for (; j > 0 && compare_kids (&kids[j - 1], &key) > 0; j--)
        kids[j] = kids[j - 1];
      kids[j] = key;
    }
}

/* Each parent's kids in order, in the order they will be numbered. The
 * runs of each parent are asked for a few runs ahead: each is somewhere
 * else in its thread's calls, and the misses overlap. */
static gpointer
share_group (gpointer data)
{
  Share *share = data;
  Walk *walk = share->walk;
  gsize n_parents = share->last - share->first;

  share->n_kids = share->n_noted = share->n_calls = 0;
  share->parent_kids = strata_memory_reserve_large (share->parent_kids, 0, n_parents + 1, &share->parent_kids_alloc,
                                                    sizeof (guint32));
  for (guint32 p = share->first; p < share->last; p++)
    {
      gsize base = share->n_kids, first = walk->runs_start[p], last = walk->runs_start[p + 1];
      gsize n_calls = 0;

      if ((p - share->first) % CANCEL_INTERVAL == 0 && g_cancellable_is_cancelled (walk->cancellable))
        {
          share->cancelled = TRUE;
          return NULL;
        }
      for (gsize r = first; r < last; r++)
        n_calls += walk->runs[r].last - walk->runs[r].first;
      share_reserve (share, share->n_kids + MIN (n_calls, MAX (walk->n_methods, 1)), share->n_noted + n_calls);
      share->parent_kids[p - share->first] = (guint32) base;
      if (n_calls > FEW_CALLEES)
        strata_kid_table_empty (&share->kid_of);
      for (gsize r = first; r < last; r++)
        {
          if (r + PREFETCH_AHEAD < walk->runs_start[share->last])
            {
              const Run *ahead = &walk->runs[r + PREFETCH_AHEAD];
              const Row *row = &walk->rows[ahead->row];

              if (ahead->first < ahead->last)
                {
                  __builtin_prefetch (&row->spans[ahead->first]);
                  if (row->second != NULL)
                    __builtin_prefetch (&row->second[ahead->first]);
                }
            }
          group_run (share, &walk->runs[r], base, n_calls <= FEW_CALLEES);
        }
      sort_kids (share->kids + base, share->n_kids - base);
    }
  share->parent_kids[n_parents] = (guint32) share->n_kids;
  return NULL;
}

/* The kids become nodes from share->node_base on, children of their
 * parents, and their callees the next level's calls from
 * share->calls_base on. */
static gpointer
share_place (gpointer data)
{
  Share *share = data;
  Walk *walk = share->walk;
  StrataCallTree *tree = walk->tree;
  Level *next = &walk->next;
  guint32 node = share->node_base, next_first = walk->next_first;
  gsize calls = share->calls_base, noted = 0;

  for (guint32 p = share->first; p < share->last; p++)
    {
      const Kid *kids = share->kids + share->parent_kids[p - share->first];
      guint32 n_kids = share->parent_kids[p - share->first + 1] - share->parent_kids[p - share->first];

      tree->first_child[walk->level_first + p] = node;
      for (guint32 j = 0; j < n_kids; j++, node++)
        {
          tree->parent[node] = walk->level_first + p;
          tree->method[node] = kids[j].method;
          tree->calls[node] = kids[j].calls;
          for (guint c = 0; c < tree->n_clocks; c++)
            tree->total[c][node] = kids[j].total[c];
          next->start[node - next_first] = (guint32) calls;
          share->place[kids[j].made] = calls;
          calls += kids[j].n_calls;
        }
      for (gsize r = walk->runs_start[p]; r < walk->runs_start[p + 1]; r++)
        {
          const Run *run = &walk->runs[r];

          for (guint32 i = run->first; i < run->last; i++, noted++)
            if (share->noted[noted] != NO_KID)
              next->calls[share->place[share->noted[noted]]++] = CALL_REF (run->row, i);
        }
    }
  return NULL;
}

/* ---- Levels ---- */

static void
level_reserve (Level *level,
               gsize  n_calls,
               gsize  n_nodes)
{
  /* What they held is written anew. */
  level->calls = strata_memory_reserve_large (level->calls, 0, n_calls, &level->calls_alloc, sizeof (CallRef));
  level->start = strata_memory_reserve_large (level->start, 0, n_nodes + 1, &level->start_alloc, sizeof (guint32));
}

/* Room in the tree's arrays for @n nodes more, and the first child of
 * one past the last; FALSE when the tree would be too large. */
static gboolean
walk_reserve (Walk    *walk,
              guint64  n)
{
  StrataCallTree *tree = walk->tree;
  guint64 wanted = (guint64) tree->n_nodes + n + 1;
  gsize n_alloc;

  if (wanted >= STRATA_CALL_TREE_NONE)
    return FALSE;
  if (wanted <= walk->n_alloc)
    return TRUE;
  n_alloc = (gsize) MIN (MAX (wanted, (guint64) walk->n_alloc * 2), (guint64) STRATA_CALL_TREE_NONE);
  tree->parent = strata_memory_renew_large (tree->parent, tree->n_nodes, n_alloc, sizeof (guint32));
  tree->method = strata_memory_renew_large (tree->method, tree->n_nodes, n_alloc, sizeof (guint32));
  tree->first_child = strata_memory_renew_large (tree->first_child, tree->n_nodes, n_alloc, sizeof (guint32));
  tree->calls = strata_memory_renew_large (tree->calls, tree->n_nodes, n_alloc, sizeof (guint32));
  for (guint c = 0; c < tree->n_clocks; c++)
    tree->total[c] = strata_memory_renew_large (tree->total[c], tree->n_nodes, n_alloc, sizeof (gint64));
  walk->n_alloc = n_alloc;
  return TRUE;
}

static void
set_too_many (GError **error)
{
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, _("The trace has too many distinct call paths for one tree"));
}

/* The parent where @n_parents are split in two of about as many callee
 * runs each. */
static guint32
split_parents (const Walk *walk,
               guint32     n_parents)
{
  guint32 lo = 0, hi = n_parents, half = walk->runs_start[n_parents] / 2;

  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (walk->runs_start[mid] < half)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/**
 * strata_call_tree_run_two:
 * @second: (nullable): when %NULL, only @func (@first) runs
 *
 * Runs @func on @first here and on @second in a helper thread, or here
 * after @first when no thread can be made.
 */
void
strata_call_tree_run_two (GThreadFunc func,
                          gpointer    first,
                          gpointer    second)
{
  GThread *helper = NULL;

  if (second != NULL)
    helper = g_thread_try_new ("strata-call-tree", func, second, NULL);
  func (first);
  if (helper != NULL)
    g_thread_join (helper);
  else if (second != NULL)
    func (second);
}

/* Runs @func on the shares, one in a helper thread. */
static void
run_shares (Walk        *walk,
            guint        n_shares,
            GThreadFunc  func)
{
  strata_call_tree_run_two (func, &walk->shares[0], n_shares > 1 ? &walk->shares[1] : NULL);
}

/* The children of the level's @n_parents nodes (from walk->level_first)
 * from the runs of their callees. */
static gboolean
walk_level (Walk    *walk,
            guint32  n_parents,
            GError **error)
{
  StrataCallTree *tree = walk->tree;
  guint n_shares = walk->n_workers > 1 && walk->runs_start[n_parents] >= SHARED_MIN_CALLS ? 2 : 1;
  guint64 n_kids = 0, n_calls = 0;

  walk->shares[0].first = 0;
  walk->shares[0].last = n_shares > 1 ? split_parents (walk, n_parents) : n_parents;
  walk->shares[1].first = walk->shares[0].last;
  walk->shares[1].last = n_parents;
  run_shares (walk, n_shares, share_group);
  for (guint s = 0; s < n_shares; s++)
    {
      if (walk->shares[s].cancelled)
        {
          g_cancellable_set_error_if_cancelled (walk->cancellable, error);
          return FALSE;
        }
      walk->shares[s].node_base = (guint32) (tree->n_nodes + n_kids);
      walk->shares[s].calls_base = n_calls;
      n_kids += walk->shares[s].n_kids;
      n_calls += walk->shares[s].n_calls;
    }
  if (!walk_reserve (walk, n_kids) || n_calls >= G_MAXUINT32)
    {
      set_too_many (error);
      return FALSE;
    }
  level_reserve (&walk->next, n_calls, n_kids);
  walk->next_first = tree->n_nodes;
  run_shares (walk, n_shares, share_place);
  tree->n_nodes += (guint32) n_kids;
  walk->next.n_nodes = (guint32) n_kids;
  walk->next.n_calls = n_calls;
  walk->next.start[n_kids] = (guint32) n_calls;
  return TRUE;
}

/* The runs of the level's parents: the callees of each call, the calls
 * shared out between the workers. */
static void
find_callees (Walk *walk)
{
  gsize n = walk->level.n_calls;
  guint n_shares = walk->n_workers > 1 && n >= SHARED_MIN_CALLS ? 2 : 1;

  reserve_runs (walk, n, 0);
  walk->shares[0].call_first = 0;
  walk->shares[0].call_last = walk->shares[1].call_first = n_shares > 1 ? n / 2 : n;
  walk->shares[1].call_last = n;
  run_shares (walk, n_shares, share_find);
}

/* The next level's nodes become the level's, their callees its runs. */
static void
walk_next_level (Walk *walk)
{
  Level done = walk->level;

  walk->level = walk->next;
  walk->next = done;
  walk->next.n_calls = 0;
  walk->next.n_nodes = 0;
  walk->level_first = walk->next_first;
  find_callees (walk);
  /* One run per call: the parents' runs start where their calls do. */
  walk->runs_start = walk->level.start;
}

/* ---- The whole tree ---- */

/* Each thread's own time (what it was traced outside its calls, or its
 * top-level calls' when more) in @traced, per thread and clock, and the
 * whole in @whole. */
static void
thread_times (Walk        *walk,
              StrataTrace *trace,
              gint64      *traced,
              gint64      *whole)
{
  for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
    {
      gint64 *own = traced + (gsize) t * STRATA_MAX_CLOCKS, top[STRATA_MAX_CLOCKS] = { 0 };
      gsize n_runs;

      if (walk->first_row[t] == G_MAXUINT)
        continue;
      n_runs = add_top_runs (walk, t, 0);
      for (gsize r = 0; r < n_runs; r++)
        for (guint32 i = walk->runs[r].first; i < walk->runs[r].last; i++)
          {
            gint64 time[STRATA_MAX_CLOCKS] = { 0 };

            if (row_time (&walk->rows[walk->runs[r].row], i, walk->range, time))
              for (guint c = 0; c < walk->n_clocks; c++)
                top[c] += time[c];
          }
      strata_profile_range_traced (walk->range, strata_trace_get_thread (trace, t), walk->n_clocks, own);
      for (guint c = 0; c < walk->n_clocks; c++)
        {
          own[c] = MAX (own[c], top[c]);
          whole[c] += own[c];
        }
    }
}

/* A node per thread under the root, largest first, with its own time. */
static gboolean
add_thread_nodes (Walk         *walk,
                  StrataTrace  *trace,
                  const gint64 *traced)
{
  StrataCallTree *tree = walk->tree;
  Share *share = &walk->shares[0];
  guint n_threads = strata_trace_get_n_threads (trace);

  share_reserve (share, n_threads, 0);
  share->n_kids = 0;
  for (guint t = 0; t < n_threads; t++)
    if (walk->first_row[t] != G_MAXUINT)
      {
        Kid *kid = &share->kids[share->n_kids++];

        *kid = (Kid) { { 0 }, THREAD_NODE | t, 0, 0, 0 };
        memcpy (kid->total, traced + (gsize) t * STRATA_MAX_CLOCKS, sizeof kid->total);
      }
  sort_kids (share->kids, share->n_kids);
  if (!walk_reserve (walk, share->n_kids))
    return FALSE;
  tree->first_child[STRATA_CALL_TREE_ROOT] = tree->n_nodes;
  for (gsize k = 0; k < share->n_kids; k++)
    {
      guint32 node = tree->n_nodes++;

      tree->parent[node] = STRATA_CALL_TREE_ROOT;
      tree->method[node] = share->kids[k].method;
      tree->calls[node] = 0;
      for (guint c = 0; c < tree->n_clocks; c++)
        tree->total[c][node] = share->kids[k].total[c];
    }
  return TRUE;
}

/* The first level below the top: the calls hanging from the threads'
 * tops, grouped by method under the root, or under each thread's node. */
static gboolean
walk_top (Walk         *walk,
          StrataTrace  *trace,
          gboolean      by_thread,
          const gint64 *traced,
          GError      **error)
{
  StrataCallTree *tree = walk->tree;
  gsize n_runs = 0;
  guint32 n_parents = 1;

  walk->level_first = STRATA_CALL_TREE_ROOT;
  if (by_thread)
    {
      if (!add_thread_nodes (walk, trace, traced))
        {
          set_too_many (error);
          return FALSE;
        }
      walk->level_first = 1;
      n_parents = tree->n_nodes - 1;
    }
  reserve_runs (walk, 0, n_parents);
  for (guint32 p = 0; p < n_parents; p++)
    {
      walk->top_start[p] = (guint32) n_runs;
      if (by_thread)
        n_runs = add_top_runs (walk, tree->method[walk->level_first + p] & ~THREAD_NODE, n_runs);
      else
        for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
          n_runs = add_top_runs (walk, t, n_runs);
    }
  walk->top_start[n_parents] = (guint32) n_runs;
  walk->runs_start = walk->top_start;
  return walk_level (walk, n_parents, error);
}

static void
walk_init (Walk                     *walk,
           StrataCallTree           *tree,
           const guint8             *threads,
           const StrataProfileRange *range,
           GCancellable             *cancellable)
{
  StrataTrace *trace = tree->trace;
  gsize guess, n_spans = 0;

  *walk = (Walk) { 0 };
  walk->tree = tree;
  walk->range = range;
  walk->cancellable = cancellable;
  walk->n_clocks = tree->n_clocks;
  walk->n_methods = MAX (strata_trace_get_n_methods (trace), 1);
  walk->n_workers = MIN (g_get_num_processors (), MAX_SHARES);
  add_rows (walk, trace, threads);
  for (guint r = 0; r < walk->n_rows; r++)
    n_spans += walk->rows[r].n;
  for (guint s = 0; s < MAX_SHARES; s++)
    share_init (&walk->shares[s], walk);
  guess = guess_level (walk);
  level_reserve (&walk->level, guess, guess);
  level_reserve (&walk->next, guess, guess);
  /* A path per call at most, with the root and a node per thread: room
   * for them all, so the arrays are never copied to grow. What is not
   * touched costs nothing, and strata_call_tree_fit() gives it back. */
  walk->n_alloc = MIN (MAX (n_spans + strata_trace_get_n_threads (trace) + 2, WALK_MIN), (gsize) STRATA_CALL_TREE_NONE - 1);
  tree->parent = strata_memory_new_large (walk->n_alloc, sizeof (guint32));
  tree->method = strata_memory_new_large (walk->n_alloc, sizeof (guint32));
  tree->first_child = strata_memory_new_large (walk->n_alloc, sizeof (guint32));
  tree->calls = strata_memory_new_large (walk->n_alloc, sizeof (guint32));
  for (guint c = 0; c < tree->n_clocks; c++)
    tree->total[c] = strata_memory_new_large (walk->n_alloc, sizeof (gint64));
}

static void
walk_clear (Walk *walk)
{
  g_clear_pointer (&walk->rows, g_free);
  g_clear_pointer (&walk->first_row, g_free);
  g_clear_pointer (&walk->runs, free);
  g_clear_pointer (&walk->top_start, free);
  g_clear_pointer (&walk->level.calls, free);
  g_clear_pointer (&walk->level.start, free);
  g_clear_pointer (&walk->next.calls, free);
  g_clear_pointer (&walk->next.start, free);
  for (guint s = 0; s < MAX_SHARES; s++)
    share_clear (&walk->shares[s]);
}

static gboolean
walk_tree (Walk          *walk,
           gboolean       by_thread,
           GError       **error)
{
  StrataCallTree *tree = walk->tree;
  StrataTrace *trace = tree->trace;
  g_autofree gint64 *traced = g_new0 (gint64, (gsize) MAX (strata_trace_get_n_threads (trace), 1) * STRATA_MAX_CLOCKS);
  gint64 whole[STRATA_MAX_CLOCKS] = { 0 };

  thread_times (walk, trace, traced, whole);
  tree->parent[0] = STRATA_CALL_TREE_NONE;
  tree->method[0] = STRATA_CALL_TREE_NONE;
  tree->calls[0] = 0;
  for (guint c = 0; c < tree->n_clocks; c++)
    tree->total[c][0] = whole[c];
  tree->first_child[0] = 1;
  tree->n_nodes = 1;
  if (!walk_top (walk, trace, by_thread, traced, error))
    return FALSE;
  while (walk->next.n_nodes > 0)
    {
      if (g_cancellable_set_error_if_cancelled (walk->cancellable, error))
        return FALSE;
      walk_next_level (walk);
      if (!walk_level (walk, walk->level.n_nodes, error))
        return FALSE;
    }
  tree->first_child[tree->n_nodes] = tree->n_nodes;
  strata_call_tree_fit (tree);
  return TRUE;
}

/**
 * strata_call_tree_walk:
 *
 * Makes @tree (new, top down, of its trace) from the calls of the threads
 * @threads marks (by index), or of all threads when %NULL: merged, or
 * each under a node of its own when @by_thread; only the calls in @range,
 * cut at its ends, when given.
 *
 * Returns: FALSE with @error set when cancelled
 */
gboolean
strata_call_tree_walk (StrataCallTree           *tree,
                       const guint8             *threads,
                       gboolean                  by_thread,
                       const StrataProfileRange *range,
                       GCancellable             *cancellable,
                       GError                  **error)
{
  Walk walk;
  gboolean done;

  walk_init (&walk, tree, threads, range, cancellable);
  done = walk_tree (&walk, by_thread, error);
  walk_clear (&walk);
  return done;
}
