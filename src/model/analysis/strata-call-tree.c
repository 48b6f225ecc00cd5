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

#define RADIX_SORT_MIN 4096

/* A top-down node whose self time a bottom-up node holds (@leaf), and
 * the top-down node at the bottom-up node's level of callers (@at). */
typedef struct
{
  guint32 leaf;
  guint32 at;
} Entry;

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
strata_call_tree_new (StrataTrace              *trace,
                      int                       thread,
                      gboolean                  by_thread,
                      const StrataProfileRange *range,
                      GCancellable             *cancellable,
                      GError                  **error)
{
  g_autoptr(StrataCallTree) self = NULL;

  g_return_val_if_fail (STRATA_IS_TRACE (trace), NULL);

  self = strata_call_tree_new_blank (trace, STRATA_CALL_TREE_TOP_DOWN, strata_trace_get_n_clocks (trace));
  if (!strata_call_tree_walk (self, thread, by_thread, range, cancellable, error))
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
  guint32 x = ((const guint32 *) methods)[((const Entry *) a)->at];
  guint32 y = ((const guint32 *) methods)[((const Entry *) b)->at];

  return x < y ? -1 : x > y;
}

/* Entries ordered by their @at node's method, keeping their order
 * within a method: a radix sort where there are many (the bottom-up
 * roots are every node with self time). */
static void
sort_entries_by_method (Entry         *entries,
                        guint32        n,
                        const guint32 *methods)
{
  g_autofree guint64 *pairs = NULL;
  g_autofree Entry *copy = NULL;

  if (n < RADIX_SORT_MIN)
    {
      g_qsort_with_data (entries, n, sizeof (Entry), compare_entries_by_method, (gpointer) methods);
      return;
    }
  pairs = g_new (guint64, n);
  for (guint32 i = 0; i < n; i++)
    pairs[i] = (guint64) methods[entries[i].at] << 32 | i;
  strata_radix_sort_u64 (pairs, n, 32);
  copy = g_memdup2 (entries, (gsize) n * sizeof (Entry));
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
add_groups (StrataCallTree *self,
            guint32         node,
            Entry          *entries,
            guint32         n_entries)
{
  StrataCallTree *source = self->source;
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
      g_array_index (groups, Group, groups->len - 1).total += source->own[0][entries[i].leaf];
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
            self->total[c][child] += source->own[c][entries[i].leaf];
          calls += source->calls[entries[i].leaf];
        }
      self->calls[child] = (guint32) MIN (calls, G_MAXUINT32);
    }
}

/* Opens a bottom-up node: its callers one level up, from its pairs. */
static void
open_node (StrataCallTree *self,
           guint32         node)
{
  guint32 first = self->entry_first[node], count = self->entry_count[node];
  g_autofree Entry *up = NULL;
  guint32 n_up = 0;

  /* Asked for each time a view reads a node's children: opened once. */
  if (self->n_children[node] != STRATA_CALL_TREE_NONE)
    return;
  up = g_new (Entry, MAX (count, 1));
  for (guint32 i = 0; i < count; i++)
    {
      Entry entry = g_array_index (self->entries, Entry, first + i);
      guint32 caller = self->source->parent[entry.at];

      /* A path that began at the bottom of a stack ends here. */
      if (caller == STRATA_CALL_TREE_ROOT)
        continue;
      up[n_up++] = (Entry) { entry.leaf, caller };
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
  Entry          *entries;
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
        share->entries[share->place[b]++] = (Entry) { v, v };
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
  shares[0].entries = shares[1].entries = (Entry *) inverted->entries->data;
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
  inverted->entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  add_inverted_node (inverted, STRATA_CALL_TREE_NONE, STRATA_CALL_TREE_NONE);
  if (!invert_roots (inverted, cancellable, error))
    return NULL;
  /* The root holds everything once: the roots' sums. */
  for (guint32 k = 0; k < inverted->n_children[STRATA_CALL_TREE_ROOT]; k++)
    for (guint c = 0; c < self->n_clocks; c++)
      inverted->total[c][STRATA_CALL_TREE_ROOT] += inverted->total[c][inverted->first_child[STRATA_CALL_TREE_ROOT] + k];
  return g_steal_pointer (&inverted);
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
    size += rows * 3 * sizeof (guint32) + (gsize) self->entries->len * sizeof (Entry);
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
    open_node (self, node);
  return self->first_child[node];
}

guint32
strata_call_tree_get_n_children (StrataCallTree *self,
                                 guint32         node)
{
  if (self->kind == STRATA_CALL_TREE_BOTTOM_UP)
    {
      open_node (self, node);
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

      if (table->spans[depth - 1][mid].first_child <= index)
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
      methods[depth] = table->spans[depth][index].method;
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
