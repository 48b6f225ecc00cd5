/* strata-heap.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <glib/gi18n.h>

#include "strata-heap.h"
#include "strata-units.h"

struct _StrataHeap
{
  GArray  *classes;                        /* StrataHeapClass */
  GArray  *sites;                          /* StrataAllocSite */
  GArray  *threads;                        /* StrataHeapThread */
  GHashTable *stacks;                      /* serial -> GArray of guint32 frame texts */
  guint64  roots[STRATA_N_ROOT_KINDS];
  StrataHeapGraph *graph;                  /* binary dumps: objects and references */
  StrataHprofIndex *index;                 /* and their fields */
  GDestroyNotify    free_index;
  GArray  *frame_roots;                    /* StrataFrameRoot, by thread then frame once asked for */
  GPtrArray *heap_names;                   /* Android's heaps; NULL for one heap */
  GPtrArray *heap_shares;                  /* per heap, a GArray of StrataHeapClassShare per class */
  gboolean frame_roots_sorted;
  gboolean weak_followed;                  /* referents of weak, soft and phantom references kept alive */
  guint64  n_weak_referents;
  StrataHeapUnreached softly, weakly;      /* unreachable objects a soft, or a weak or phantom, reference reaches */
};

StrataHeap *
strata_heap_new (void)
{
  StrataHeap *self = g_new0 (StrataHeap, 1);

  self->classes = g_array_new (FALSE, TRUE, sizeof (StrataHeapClass));
  self->sites = g_array_new (FALSE, TRUE, sizeof (StrataAllocSite));
  self->threads = g_array_new (FALSE, TRUE, sizeof (StrataHeapThread));
  self->stacks = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  self->frame_roots = g_array_new (FALSE, FALSE, sizeof (StrataFrameRoot));
  return self;
}

void
strata_heap_free (StrataHeap *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->classes);
  g_array_unref (self->sites);
  g_array_unref (self->threads);
  g_hash_table_unref (self->stacks);
  g_array_unref (self->frame_roots);
  g_clear_pointer (&self->heap_names, g_ptr_array_unref);
  g_clear_pointer (&self->heap_shares, g_ptr_array_unref);
  if (self->index != NULL)
    self->free_index (self->index);
  strata_heap_graph_free (self->graph);
  g_free (self);
}

guint
strata_heap_add_class (StrataHeap *self,
                       guint32     name)
{
  StrataHeapClass klass = { .name = name };

  g_array_append_val (self->classes, klass);
  return self->classes->len - 1;
}

StrataHeapClass *
strata_heap_peek_class (StrataHeap *self,
                        guint       index)
{
  g_assert (index < self->classes->len);

  return &g_array_index (self->classes, StrataHeapClass, index);
}

guint
strata_heap_get_n_classes (const StrataHeap *self)
{
  return self->classes->len;
}

const StrataHeapClass *
strata_heap_get_class (const StrataHeap *self,
                       guint             index)
{
  g_return_val_if_fail (index < self->classes->len, NULL);

  return &g_array_index (self->classes, StrataHeapClass, index);
}

static const StrataHeap *sort_heap;

static int
compare_by_bytes (const void *a,
                  const void *b)
{
  const StrataHeapClass *ca = strata_heap_get_class (sort_heap, *(const guint *) a);
  const StrataHeapClass *cb = strata_heap_get_class (sort_heap, *(const guint *) b);

  if (ca->shallow_bytes != cb->shallow_bytes)
    return ca->shallow_bytes > cb->shallow_bytes ? -1 : 1;
  if (ca->instances != cb->instances)
    return ca->instances > cb->instances ? -1 : 1;
  return *(const guint *) a < *(const guint *) b ? -1 : 1;
}

/**
 * strata_heap_sort_by_bytes:
 *
 * Returns: (transfer full): class indexes, most shallow bytes first
 */
guint *
strata_heap_sort_by_bytes (const StrataHeap *self)
{
  static GMutex lock;
  guint *order = g_new (guint, MAX (self->classes->len, 1));

  for (guint i = 0; i < self->classes->len; i++)
    order[i] = i;
  /* qsort has no user data in C11: one sort at a time. */
  g_mutex_lock (&lock);
  sort_heap = self;
  qsort (order, self->classes->len, sizeof (guint), compare_by_bytes);
  g_mutex_unlock (&lock);
  return order;
}

void
strata_heap_add_site (StrataHeap            *self,
                      const StrataAllocSite *site)
{
  g_array_append_val (self->sites, *site);
}

/* A later SITES section (hprof writes one per dump request) replaces the
 * earlier. */
void
strata_heap_clear_sites (StrataHeap *self)
{
  g_array_set_size (self->sites, 0);
}

guint
strata_heap_get_n_sites (const StrataHeap *self)
{
  return self->sites->len;
}

const StrataAllocSite *
strata_heap_get_site (const StrataHeap *self,
                      guint             index)
{
  g_return_val_if_fail (index < self->sites->len, NULL);

  return &g_array_index (self->sites, StrataAllocSite, index);
}

/**
 * strata_heap_add_stack:
 * @frames: string pool ids of the frames as text, innermost first
 *
 * A stack trace that sites and threads refer to by @serial.
 */
void
strata_heap_add_stack (StrataHeap    *self,
                       guint32        serial,
                       const guint32 *frames,
                       guint          n_frames)
{
  GArray *stack = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n_frames);

  g_array_append_vals (stack, frames, n_frames);
  g_hash_table_replace (self->stacks, GUINT_TO_POINTER (serial), stack);
}

/**
 * strata_heap_get_stack:
 *
 * Returns: (nullable): the frames of the stack trace @serial, innermost
 *   first, or %NULL if the dump does not hold it
 */
const guint32 *
strata_heap_get_stack (const StrataHeap *self,
                       guint32           serial,
                       guint            *n_frames)
{
  GArray *stack = g_hash_table_lookup (self->stacks, GUINT_TO_POINTER (serial));

  *n_frames = stack ? stack->len : 0;
  return stack ? (const guint32 *) stack->data : NULL;
}

void
strata_heap_add_thread (StrataHeap             *self,
                        const StrataHeapThread *thread)
{
  for (guint i = 0; i < self->threads->len; i++)
    {
      StrataHeapThread *known = &g_array_index (self->threads, StrataHeapThread, i);

      /* The same thread seen again (START THREAD, then its root): merge. */
      if (known->serial == thread->serial)
        {
          if (thread->name != 0)
            known->name = thread->name;
          if (thread->stack != 0)
            known->stack = thread->stack;
          return;
        }
    }
  g_array_append_val (self->threads, *thread);
}

guint
strata_heap_get_n_threads (const StrataHeap *self)
{
  return self->threads->len;
}

const StrataHeapThread *
strata_heap_get_thread (const StrataHeap *self,
                        guint             index)
{
  g_return_val_if_fail (index < self->threads->len, NULL);

  return &g_array_index (self->threads, StrataHeapThread, index);
}

void
strata_heap_add_root (StrataHeap     *self,
                      StrataRootKind  kind)
{
  self->roots[kind < STRATA_N_ROOT_KINDS ? kind : STRATA_ROOT_UNKNOWN]++;
}

guint64
strata_heap_get_root_count (const StrataHeap *self,
                            StrataRootKind    kind)
{
  g_return_val_if_fail (kind < STRATA_N_ROOT_KINDS, 0);

  return self->roots[kind];
}

void
strata_heap_get_totals (const StrataHeap *self,
                        guint64          *instances,
                        guint64          *bytes)
{
  *instances = *bytes = 0;
  for (guint i = 0; i < self->classes->len; i++)
    {
      *instances += g_array_index (self->classes, StrataHeapClass, i).instances;
      *bytes += g_array_index (self->classes, StrataHeapClass, i).shallow_bytes;
    }
}

const char *
strata_root_kind_get_name (StrataRootKind kind)
{
  switch (kind)
    {
    case STRATA_ROOT_UNKNOWN: return _("Unknown");
    case STRATA_ROOT_JNI_GLOBAL: return _("JNI global");
    case STRATA_ROOT_JNI_LOCAL: return _("JNI local");
    case STRATA_ROOT_JAVA_FRAME: return _("Java frame");
    case STRATA_ROOT_NATIVE_STACK: return _("Native stack");
    case STRATA_ROOT_STICKY_CLASS: return _("Sticky class");
    case STRATA_ROOT_THREAD_BLOCK: return _("Thread block");
    case STRATA_ROOT_MONITOR_USED: return _("Monitor used");
    case STRATA_ROOT_THREAD_OBJECT: return _("Thread object");
    case STRATA_ROOT_INTERNED_STRING: return _("Interned string");
    case STRATA_ROOT_FINALIZING: return _("Finalizing");
    case STRATA_ROOT_DEBUGGER: return _("Debugger");
    case STRATA_ROOT_REFERENCE_CLEANUP: return _("Reference cleanup");
    case STRATA_ROOT_VM_INTERNAL: return _("VM internal");
    case STRATA_ROOT_JNI_MONITOR: return _("JNI monitor");
    case STRATA_ROOT_UNREACHABLE: return _("Unreachable");
    case STRATA_N_ROOT_KINDS:
    default:
      return _("Unknown");
    }
}

/* A stable name for machines (JSON reports), not translated. */
const char *
strata_root_kind_get_id (StrataRootKind kind)
{
  static const char *ids[] = {
    "unknown", "jni-global", "jni-local", "java-frame", "native-stack", "sticky-class",
    "thread-block", "monitor-used", "thread-object", "interned-string", "finalizing",
    "debugger", "reference-cleanup", "vm-internal", "jni-monitor", "unreachable",
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (ids) == STRATA_N_ROOT_KINDS);
  return kind < STRATA_N_ROOT_KINDS ? ids[kind] : ids[0];
}

/**
 * strata_heap_merge_same_names:
 *
 * One row per class name: array classes a dump lists more than once, and
 * primitive arrays counted apart from their class records, are summed.
 *
 * Returns: (transfer full): each old class index's new one
 */
guint *
strata_heap_merge_same_names (StrataHeap *self)
{
  g_autoptr(GHashTable) by_name = g_hash_table_new (NULL, NULL);
  GArray *merged = g_array_new (FALSE, TRUE, sizeof (StrataHeapClass));
  guint *old_to_new = g_new (guint, MAX (self->classes->len, 1));

  for (guint i = 0; i < self->classes->len; i++)
    {
      const StrataHeapClass *klass = &g_array_index (self->classes, StrataHeapClass, i);
      gpointer found = g_hash_table_lookup (by_name, GUINT_TO_POINTER (klass->name));

      if (found == NULL)
        {
          g_array_append_val (merged, *klass);
          g_hash_table_insert (by_name, GUINT_TO_POINTER (klass->name), GUINT_TO_POINTER (merged->len));
          old_to_new[i] = merged->len - 1;
        }
      else
        {
          StrataHeapClass *into = &g_array_index (merged, StrataHeapClass, GPOINTER_TO_UINT (found) - 1);

          into->instances += klass->instances;
          into->shallow_bytes += klass->shallow_bytes;
          into->retained_bytes += klass->retained_bytes;
          old_to_new[i] = GPOINTER_TO_UINT (found) - 1;
        }
    }
  g_array_unref (self->classes);
  self->classes = merged;
  return old_to_new;
}

/**
 * strata_heap_set_heap_names:
 * @names: (transfer full): char *, as the heaps are numbered in the graph
 */
void
strata_heap_set_heap_names (StrataHeap *self,
                            GPtrArray  *names)
{
  g_clear_pointer (&self->heap_names, g_ptr_array_unref);
  self->heap_names = names;
}

/* Each class's instances, bytes and retained bytes per heap. */
static void
sum_heap_shares (StrataHeap *self)
{
  guint n_classes = self->classes->len;

  g_clear_pointer (&self->heap_shares, g_ptr_array_unref);
  if (self->graph == NULL || strata_heap_get_n_heaps (self) == 0)
    return;
  self->heap_shares = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  for (guint h = 0; h < self->heap_names->len; h++)
    {
      GArray *shares = g_array_new (FALSE, TRUE, sizeof (StrataHeapClassShare));
      g_autofree guint64 *retained = g_new0 (guint64, MAX (n_classes, 1));

      g_array_set_size (shares, n_classes);
      strata_heap_graph_sum_by_class (self->graph, n_classes, h, retained);
      for (guint c = 0; c < n_classes; c++)
        g_array_index (shares, StrataHeapClassShare, c).retained_bytes = retained[c];
      g_ptr_array_add (self->heap_shares, shares);
    }
  for (guint32 i = 0; i < strata_heap_graph_get_n_objects (self->graph); i++)
    {
      guint32 c = strata_heap_graph_get_class (self->graph, i);
      guint8 h = strata_heap_graph_get_heap (self->graph, i);
      StrataHeapClassShare *share;

      if (c >= n_classes || h >= self->heap_shares->len)
        continue;
      share = &g_array_index ((GArray *) g_ptr_array_index (self->heap_shares, h), StrataHeapClassShare, c);
      share->instances++;
      share->shallow_bytes += strata_heap_graph_get_shallow (self->graph, i);
    }
}

/* 0 for a dump of one heap; Android's have app, zygote, image… */
guint
strata_heap_get_n_heaps (const StrataHeap *self)
{
  return self->heap_names != NULL && self->heap_names->len > 1 ? self->heap_names->len : 0;
}

const char *
strata_heap_get_heap_name (const StrataHeap *self,
                           guint             heap)
{
  g_return_val_if_fail (heap < strata_heap_get_n_heaps (self), NULL);

  return g_ptr_array_index (self->heap_names, heap);
}

const StrataHeapClassShare *
strata_heap_get_class_in_heap (const StrataHeap *self,
                               guint             heap,
                               guint             klass)
{
  g_return_val_if_fail (self->heap_shares != NULL && heap < self->heap_shares->len, NULL);
  g_return_val_if_fail (klass < self->classes->len, NULL);

  return &g_array_index ((GArray *) g_ptr_array_index (self->heap_shares, heap), StrataHeapClassShare, klass);
}

/**
 * strata_heap_take_graph:
 *
 * The objects and references of a binary dump; the class histogram then
 * comes from them: instances, the VM's shallow sizes and retained sizes.
 */
void
strata_heap_take_graph (StrataHeap       *self,
                        StrataHeapGraph  *graph,
                        StrataHprofIndex *index,
                        GDestroyNotify    free_index)
{
  g_autofree guint64 *retained = g_new0 (guint64, MAX (self->classes->len, 1));

  if (self->index != NULL)
    self->free_index (self->index);
  strata_heap_graph_free (self->graph);
  self->graph = graph;
  self->index = index;
  self->free_index = free_index;
  for (guint c = 0; c < self->classes->len; c++)
    {
      StrataHeapClass *klass = &g_array_index (self->classes, StrataHeapClass, c);

      klass->instances = klass->shallow_bytes = 0;
    }
  for (guint32 i = 0; i < strata_heap_graph_get_n_objects (graph); i++)
    {
      guint32 c = strata_heap_graph_get_class (graph, i);

      if (c >= self->classes->len)
        continue;
      g_array_index (self->classes, StrataHeapClass, c).instances++;
      g_array_index (self->classes, StrataHeapClass, c).shallow_bytes += strata_heap_graph_get_shallow (graph, i);
    }
  strata_heap_graph_sum_by_class (graph, self->classes->len, -1, retained);
  /* Read once for the sums: their pages wait in the scratch files. */
  strata_heap_graph_release_pages (graph, 0, strata_heap_graph_get_n_objects (graph));
  for (guint c = 0; c < self->classes->len; c++)
    g_array_index (self->classes, StrataHeapClass, c).retained_bytes = retained[c];
  sum_heap_shares (self);
}

StrataHeapGraph *
strata_heap_get_graph (const StrataHeap *self)
{
  return self->graph;
}

StrataHprofIndex *
strata_heap_get_index (const StrataHeap *self)
{
  return self->index;
}

void
strata_heap_add_frame_root (StrataHeap            *self,
                            const StrataFrameRoot *root)
{
  g_array_append_val (self->frame_roots, *root);
  self->frame_roots_sorted = FALSE;
}

static int
compare_frame_roots (gconstpointer a,
                     gconstpointer b)
{
  const StrataFrameRoot *x = a, *y = b;

  if (x->thread != y->thread)
    return x->thread < y->thread ? -1 : 1;
  return x->frame < y->frame ? -1 : x->frame > y->frame;
}

/**
 * strata_heap_get_frame_roots:
 *
 * Returns: (transfer none): the objects @thread's frames hold, in frame
 *   order (those whose frame is not known first)
 */
const StrataFrameRoot *
strata_heap_get_frame_roots (const StrataHeap *self,
                             guint32           thread,
                             guint            *n_roots)
{
  StrataHeap *mutable = (StrataHeap *) self;
  StrataFrameRoot key = { thread, G_MININT32, 0 };
  guint lo = 0, hi;

  /* Sorted once, on the thread that shows them first: loading is done. */
  if (!self->frame_roots_sorted)
    {
      g_array_sort (mutable->frame_roots, compare_frame_roots);
      mutable->frame_roots_sorted = TRUE;
    }
  hi = self->frame_roots->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (compare_frame_roots (&g_array_index (self->frame_roots, StrataFrameRoot, mid), &key) < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (hi = lo; hi < self->frame_roots->len && g_array_index (self->frame_roots, StrataFrameRoot, hi).thread == thread; hi++)
    ;
  *n_roots = hi - lo;
  return hi > lo ? &g_array_index (self->frame_roots, StrataFrameRoot, lo) : NULL;
}

/**
 * strata_heap_set_weak_referents:
 * @followed: whether the graph counts a weak, soft or phantom reference's
 *   referent as kept alive by it
 * @n_referents: how many such references had a referent
 */
void
strata_heap_set_weak_referents (StrataHeap *self,
                                gboolean    followed,
                                guint64     n_referents)
{
  self->weak_followed = followed;
  self->n_weak_referents = n_referents;
}

/**
 * strata_heap_set_weakly_reached:
 * @softly: the unreachable objects that soft references still reach
 * @weakly: those only weak, phantom or final references reach
 */
void
strata_heap_set_weakly_reached (StrataHeap                *self,
                                const StrataHeapUnreached *softly,
                                const StrataHeapUnreached *weakly)
{
  self->softly = *softly;
  self->weakly = *weakly;
}

/**
 * strata_heap_get_unreachable_bytes:
 *
 * Returns: the shallow bytes of the objects no GC root reaches through
 *   strong references: they are in the classes, as the dump holds them
 */
guint64
strata_heap_get_unreachable_bytes (const StrataHeap *self)
{
  guint64 instances, bytes;

  strata_heap_get_totals (self, &instances, &bytes);
  return bytes - MIN (bytes, strata_heap_graph_get_reachable_bytes (self->graph));
}

/**
 * strata_heap_describe_unreachable:
 *
 * Returns: (transfer full): "13,084 (2.2 MB): 300 (12.0 kB) only through
 *   soft references, kept until memory runs short; 200 (8.0 kB) only
 *   through weak, phantom or final ones; 12,584 (2.1 MB) garbage."
 */
char *
strata_heap_describe_unreachable (const StrataHeap *self)
{
  guint64 n = strata_heap_graph_get_n_unreachable (self->graph), unreachable_bytes;
  guint64 garbage, garbage_bytes;
  g_autofree char *all = NULL, *all_size = NULL, *soft = NULL, *soft_size = NULL;
  g_autofree char *weak = NULL, *weak_size = NULL, *rest = NULL, *rest_size = NULL;

  unreachable_bytes = strata_heap_get_unreachable_bytes (self);
  garbage = n - MIN (n, self->softly.objects + self->weakly.objects);
  garbage_bytes = unreachable_bytes - MIN (unreachable_bytes, self->softly.bytes + self->weakly.bytes);
  all = strata_units_format_count (n);
  all_size = g_format_size (unreachable_bytes);
  if (self->weak_followed || self->softly.objects + self->weakly.objects == 0)
    /* Translators: a number of objects, then their size */
    return g_strdup_printf (_("%s (%s)"), all, all_size);
  soft = strata_units_format_count (self->softly.objects);
  soft_size = g_format_size (self->softly.bytes);
  weak = strata_units_format_count (self->weakly.objects);
  weak_size = g_format_size (self->weakly.bytes);
  rest = strata_units_format_count (garbage);
  rest_size = g_format_size (garbage_bytes);
  /* Translators: unreachable objects and their size, then of them: those soft references reach, those only
   * weak ones reach, and the garbage, each with its size */
  return g_strdup_printf (_("%s (%s): %s (%s) only through soft references, kept until memory runs short; "
                            "%s (%s) only through weak, phantom or final ones; %s (%s) garbage."),
                          all, all_size, soft, soft_size, weak, weak_size, rest, rest_size);
}

const StrataHeapUnreached *
strata_heap_get_softly_reached (const StrataHeap *self)
{
  return &self->softly;
}

const StrataHeapUnreached *
strata_heap_get_weakly_reached (const StrataHeap *self)
{
  return &self->weakly;
}

gboolean
strata_heap_get_weak_followed (const StrataHeap *self)
{
  return self->weak_followed;
}

guint64
strata_heap_get_n_weak_referents (const StrataHeap *self)
{
  return self->n_weak_referents;
}

/**
 * strata_heap_describe_weak_referents:
 *
 * Returns: (transfer full): a sentence saying whether weak, soft and
 *   phantom references keep objects alive in the figures, and how many
 */
char *
strata_heap_describe_weak_referents (const StrataHeap *self)
{
  g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, self->n_weak_referents);
  gulong n = (gulong) MIN (self->n_weak_referents, G_MAXULONG);

  if (self->weak_followed)
    return g_strdup_printf (ngettext ("Weak, soft and phantom references keep their referents alive here: %s referent is counted.",
                                      "Weak, soft and phantom references keep their referents alive here: %s referents are counted.", n),
                            count);
  return g_strdup_printf (ngettext ("Weak, soft and phantom references keep nothing alive here, as in Eclipse MAT: %s referent is not counted.",
                                    "Weak, soft and phantom references keep nothing alive here, as in Eclipse MAT: %s referents are not counted.", n),
                          count);
}
