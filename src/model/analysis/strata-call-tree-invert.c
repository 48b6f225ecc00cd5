/* strata-call-tree-invert.c: a top-down tree turned bottom up
 *
 * The roots of the bottom-up tree are the methods where time went (self
 * time), each with the calls of it; below each, its callers, opened as
 * they are asked for.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include "strata-call-tree-private.h"
#include "strata-memory.h"
#include "strata-radix-sort.h"

#define RADIX_SORT_MIN 4096

/* ---- Bottom up ---- */

static guint32
add_inverted_node (StrataCallTree *self,
                   guint32         parent,
                   guint32         method)
{
  guint32 node = self->n_nodes;

  if (node == self->n_alloc)
    {
      self->n_alloc = MAX (64, self->n_alloc * 2);
      self->parent = g_renew (guint32, self->parent, self->n_alloc);
      self->method = g_renew (guint32, self->method, self->n_alloc);
      self->first_child = g_renew (guint32, self->first_child, self->n_alloc + 1);
      self->calls = g_renew (guint32, self->calls, self->n_alloc);
      self->n_children = g_renew (guint32, self->n_children, self->n_alloc);
      self->entry_first = g_renew (guint32, self->entry_first, self->n_alloc);
      self->entry_count = g_renew (guint32, self->entry_count, self->n_alloc);
      for (guint c = 0; c < self->n_clocks; c++)
        self->total[c] = g_renew (gint64, self->total[c], self->n_alloc);
    }
  self->n_nodes++;
  self->parent[node] = parent;
  self->method[node] = method;
  self->first_child[node] = STRATA_CALL_TREE_NONE;
  self->n_children[node] = STRATA_CALL_TREE_NONE;
  self->calls[node] = 0;
  self->entry_first[node] = self->entry_count[node] = 0;
  for (guint c = 0; c < self->n_clocks; c++)
    self->total[c][node] = 0;
  return node;
}

typedef struct
{
  guint32 method;        /* of the callers at this level */
  guint32 first;         /* in the sorted entries */
  guint32 count;
  gint64  total;         /* on the first clock */
} Group;

static int
compare_entries_by_method (gconstpointer a,
                           gconstpointer b,
                           gpointer      methods)
{
  guint32 x = ((const guint32 *) methods)[((const StrataCallTreeEntry *) a)->at];
  guint32 y = ((const guint32 *) methods)[((const StrataCallTreeEntry *) b)->at];

  return x < y ? -1 : x > y;
}

/* Entries ordered by their @at node's method, keeping their order
 * within a method: a radix sort where there are many (the bottom-up
 * roots are every node with self time). */
static void
sort_entries_by_method (StrataCallTreeEntry *entries,
                        guint32              n,
                        const guint32       *methods)
{
  g_autofree guint64 *pairs = NULL;
  g_autofree StrataCallTreeEntry *copy = NULL;

  if (n < RADIX_SORT_MIN)
    {
      g_qsort_with_data (entries, n, sizeof (StrataCallTreeEntry), compare_entries_by_method, (gpointer) methods);
      return;
    }
  pairs = g_new (guint64, n);
  for (guint32 i = 0; i < n; i++)
    pairs[i] = (guint64) methods[entries[i].at] << 32 | i;
  strata_radix_sort_u64 (pairs, n, 32);
  copy = g_memdup2 (entries, (gsize) n * sizeof (StrataCallTreeEntry));
  for (guint32 i = 0; i < n; i++)
    entries[i] = copy[(guint32) pairs[i]];
}

static int
compare_groups (gconstpointer a,
                gconstpointer b)
{
  const Group *x = a, *y = b;

  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  return x->method < y->method ? -1 : x->method > y->method;
}

/* Makes @node's children from @entries (their @at already one caller up),
 * one per method, largest first. */
static void
add_groups (StrataCallTree      *self,
            guint32              node,
            StrataCallTreeEntry *entries,
            guint32              n_entries)
{
  StrataCallTree *source = self->source;
  gint64 *const *weight = self->weight[0] != NULL ? self->weight : source->own;
  g_autoptr(GArray) groups = g_array_new (FALSE, FALSE, sizeof (Group));

  sort_entries_by_method (entries, n_entries, source->method);
  for (guint32 i = 0; i < n_entries; i++)
    {
      guint32 method = source->method[entries[i].at];

      if (groups->len == 0 || g_array_index (groups, Group, groups->len - 1).method != method)
        {
          Group group = { method, i, 0, 0 };

          g_array_append_val (groups, group);
        }
      g_array_index (groups, Group, groups->len - 1).count++;
      g_array_index (groups, Group, groups->len - 1).total += weight[0][entries[i].leaf];
    }
  g_array_sort (groups, compare_groups);
  self->first_child[node] = self->n_nodes;
  self->n_children[node] = groups->len;
  for (guint g = 0; g < groups->len; g++)
    {
      const Group *group = &g_array_index (groups, Group, g);
      guint32 child = add_inverted_node (self, node, group->method);
      guint64 calls = 0;

      self->entry_first[child] = self->entries->len;
      self->entry_count[child] = group->count;
      g_array_append_vals (self->entries, entries + group->first, group->count);
      for (guint32 i = group->first; i < group->first + group->count; i++)
        {
          for (guint c = 0; c < self->n_clocks; c++)
            self->total[c][child] += weight[c][entries[i].leaf];
          calls += source->calls[entries[i].leaf];
        }
      self->calls[child] = (guint32) MIN (calls, G_MAXUINT32);
    }
}

/* Opens a bottom-up node: its callers one level up, from its pairs. */
void
strata_call_tree_open_node (StrataCallTree *self,
                            guint32         node)
{
  guint32 first = self->entry_first[node], count = self->entry_count[node];
  g_autofree StrataCallTreeEntry *up = NULL;
  guint32 n_up = 0;

  /* Asked for each time a view reads a node's children: opened once. */
  if (self->n_children[node] != STRATA_CALL_TREE_NONE)
    return;
  up = g_new (StrataCallTreeEntry, MAX (count, 1));
  for (guint32 i = 0; i < count; i++)
    {
      StrataCallTreeEntry entry = g_array_index (self->entries, StrataCallTreeEntry, first + i);
      guint32 caller = self->source->parent[entry.at];

      /* A path that began at the bottom of a stack ends here. */
      if (caller == STRATA_CALL_TREE_ROOT)
        continue;
      up[n_up++] = (StrataCallTreeEntry) { entry.leaf, caller };
    }
  add_groups (self, node, up, n_up);
}

/* A method's bucket among the bottom-up roots, by its code's index;
 * G_MAXUINT32 for a thread's node, which holds no method's time. */
static inline guint32
root_bucket (guint   n_methods,
             guint32 code)
{
  return (code & THREAD_NODE) != 0 ? G_MAXUINT32 : strata_call_tree_code_index (n_methods, 0, code);
}

/* Whether top-down @node belongs in the bottom-up tree: self time on
 * some clock, or calls. */
static inline gboolean
counts_bottom_up (const StrataCallTree *source,
                  guint32               node)
{
  /* Calls that took no time on any clock still count as calls: without
   * them, a method's calls bottom up fell short of the profile's. */
  gboolean any = source->calls[node] > 0;

  for (guint c = 0; c < source->n_clocks; c++)
    any |= source->own[c][node] != 0;
  return any;
}

/* A worker's half of the top-down nodes, bucketed by method for the
 * bottom-up roots. */
typedef struct
{
  StrataCallTree *source;
  gboolean        find_own;   /* the nodes' selfs are not known yet */
  guint           n_methods;
  guint32         first;
  guint32         last;
  guint32        *count;      /* per bucket */
  gint64         *totals;     /* per bucket and clock */
  guint64        *calls;
  guint32        *place;      /* per bucket: where its next entry goes */
  StrataCallTreeEntry          *entries;
  gboolean        cancelled;
  GCancellable   *cancellable;
} RootShare;

static gpointer
root_share_count (gpointer data)
{
  RootShare *share = data;
  StrataCallTree *source = share->source;

  for (guint32 v = share->first; v < share->last; v++)
    {
      guint32 b = root_bucket (share->n_methods, source->method[v]);

      if (share->find_own)
        for (guint c = 0; c < source->n_clocks; c++)
          source->own[c][v] = strata_call_tree_get_self (source, v, c);
      if ((v - share->first) % CANCEL_INTERVAL == 0 && g_cancellable_is_cancelled (share->cancellable))
        {
          share->cancelled = TRUE;
          return NULL;
        }
      if (v == STRATA_CALL_TREE_ROOT || b == G_MAXUINT32 || !counts_bottom_up (source, v))
        continue;
      share->count[b]++;
      for (guint c = 0; c < source->n_clocks; c++)
        share->totals[(gsize) b * STRATA_MAX_CLOCKS + c] += source->own[c][v];
      share->calls[b] += source->calls[v];
    }
  return NULL;
}

static gpointer
root_share_place (gpointer data)
{
  RootShare *share = data;
  StrataCallTree *source = share->source;

  for (guint32 v = MAX (share->first, 1); v < share->last; v++)
    {
      guint32 b = root_bucket (share->n_methods, source->method[v]);

      if (b != G_MAXUINT32 && counts_bottom_up (source, v))
        share->entries[share->place[b]++] = (StrataCallTreeEntry) { v, v };
    }
  return NULL;
}

static void
root_share_init (RootShare      *share,
                 StrataCallTree *source,
                 guint           n_buckets,
                 guint32         first,
                 guint32         last,
                 GCancellable   *cancellable)
{
  *share = (RootShare) { source, FALSE, strata_trace_get_n_methods (source->trace), first, last };
  share->count = g_new0 (guint32, MAX (n_buckets, 1));
  share->totals = g_new0 (gint64, (gsize) MAX (n_buckets, 1) * STRATA_MAX_CLOCKS);
  share->calls = g_new0 (guint64, MAX (n_buckets, 1));
  share->place = g_new (guint32, MAX (n_buckets, 1));
  share->cancellable = cancellable;
}

static void
root_share_clear (RootShare *share)
{
  g_free (share->count);
  g_free (share->totals);
  g_free (share->calls);
  g_free (share->place);
}

/* The bottom-up roots, one per method with self time, largest first,
 * from the buckets both halves counted; each bucket's entries go first
 * from the first half, then from the second, in node order. */
static void
add_root_groups (StrataCallTree *inverted,
                 RootShare      *shares,
                 guint           n_buckets)
{
  StrataCallTree *source = inverted->source;
  guint n_methods = shares[0].n_methods;
  g_autofree Group *groups = g_new (Group, MAX (n_buckets, 1));
  guint32 n_groups = 0, n_entries = 0;

  for (guint32 b = 0; b < n_buckets; b++)
    if (shares[0].count[b] + shares[1].count[b] > 0)
      groups[n_groups++] = (Group) { b < n_methods ? b : SYNTHETIC_NODE | (b - n_methods), b,
                                     shares[0].count[b] + shares[1].count[b],
                                     shares[0].totals[(gsize) b * STRATA_MAX_CLOCKS] + shares[1].totals[(gsize) b * STRATA_MAX_CLOCKS] };
  qsort (groups, n_groups, sizeof (Group), compare_groups);
  inverted->first_child[STRATA_CALL_TREE_ROOT] = inverted->n_nodes;
  inverted->n_children[STRATA_CALL_TREE_ROOT] = n_groups;
  for (guint32 g = 0; g < n_groups; g++)
    {
      guint32 b = groups[g].first;   /* the bucket, here */
      guint32 child = add_inverted_node (inverted, STRATA_CALL_TREE_ROOT, groups[g].method);
      guint64 calls = shares[0].calls[b] + shares[1].calls[b];

      inverted->entry_first[child] = n_entries;
      inverted->entry_count[child] = groups[g].count;
      for (guint c = 0; c < source->n_clocks; c++)
        inverted->total[c][child] = shares[0].totals[(gsize) b * STRATA_MAX_CLOCKS + c] +
                                    shares[1].totals[(gsize) b * STRATA_MAX_CLOCKS + c];
      inverted->calls[child] = (guint32) MIN (calls, G_MAXUINT32);
      shares[0].place[b] = n_entries;
      shares[1].place[b] = n_entries + shares[0].count[b];
      n_entries += groups[g].count;
    }
  g_array_set_size (inverted->entries, n_entries);
  shares[0].entries = shares[1].entries = (StrataCallTreeEntry *) inverted->entries->data;
}

/* The bottom-up roots: one per method with self time, largest first,
 * each holding the top-down nodes of its self time in node order. Two
 * workers take half the nodes each, which they bucket by method in two
 * passes in node order, so the figures are read in order and nothing is
 * sorted but the roots. */
static gboolean
invert_roots (StrataCallTree  *inverted,
              GCancellable    *cancellable,
              GError         **error)
{
  StrataCallTree *source = inverted->source;
  guint n_buckets = strata_trace_get_n_methods (source->trace) + (source->synthetic != NULL ? source->synthetic->len : 0);
  guint n_workers = source->n_nodes >= SHARED_MIN_NODES ? MIN (g_get_num_processors (), 2) : 1;
  guint32 half = n_workers > 1 ? source->n_nodes / 2 : source->n_nodes;
  gboolean find_own = source->own[0] == NULL;
  RootShare shares[2];

  for (guint c = 0; find_own && c < source->n_clocks; c++)
    source->own[c] = strata_memory_new_large (MAX (source->n_nodes, 1), sizeof (gint64));
  root_share_init (&shares[0], source, n_buckets, 0, half, cancellable);
  root_share_init (&shares[1], source, n_buckets, half, source->n_nodes, cancellable);
  shares[0].find_own = shares[1].find_own = find_own;
  strata_call_tree_run_two (root_share_count, &shares[0], n_workers > 1 ? &shares[1] : NULL);
  if (shares[0].cancelled || shares[1].cancelled)
    {
      /* The selfs are not all there: found again next time. */
      for (guint c = 0; find_own && c < source->n_clocks; c++)
        g_clear_pointer (&source->own[c], free);
      root_share_clear (&shares[0]);
      root_share_clear (&shares[1]);
      g_cancellable_set_error_if_cancelled (cancellable, error);
      return FALSE;
    }
  add_root_groups (inverted, shares, n_buckets);
  strata_call_tree_run_two (root_share_place, &shares[0], n_workers > 1 ? &shares[1] : NULL);
  root_share_clear (&shares[0]);
  root_share_clear (&shares[1]);
  return TRUE;
}

/**
 * strata_call_tree_invert:
 *
 * The bottom-up tree of a top-down one: each node's self time goes to the
 * path from its method up through its callers (a thread last, in a tree
 * made by thread), as Firefox Profiler's inverted call tree. Only the
 * roots are made here; a node's callers when it is first asked for.
 *
 * Returns: (transfer full): the bottom-up tree, or %NULL with @error set
 *   when cancelled
 */
StrataCallTree *
strata_call_tree_invert (StrataCallTree  *self,
                         GCancellable    *cancellable,
                         GError         **error)
{
  g_autoptr(StrataCallTree) inverted = NULL;

  g_return_val_if_fail (STRATA_IS_CALL_TREE (self), NULL);
  g_return_val_if_fail (self->kind == STRATA_CALL_TREE_TOP_DOWN, NULL);

  inverted = strata_call_tree_new_blank (self->trace, STRATA_CALL_TREE_BOTTOM_UP, self->n_clocks);
  inverted->source = g_object_ref (self);
  inverted->synthetic = self->synthetic != NULL ? g_ptr_array_ref (self->synthetic) : NULL;
  inverted->entries = g_array_new (FALSE, FALSE, sizeof (StrataCallTreeEntry));
  add_inverted_node (inverted, STRATA_CALL_TREE_NONE, STRATA_CALL_TREE_NONE);
  if (!invert_roots (inverted, cancellable, error))
    return NULL;
  /* The root holds everything once: the roots' sums. */
  for (guint32 k = 0; k < inverted->n_children[STRATA_CALL_TREE_ROOT]; k++)
    for (guint c = 0; c < self->n_clocks; c++)
      inverted->total[c][STRATA_CALL_TREE_ROOT] += inverted->total[c][inverted->first_child[STRATA_CALL_TREE_ROOT] + k];
  return g_steal_pointer (&inverted);
}

/* The calls of @code nothing else of @code holds, as entries of the one
 * root under @callers; Returns: FALSE if cancelled meanwhile */
static gboolean
add_outermost_calls (StrataCallTree *callers,
                     guint32         code,
                     GCancellable   *cancellable)
{
  StrataCallTree *source = callers->source;
  g_autofree guint8 *inside = g_new0 (guint8, MAX (source->n_nodes, 1));
  guint32 root = callers->first_child[STRATA_CALL_TREE_ROOT];
  guint64 calls = 0;

  for (guint32 v = 1; v < source->n_nodes; v++)
    {
      guint32 parent = source->parent[v];
      gboolean held = parent != STRATA_CALL_TREE_ROOT && inside[parent];

      if (v % CANCEL_INTERVAL == 0 && g_cancellable_is_cancelled (cancellable))
        return FALSE;
      inside[v] = held || source->method[v] == code;
      if (held || source->method[v] != code)
        continue;
      g_array_append_val (callers->entries, ((StrataCallTreeEntry) { v, v }));
      for (guint c = 0; c < source->n_clocks; c++)
        {
          callers->weight[c][v] = source->total[c][v];
          callers->total[c][root] += source->total[c][v];
        }
      calls += source->calls[v];
    }
  callers->entry_count[root] = callers->entries->len;
  callers->calls[root] = (guint32) MIN (calls, G_MAXUINT32);
  for (guint c = 0; c < source->n_clocks; c++)
    callers->total[c][STRATA_CALL_TREE_ROOT] = callers->total[c][root];
  return TRUE;
}

/**
 * strata_call_tree_callers_of:
 * @self: a top-down tree
 * @code: a method, or a collapsed run, of @self
 *
 * Who calls @code, as the top of speedscope's sandwich view and Firefox
 * Profiler's butterfly show it: @code the one root, its callers under
 * it, theirs under them. Each path weighs the whole time of the calls
 * of @code at its end: of the outermost ones, since a call within a
 * call of the same is part of it. Its callers are made as they are
 * opened, as in strata_call_tree_invert().
 *
 * Returns: (transfer full): the tree of callers, or %NULL with @error
 *   set when cancelled
 */
StrataCallTree *
strata_call_tree_callers_of (StrataCallTree  *self,
                             guint32          code,
                             GCancellable    *cancellable,
                             GError         **error)
{
  g_autoptr(StrataCallTree) callers = NULL;
  guint32 root;

  g_return_val_if_fail (STRATA_IS_CALL_TREE (self), NULL);
  g_return_val_if_fail (self->kind == STRATA_CALL_TREE_TOP_DOWN, NULL);

  callers = strata_call_tree_new_blank (self->trace, STRATA_CALL_TREE_BOTTOM_UP, self->n_clocks);
  callers->source = g_object_ref (self);
  callers->synthetic = self->synthetic != NULL ? g_ptr_array_ref (self->synthetic) : NULL;
  callers->entries = g_array_new (FALSE, FALSE, sizeof (StrataCallTreeEntry));
  /* Only the outermost calls' places are written and read. */
  for (guint c = 0; c < self->n_clocks; c++)
    callers->weight[c] = g_new (gint64, MAX (self->n_nodes, 1));
  add_inverted_node (callers, STRATA_CALL_TREE_NONE, STRATA_CALL_TREE_NONE);
  root = add_inverted_node (callers, STRATA_CALL_TREE_ROOT, code);
  callers->first_child[STRATA_CALL_TREE_ROOT] = root;
  callers->n_children[STRATA_CALL_TREE_ROOT] = 1;
  if (!add_outermost_calls (callers, code, cancellable))
    {
      g_cancellable_set_error_if_cancelled (cancellable, error);
      return NULL;
    }
  return g_steal_pointer (&callers);
}
