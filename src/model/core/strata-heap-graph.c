/* strata-heap-graph.c: a heap dump's objects and references, and what
 * keeps what alive
 *
 * Objects are kept in arrays by index, their ids sorted for lookup, their
 * references as runs of targets. What keeps what alive (dominators,
 * retained sizes, paths from the roots) is computed in
 * strata-heap-graph-compute.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "strata-heap-graph-private.h"
#include "strata-memory.h"

/* Bits set in @x: without a POPCNT instruction (not in the x86-64
 * baseline) the compiler's builtin is a library call per word. */
static inline guint
popcount64 (guint64 x)
{
  x = x - ((x >> 1) & G_GUINT64_CONSTANT (0x5555555555555555));
  x = (x & G_GUINT64_CONSTANT (0x3333333333333333)) + ((x >> 2) & G_GUINT64_CONSTANT (0x3333333333333333));
  x = (x + (x >> 4)) & G_GUINT64_CONSTANT (0x0f0f0f0f0f0f0f0f);
  return (x * G_GUINT64_CONSTANT (0x0101010101010101)) >> 56;
}

/* The bit index over ids32, when it costs at most 2 bytes an object. */
static void
index_ids (StrataHeapGraph *self)
{
  guint64 n_bits = self->n > 0 ? (guint64) self->ids32[self->n - 1] + 1 : 0;
  gsize n_words = (n_bits + 63) / 64;
  guint32 count = 0;

  if (self->n == 0 || n_bits > (guint64) self->n * 16)
    return;
  self->n_id_bits = n_bits;
  self->id_bits = g_new0 (guint64, n_words + 1);
  self->id_rank = g_new (guint32, n_words / 8 + 1);
  for (guint32 i = 0; i < self->n; i++)
    self->id_bits[self->ids32[i] / 64] |= G_GUINT64_CONSTANT (1) << (self->ids32[i] % 64);
  for (gsize w = 0; w < n_words; w++)
    {
      if (w % 8 == 0)
        self->id_rank[w / 8] = count;
      count += popcount64 (self->id_bits[w]);
    }
  /* The bits hold the ids: an object's id is found by its rank. */
  g_clear_pointer (&self->ids32, g_free);
}

/* The key (id bits) of the object numbered @object: the bit of that rank. */
static guint32
select_indexed (const StrataHeapGraph *self,
                guint32                object)
{
  gsize n_blocks = ((self->n_id_bits + 63) / 64 + 7) / 8;
  gsize lo = 0, hi = n_blocks;
  guint32 rank;

  /* The last block whose count before it is at most @object. */
  while (hi - lo > 1)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (self->id_rank[mid] <= object)
        lo = mid;
      else
        hi = mid;
    }
  rank = self->id_rank[lo];
  for (gsize w = lo * 8;; w++)
    {
      guint64 word = self->id_bits[w];
      guint32 in_word = popcount64 (word);

      if (rank + in_word > object)
        {
          for (guint32 skip = object - rank; skip > 0; skip--)
            word &= word - 1;
          return (guint32) (w * 64 + __builtin_ctzll (word));
        }
      rank += in_word;
    }
}

static guint32
lookup_indexed (const StrataHeapGraph *self,
                guint32                key)
{
  gsize word = key / 64;
  guint64 bit = G_GUINT64_CONSTANT (1) << (key % 64);
  guint32 rank;

  if (key >= self->n_id_bits || (self->id_bits[word] & bit) == 0)
    return STRATA_HEAP_NO_OBJECT;
  rank = self->id_rank[word / 8];
  for (gsize w = word & ~(gsize) 7; w < word; w++)
    rank += popcount64 (self->id_bits[w]);
  return rank + popcount64 (self->id_bits[word] & (bit - 1));
}

/* Keeps @ids in 4 bytes each when they are a base plus multiples of 8 (or
 * of 1) that fit; frees @ids then. */
static void
store_ids (StrataHeapGraph *self,
           guint64         *ids)
{
  guint64 base = self->n > 0 ? ids[0] : 0;
  guint64 span = self->n > 0 ? ids[self->n - 1] - base : 0;
  guint64 aligned = 0;

  for (guint32 i = 0; i < self->n; i++)
    aligned |= ids[i] - base;
  self->id_base = base;
  self->id_shift = (aligned & 7) == 0 ? 3 : 0;
  if ((span >> self->id_shift) > G_MAXUINT32)
    {
      self->ids64 = ids;
      return;
    }
  self->ids32 = g_new (guint32, MAX (self->n, 1));
  for (guint32 i = 0; i < self->n; i++)
    self->ids32[i] = (ids[i] - base) >> self->id_shift;
  g_free (ids);
  index_ids (self);
}

/**
 * strata_heap_graph_new:
 * @ids: (transfer full): sorted, distinct
 * @classes: (transfer full) (nullable): each object's class; %NULL to
 *   fill strata_heap_graph_peek_classes() instead
 *
 * Shallow sizes start at 0 (strata_heap_graph_set_shallow()).
 */
StrataHeapGraph *
strata_heap_graph_new (guint32  n_objects,
                       guint64 *ids,
                       guint32 *classes)
{
  StrataHeapGraph *self = g_new0 (StrataHeapGraph, 1);

  self->n = n_objects;
  store_ids (self, ids);
  self->classes = classes != NULL ? classes : g_new0 (guint32, MAX (n_objects, 1));
  self->shallow = g_new0 (guint32, MAX (n_objects, 1));
  self->first = g_new0 (guint32, (gsize) n_objects + 1);
  g_mutex_init (&self->lazy_lock);
  return self;
}

void
strata_heap_graph_free (StrataHeapGraph *self)
{
  if (self == NULL)
    return;
  g_free (self->ids32);
  g_free (self->ids64);
  g_free (self->id_bits);
  g_free (self->id_rank);
  strata_scratch_free (self->classes, (gsize) MAX (self->n, 1) * sizeof (guint32), self->classes_mapped);
  g_free (self->heaps);
  strata_scratch_free (self->shallow, (gsize) MAX (self->n, 1) * sizeof (guint32), self->shallow_mapped);
  g_clear_pointer (&self->big_shallow, g_hash_table_unref);
  g_free (self->first);
  g_free (self->targets);
  g_free (self->rev_first);
  g_free (self->rev_sources);
  g_free (self->roots);
  g_free (self->root_kinds);
  g_free (self->idom);
  g_free (self->dom_first);
  g_free (self->dom_children);
  g_free (self->retained_lo);
  g_free (self->retained_hi);
  g_free (self->bfs_parent);
  g_mutex_clear (&self->lazy_lock);
  g_free (self->reached);
  g_free (self);
}

/**
 * strata_heap_graph_set_references:
 * @first: (transfer full): n + 1 offsets into @targets
 * @targets: (transfer full): object numbers
 */
void
strata_heap_graph_set_references (StrataHeapGraph *self,
                                  guint32         *first,
                                  guint32         *targets)
{
  g_free (self->first);
  g_free (self->targets);
  self->first = first;
  self->targets = targets;
}

int
strata_heap_graph_compare_u32 (const void *a,
                               const void *b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

static int
compare_u64 (const void *a,
             const void *b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

/**
 * strata_heap_graph_set_roots:
 * @roots: object numbers, in any order, repeats allowed
 * @kinds: (nullable): each root's kind (a StrataRootKind), or %NULL
 *
 * An object rooted more than once keeps its first kind in number order.
 */
void
strata_heap_graph_set_roots (StrataHeapGraph *self,
                             const guint32   *roots,
                             const guint8    *kinds,
                             guint32          n_roots)
{
  g_autofree guint64 *pairs = g_new (guint64, MAX (n_roots, 1));
  guint32 n_unique = 0;

  for (guint32 i = 0; i < n_roots; i++)
    pairs[i] = (guint64) roots[i] << 8 | (kinds != NULL ? kinds[i] : 0);
  qsort (pairs, n_roots, sizeof (guint64), compare_u64);
  g_free (self->roots);
  g_free (self->root_kinds);
  self->roots = g_new (guint32, MAX (n_roots, 1));
  self->root_kinds = g_new (guint8, MAX (n_roots, 1));
  for (guint32 i = 0; i < n_roots; i++)
    {
      guint32 object = pairs[i] >> 8;

      if (object >= self->n || (n_unique > 0 && self->roots[n_unique - 1] == object))
        continue;
      self->roots[n_unique] = object;
      self->root_kinds[n_unique++] = pairs[i] & 0xff;
    }
  self->n_roots = n_unique;
}

/* The kind of root @object is (a StrataRootKind), or -1. */
int
strata_heap_graph_get_root_kind (const StrataHeapGraph *self,
                                 guint32                object)
{
  const guint32 *found = bsearch (&object, self->roots, self->n_roots, sizeof (guint32), strata_heap_graph_compare_u32);

  return found != NULL ? self->root_kinds[found - self->roots] : -1;
}

/* The heap's classes were merged by name: objects follow. */
void
strata_heap_graph_remap_classes (StrataHeapGraph *self,
                                 const guint     *old_to_new)
{
  for (guint32 i = 0; i < self->n; i++)
    if (self->classes[i] != STRATA_HEAP_GRAPH_NONE)
      self->classes[i] = old_to_new[self->classes[i]];
}

/* ---- Reading ---- */

/* The class of each object, for the loader to fill when the graph was
 * made without them. */
guint32 *
strata_heap_graph_peek_classes (StrataHeapGraph *self)
{
  return self->classes;
}

guint32
strata_heap_graph_get_n_objects (const StrataHeapGraph *self)
{
  return self->n;
}

/* The object with @id, or STRATA_HEAP_NO_OBJECT. */
guint32
strata_heap_graph_lookup (const StrataHeapGraph *self,
                          guint64                id)
{
  guint32 lo = 0, hi = self->n;

  if (self->ids64 != NULL)
    {
      while (lo < hi)
        {
          guint32 mid = lo + (hi - lo) / 2;

          if (self->ids64[mid] < id)
            lo = mid + 1;
          else
            hi = mid;
        }
      return lo < self->n && self->ids64[lo] == id ? lo : STRATA_HEAP_NO_OBJECT;
    }
  {
    guint64 offset = id - self->id_base;
    guint32 key;

    if (id < self->id_base || (offset & ((G_GUINT64_CONSTANT (1) << self->id_shift) - 1)) != 0 ||
        (offset >> self->id_shift) > G_MAXUINT32)
      return STRATA_HEAP_NO_OBJECT;
    key = offset >> self->id_shift;
    if (self->id_bits != NULL)
      return lookup_indexed (self, key);
    while (lo < hi)
      {
        guint32 mid = lo + (hi - lo) / 2;

        if (self->ids32[mid] < key)
          lo = mid + 1;
        else
          hi = mid;
      }
    return lo < self->n && self->ids32[lo] == key ? lo : STRATA_HEAP_NO_OBJECT;
  }
}

guint64
strata_heap_graph_get_id (const StrataHeapGraph *self,
                          guint32                object)
{
  if (self->ids64 != NULL)
    return self->ids64[object];
  if (self->ids32 == NULL)
    return self->id_base + ((guint64) select_indexed (self, object) << self->id_shift);
  return self->id_base + ((guint64) self->ids32[object] << self->id_shift);
}

guint32
strata_heap_graph_get_class (const StrataHeapGraph *self,
                             guint32                object)
{
  return self->classes[object];
}

guint64
strata_heap_graph_get_shallow (const StrataHeapGraph *self,
                               guint32                object)
{
  guint64 *big;

  if (G_LIKELY (self->shallow[object] != G_MAXUINT32))
    return self->shallow[object];
  big = g_hash_table_lookup (self->big_shallow, GUINT_TO_POINTER (object));
  return big != NULL ? *big : 0;
}

/* Android dumps put each object in a heap (app, zygote, image). */
void
strata_heap_graph_set_heap (StrataHeapGraph *self,
                            guint32          object,
                            guint8           heap)
{
  if (self->heaps == NULL)
    self->heaps = g_new0 (guint8, MAX (self->n, 1));
  self->heaps[object] = heap;
}

guint8
strata_heap_graph_get_heap (const StrataHeapGraph *self,
                            guint32                object)
{
  return self->heaps != NULL ? self->heaps[object] : 0;
}

/* Sizes are kept in 4 bytes: the rare array over 4 GB goes to a table. */
void
strata_heap_graph_set_shallow (StrataHeapGraph *self,
                               guint32          object,
                               guint64          bytes)
{
  if (G_LIKELY (bytes < G_MAXUINT32))
    {
      self->shallow[object] = bytes;
      return;
    }
  if (self->big_shallow == NULL)
    self->big_shallow = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->shallow[object] = G_MAXUINT32;
  g_hash_table_insert (self->big_shallow, GUINT_TO_POINTER (object), g_memdup2 (&bytes, sizeof bytes));
}

const guint32 *
strata_heap_graph_get_references (const StrataHeapGraph *self,
                                  guint32                object,
                                  guint32               *n_references)
{
  *n_references = self->first[object + 1] - self->first[object];
  return self->targets + self->first[object];
}

/**
 * strata_heap_graph_prepare_paths:
 *
 * Makes the shortest-path tree strata_heap_graph_path_from_root() uses,
 * if it is not made yet: a caller with other work can have it made on
 * another thread meanwhile. Safe from any thread.
 */
void
strata_heap_graph_prepare_paths (const StrataHeapGraph *self)
{
  StrataHeapGraph *mutable = (StrataHeapGraph *) self;

  g_mutex_lock (&mutable->lazy_lock);
  if (self->bfs_parent == NULL)
    strata_heap_graph_search_breadth_first (mutable);
  g_mutex_unlock (&mutable->lazy_lock);
}

/* Referrers are made on the first call (about a second for 27 million
 * objects); safe from any thread. */
const guint32 *
strata_heap_graph_get_referrers (const StrataHeapGraph *self,
                                 guint32                object,
                                 guint32               *n_referrers)
{
  StrataHeapGraph *mutable = (StrataHeapGraph *) self;

  g_mutex_lock (&mutable->lazy_lock);
  if (self->rev_first == NULL)
    strata_heap_graph_build_referrers (mutable);
  g_mutex_unlock (&mutable->lazy_lock);
  *n_referrers = self->rev_first[object + 1] - self->rev_first[object];
  return self->rev_sources + self->rev_first[object];
}

gboolean
strata_heap_graph_is_root (const StrataHeapGraph *self,
                           guint32                object)
{
  return bsearch (&object, self->roots, self->n_roots, sizeof (guint32), strata_heap_graph_compare_u32) != NULL;
}

gboolean
strata_heap_graph_is_reachable (const StrataHeapGraph *self,
                                guint32                object)
{
  return strata_heap_graph_is_reached (self, object);
}

/* The immediate dominator; STRATA_HEAP_NO_OBJECT when only the roots as a
 * whole dominate it, or it is unreachable. */
guint32
strata_heap_graph_get_dominator (const StrataHeapGraph *self,
                                 guint32                object)
{
  return self->idom != NULL ? self->idom[object] : STRATA_HEAP_GRAPH_NONE;
}

/**
 * strata_heap_graph_get_dominated:
 * @object: an object, or STRATA_HEAP_NO_OBJECT for the top of the tree
 *
 * Returns: the objects @object immediately dominates, largest retained first
 */
const guint32 *
strata_heap_graph_get_dominated (const StrataHeapGraph *self,
                                 guint32                object,
                                 guint32               *n_dominated)
{
  guint32 row = object == STRATA_HEAP_GRAPH_NONE ? self->n : object;

  if (self->dom_first == NULL)
    {
      *n_dominated = 0;
      return NULL;
    }
  *n_dominated = self->dom_first[row + 1] - self->dom_first[row];
  return self->dom_children + self->dom_first[row];
}

guint64
strata_heap_graph_get_retained (const StrataHeapGraph *self,
                                guint32                object)
{
  return self->retained_lo != NULL ? strata_heap_graph_retained_of (self, object) : 0;
}

guint64
strata_heap_graph_get_reachable_bytes (const StrataHeapGraph *self)
{
  return self->reachable_bytes;
}

guint32
strata_heap_graph_get_n_unreachable (const StrataHeapGraph *self)
{
  return self->n_unreachable;
}

/**
 * strata_heap_graph_release_pages:
 *
 * Gives back the pages that hold the classes and shallow sizes of
 * objects @from to @to (excluded) where they are kept in scratch files:
 * a pass over every object reads them back as it goes.
 */
void
strata_heap_graph_release_pages (const StrataHeapGraph *self,
                                 guint32                from,
                                 guint32                to)
{
  strata_memory_release_span (self->classes + from, self->classes + to, self->classes_mapped);
  strata_memory_release_span (self->shallow + from, self->shallow + to, self->shallow_mapped);
}

/* Where the walk of strata_heap_graph_sum_by_groups() is: per grouping,
 * how many instances of each group are on the way down. */
typedef struct
{
  const guint *const *group_of;
  guint               n_maps;
  guint               n_classes;
  const guint        *n_groups;
  guint32           **active;
} GroupWalk;

static inline guint32
group_in (const GroupWalk *walk,
          guint            map,
          guint32          klass)
{
  if (klass >= walk->n_classes)
    return G_MAXUINT32;
  return walk->group_of[map] != NULL ? walk->group_of[map][klass] : klass;
}

/* @object enters the way down: the first of its group there adds its retained size. */
static void
enter_object (const StrataHeapGraph *self,
              const GroupWalk       *walk,
              guint32                object,
              int                    heap,
              guint64              **retained)
{
  for (guint m = 0; m < walk->n_maps; m++)
    {
      guint32 group = group_in (walk, m, self->classes[object]);

      if (group >= walk->n_groups[m])
        continue;
      /* With @heap, only its instances count (-1: all heaps). */
      if (walk->active[m][group] == 0 && (heap < 0 || strata_heap_graph_get_heap (self, object) == heap))
        retained[m][group] += strata_heap_graph_retained_of (self, object);
      walk->active[m][group]++;
    }
}

static void
leave_object (const StrataHeapGraph *self,
              const GroupWalk       *walk,
              guint32                object)
{
  for (guint m = 0; m < walk->n_maps; m++)
    {
      guint32 group = group_in (walk, m, self->classes[object]);

      if (group < walk->n_groups[m])
        walk->active[m][group]--;
    }
}

/**
 * strata_heap_graph_sum_by_groups:
 * @group_of: (array length=n_maps): per grouping, each class's group
 *   (below its @n_groups), or %NULL when each class is its own group
 * @n_groups: (array length=n_maps): per grouping, how many groups
 * @heap: only the instances in this heap, or -1 for all
 * @retained: (array length=n_maps): per grouping, @n_groups sums to fill
 *
 * A group of classes retains what their instances retain, each counted
 * once: an instance inside the retained set of another instance of the
 * group adds nothing. One walk down the dominator tree serves every
 * grouping, keeping how many instances of each group are on the way
 * down, and where the walk is in each row on the way (a stack as deep as
 * the tree, which a linked list makes as deep as its length).
 */
void
strata_heap_graph_sum_by_groups (const StrataHeapGraph *self,
                                 const guint *const    *group_of,
                                 guint                  n_maps,
                                 guint                  n_classes,
                                 const guint           *n_groups,
                                 int                    heap,
                                 guint64              **retained)
{
  g_autofree guint32 **active = g_new0 (guint32 *, MAX (n_maps, 1));
  GroupWalk walk = { group_of, n_maps, n_classes, n_groups, active };
  gsize depth = 1, room = 1024;
  g_autofree guint32 *next = g_new (guint32, room);   /* per level: the next child's place */
  guint32 row = self->n;

  for (guint m = 0; m < n_maps; m++)
    {
      memset (retained[m], 0, n_groups[m] * sizeof (guint64));
      active[m] = g_new0 (guint32, MAX (n_groups[m], 1));
    }
  next[0] = self->dom_first != NULL ? self->dom_first[row] : 0;
  while (self->dom_first != NULL && depth > 0)
    {
      guint32 *e = &next[depth - 1];

      if (*e < self->dom_first[row + 1])
        {
          guint32 child = self->dom_children[(*e)++];

          enter_object (self, &walk, child, heap, retained);
          row = child;
          if (depth == room)
            next = g_renew (guint32, next, room *= 2);
          next[depth++] = self->dom_first[child];
          continue;
        }
      depth--;
      if (row == self->n)
        break;
      leave_object (self, &walk, row);
      row = self->idom[row] == STRATA_HEAP_GRAPH_NONE ? self->n : self->idom[row];
    }
  for (guint m = 0; m < n_maps; m++)
    g_free (active[m]);
  /* The walk read every object's class, in tree order: those pages of
   * the scratch file go back. */
  strata_heap_graph_release_pages (self, 0, self->n);
}

/**
 * strata_heap_graph_sum_by_class:
 * @heap: only the instances in this heap, or -1 for all
 * @retained: (out caller-allocates): @n_classes sums
 *
 * What each class's instances retain, each byte once
 * (strata_heap_graph_sum_by_groups(), each class its own group).
 */
void
strata_heap_graph_sum_by_class (const StrataHeapGraph *self,
                                guint                  n_classes,
                                int                    heap,
                                guint64               *retained)
{
  const guint *identity = NULL;

  strata_heap_graph_sum_by_groups (self, &identity, 1, n_classes, &n_classes, heap, &retained);
}

static void
swap_u32 (guint32 *a,
          guint32 *b)
{
  guint32 tmp = *a;

  *a = *b;
  *b = tmp;
}

static void
sift_up (const StrataHeapGraph *self,
         guint32               *heap,
         guint32                at)
{
  while (at > 0 && strata_heap_graph_retained_of (self, heap[(at - 1) / 2]) > strata_heap_graph_retained_of (self, heap[at]))
    {
      swap_u32 (&heap[(at - 1) / 2], &heap[at]);
      at = (at - 1) / 2;
    }
}

static void
sift_down (const StrataHeapGraph *self,
           guint32               *heap,
           guint32                size)
{
  guint32 at = 0;

  for (;;)
    {
      guint32 l = 2 * at + 1, r = l + 1, least = at;

      if (l < size && strata_heap_graph_retained_of (self, heap[l]) < strata_heap_graph_retained_of (self, heap[least]))
        least = l;
      if (r < size && strata_heap_graph_retained_of (self, heap[r]) < strata_heap_graph_retained_of (self, heap[least]))
        least = r;
      if (least == at)
        return;
      swap_u32 (&heap[least], &heap[at]);
      at = least;
    }
}

/**
 * strata_heap_graph_top_retained:
 *
 * Returns: (transfer full): up to @n objects, the largest retained sizes
 *   first
 */
guint32 *
strata_heap_graph_top_retained (const StrataHeapGraph *self,
                                guint32                n,
                                guint32               *n_found)
{
  /* A min-heap of the n largest seen so far. */
  guint32 *heap = g_new (guint32, MAX (n, 1));
  guint32 size = 0;

  for (guint32 i = 0; self->retained_lo != NULL && i < self->n && n > 0; i++)
    {
      if (!strata_heap_graph_is_reached (self, i))
        continue;
      if (size < n)
        {
          heap[size++] = i;
          sift_up (self, heap, size - 1);
        }
      else if (strata_heap_graph_retained_of (self, i) > strata_heap_graph_retained_of (self, heap[0]))
        {
          heap[0] = i;
          sift_down (self, heap, size);
        }
    }
  g_qsort_with_data (heap, size, sizeof (guint32), strata_heap_graph_compare_by_retained, (gpointer) self);
  *n_found = size;
  return heap;
}

/**
 * strata_heap_graph_path_from_root:
 *
 * Returns: (transfer full) (nullable): the objects on a shortest path of
 *   references from a GC root to @object, the root first and @object
 *   last; %NULL when no root reaches it
 */
guint32 *
strata_heap_graph_path_from_root (const StrataHeapGraph *self,
                                  guint32                object,
                                  guint32               *n_steps)
{
  guint32 n = 0, *path;

  *n_steps = 0;
  if (!strata_heap_graph_is_reached (self, object))
    return NULL;
  /* The shortest-path tree is made on the first call. */
  strata_heap_graph_prepare_paths (self);
  for (guint32 v = object; v != STRATA_HEAP_GRAPH_NONE; v = self->bfs_parent[v])
    n++;
  path = g_new (guint32, n);
  *n_steps = n;
  for (guint32 v = object; v != STRATA_HEAP_GRAPH_NONE; v = self->bfs_parent[v])
    path[--n] = v;
  return path;
}

/**
 * strata_heap_graph_list_instances:
 *
 * Returns: (transfer full): the objects of class @klass, largest retained
 *   size first
 */
guint32 *
strata_heap_graph_list_instances (const StrataHeapGraph *self,
                                  guint32                klass,
                                  guint32               *n_found)
{
  guint32 n = 0, *found;

  for (guint32 i = 0; i < self->n; i++)
    n += self->classes[i] == klass;
  found = g_new (guint32, MAX (n, 1));
  n = 0;
  for (guint32 i = 0; i < self->n; i++)
    if (self->classes[i] == klass)
      found[n++] = i;
  g_qsort_with_data (found, n, sizeof (guint32), strata_heap_graph_compare_by_retained, (gpointer) self);
  *n_found = n;
  return found;
}
