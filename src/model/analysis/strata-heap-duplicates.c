/* strata-heap-duplicates.c: strings and primitive arrays a heap dump holds
 * more than once
 *
 * Equal copies are grouped by content: a string by its text (with its
 * value array, a copy costs both), a primitive array by its type, length
 * and bytes. What all but one copy take is wasted, as Eclipse MAT and
 * Android Studio count it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-hprof-index.h"
#include "strata-heap-duplicates.h"
#include "strata-heap-labels.h"

/* A copy: the hash of its content, and the object. */
typedef struct
{
  guint64 hash;
  guint32 object;
} Copy;

/* What a copy holds: its bytes in the dump, and what tells equal bytes
 * apart (an array's class, a string's coder and element type). */
typedef struct
{
  const guint8 *data;
  gsize         len;
  guint64       kind;
  guint32       value;     /* a string's value array; copies sharing it waste only themselves */
} Content;

typedef struct
{
  StrataTrace      *trace;
  StrataHeapGraph  *graph;
  StrataHprofIndex *index;
  gboolean          strings;
  guint32           string_class;
  gboolean         *primitive;   /* by class */
  guint             n_classes;
} Search;

/* 64 bits of FNV-1a over the content, mixed with its kind. */
static guint64
hash_content (const Content *content)
{
  guint64 hash = 0xcbf29ce484222325u ^ (content->kind * 0x9e3779b97f4a7c15u);

  for (gsize i = 0; i < content->len; i++)
    hash = (hash ^ content->data[i]) * 0x100000001b3u;
  return hash ^ content->len;
}

static gboolean
read_content (const Search *search,
              guint32       object,
              Content      *content)
{
  guint32 klass = strata_heap_graph_get_class (search->graph, object);
  guint32 length;
  guint type, coder;

  if (search->strings)
    {
      if (klass != search->string_class ||
          !strata_hprof_index_get_string_value (search->index, search->trace, object, &content->data, &length, &type, &coder))
        return FALSE;
      content->kind = type << 8 | coder;
      {
        guint32 n;
        const guint32 *refs = strata_heap_graph_get_references (search->graph, object, &n);

        content->value = n > 0 ? refs[0] : G_MAXUINT32;
      }
    }
  else
    {
      if (klass >= search->n_classes || !search->primitive[klass] ||
          !(content->data = strata_hprof_index_get_primitive_array (search->index, object, &type, &length)) || length == 0)
        return FALSE;
      content->kind = klass;
      content->value = G_MAXUINT32;
    }
  content->len = (gsize) length * strata_heap_type_size (type);
  return TRUE;
}

static void
clear_duplicate (gpointer data)
{
  g_free (((StrataHeapDuplicate *) data)->text);
}

/* The most wasted first; ties by more copies, then the earliest. */
static int
compare_wasted (gconstpointer a,
                gconstpointer b)
{
  const StrataHeapDuplicate *x = a, *y = b;

  if (x->wasted != y->wasted)
    return x->wasted > y->wasted ? -1 : 1;
  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return x->example < y->example ? -1 : x->example > y->example;
}

/* Gives back the pages read for objects @from to @to (excluded): their
 * records in the dump and their classes and sizes in the scratch files,
 * so a pass over every object streams through them. */
static void
release_read (const Search *search,
              guint32       from,
              guint32       to)
{
  strata_hprof_index_release_records (search->index, from, to);
  strata_heap_graph_release_pages (search->graph, from, to);
}

/* Sorts copies by hash: four passes of 16 bits, least first. */
static void
sort_copies (GArray *copies)
{
  gsize n = copies->len;
  g_autofree Copy *scratch = g_new (Copy, MAX (n, 1));
  g_autofree gsize *counts = g_new (gsize, 65536);
  Copy *from = (Copy *) copies->data, *to = scratch;

  for (guint shift = 0; shift < 64; shift += 16)
    {
      gsize at = 0;

      memset (counts, 0, 65536 * sizeof (gsize));
      for (gsize i = 0; i < n; i++)
        counts[(from[i].hash >> shift) & 0xffff]++;
      for (guint d = 0; d < 65536; d++)
        {
          gsize c = counts[d];

          counts[d] = at;
          at += c;
        }
      for (gsize i = 0; i < n; i++)
        to[counts[(from[i].hash >> shift) & 0xffff]++] = from[i];
      { Copy *swap = from; from = to; to = swap; }
    }
  /* Four passes: the sorted copies are back where they started. */
}

/* The copies of one hash that equal the first: how many, and the bytes
 * all but the first waste. */
static void
group_run (const Search *search,
           const Copy   *run,
           gsize         n,
           GArray       *found)
{
  StrataHeapDuplicate duplicate = { NULL, 0, 0, 1, 0, run[0].object };
  Content first, other;
  guint64 value_bytes;

  if (n < 2 || !read_content (search, run[0].object, &first))
    return;
  value_bytes = first.value != G_MAXUINT32 ? strata_heap_graph_get_shallow (search->graph, first.value) : 0;
  for (gsize i = 1; i < n; i++)
    {
      /* A run of millions of equal copies streams through the dump too. */
      if (i % 65536 == 0)
        release_read (search, run[i - 65536].object, run[i - 1].object + 1);
      if (!read_content (search, run[i].object, &other) || other.kind != first.kind || other.len != first.len ||
          memcmp (other.data, first.data, first.len) != 0)
        continue;
      duplicate.count++;
      duplicate.wasted += strata_heap_graph_get_shallow (search->graph, run[i].object) +
                          (other.value != first.value ? value_bytes : 0);
    }
  if (duplicate.count < 2)
    return;
  if (!search->strings)
    {
      guint type;

      duplicate.heap_class = strata_heap_graph_get_class (search->graph, run[0].object);
      strata_hprof_index_get_primitive_array (search->index, run[0].object, &type, &duplicate.length);
    }
  g_array_append_val (found, duplicate);
}

/* The strings or primitive arrays among objects @from to @to, each with
 * the hash of what it holds, in object order. */
typedef struct
{
  const Search *search;
  GCancellable *cancellable;
  guint32       from;
  guint32       to;
  GArray       *copies;   /* Copy */
} HashPart;

static gpointer
hash_part (gpointer data)
{
  HashPart *part = data;
  const Search *search = part->search;
  Content content;

  part->copies = g_array_new (FALSE, FALSE, sizeof (Copy));
  for (guint32 i = part->from; i < part->to; i++)
    {
      /* Records read go back to the system: the dump streams through. */
      if ((i - part->from) % 65536 == 0 && i > part->from)
        {
          release_read (search, i - 65536, i);
          if (g_cancellable_is_cancelled (part->cancellable))
            break;
        }
      if (read_content (search, i, &content))
        g_array_append_val (part->copies, ((Copy) { hash_content (&content), i }));
    }
  return NULL;
}

/* Every copy, hashed on both cores, each half of the objects on one. */
static GArray *
hash_copies (const Search *search,
             GCancellable *cancellable)
{
  guint32 n = strata_heap_graph_get_n_objects (search->graph);
  HashPart low = { search, cancellable, 0, n / 2, NULL }, high = { search, cancellable, n / 2, n, NULL };
  GThread *worker = g_thread_try_new ("strata-duplicates", hash_part, &high, NULL);

  hash_part (&low);
  if (worker != NULL)
    g_thread_join (worker);
  else
    hash_part (&high);
  g_array_append_vals (low.copies, high.copies->data, high.copies->len);
  g_array_unref (high.copies);
  return low.copies;
}

/* Runs of one hash among copies @from to @to, each run checked byte by
 * byte. */
typedef struct
{
  const Search *search;
  const GArray *copies;
  gsize         from;
  gsize         to;
  GArray       *found;
  GCancellable *cancellable;
} RunPart;

static gpointer
group_runs (gpointer data)
{
  RunPart *part = data;

  for (gsize a = part->from, b; a < part->to && !g_cancellable_is_cancelled (part->cancellable); a = b)
    {
      const Copy *run = &g_array_index (part->copies, Copy, a);

      for (b = a + 1; b < part->to && g_array_index (part->copies, Copy, b).hash == run->hash; b++)
        ;
      group_run (part->search, run, b - a, part->found);
    }
  return NULL;
}

/* The runs in two halves, split where a run starts, one on each core:
 * the byte by byte checks of 15 million strings and arrays take a
 * second on one. */
static void
group_runs_on_both_cores (const Search *search,
                          const GArray *copies,
                          GArray       *found,
                          GCancellable *cancellable)
{
  gsize split = copies->len / 2;
  RunPart low = { search, copies, 0, 0, found, cancellable };
  RunPart high = { search, copies, 0, copies->len, NULL, cancellable };
  GThread *worker;

  while (split > 0 && split < copies->len &&
         g_array_index (copies, Copy, split).hash == g_array_index (copies, Copy, split - 1).hash)
    split++;
  low.to = high.from = split;
  high.found = g_array_new (FALSE, TRUE, sizeof (StrataHeapDuplicate));
  worker = g_thread_try_new ("strata-duplicate-runs", group_runs, &high, NULL);
  group_runs (&low);
  if (worker != NULL)
    g_thread_join (worker);
  else
    group_runs (&high);
  /* The texts are read after the sort: none to move here. */
  g_array_append_vals (found, high.found->data, high.found->len);
  g_array_unref (high.found);
}

/**
 * strata_heap_find_duplicates:
 * @strings: strings, or else primitive arrays
 * @max: at most this many groups, the most wasteful
 *
 * Copies are hashed where the dump holds them and sorted by hash, so
 * equal ones come together without a table of millions of groups; each
 * run of one hash is checked byte by byte. Only the groups kept get
 * their text.
 *
 * Returns: (transfer full): StrataHeapDuplicate, the most wasted bytes
 *   first; texts owned by the array (free them with it)
 */
GArray *
strata_heap_find_duplicates (StrataTrace  *trace,
                             gboolean      strings,
                             guint         max,
                             GCancellable *cancellable)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  StrataHeapGraph *graph = heap != NULL ? strata_heap_get_graph (heap) : NULL;
  GArray *found = g_array_new (FALSE, TRUE, sizeof (StrataHeapDuplicate));
  static const char *primitive_arrays[] = { "boolean[]", "char[]", "float[]", "double[]", "byte[]", "short[]", "int[]", "long[]" };
  g_autofree gboolean *primitive = NULL;
  g_autoptr(GArray) copies = NULL;
  Search search = { trace, graph, graph != NULL ? strata_heap_get_index (heap) : NULL, strings };

  g_array_set_clear_func (found, clear_duplicate);
  if (search.index == NULL)
    return found;
  search.string_class = strata_heap_class_named (trace, "java.lang.String");
  search.n_classes = strata_heap_get_n_classes (heap);
  /* Only these objects' records are read, so the rest of the dump stays
   * on disk. */
  search.primitive = primitive = g_new0 (gboolean, search.n_classes + 1);
  for (guint p = 0; p < G_N_ELEMENTS (primitive_arrays); p++)
    {
      guint32 c = strata_heap_class_named (trace, primitive_arrays[p]);

      if (c != G_MAXUINT)
        primitive[c] = TRUE;
    }
  copies = hash_copies (&search, cancellable);
  sort_copies (copies);
  group_runs_on_both_cores (&search, copies, found, cancellable);
  g_array_sort (found, compare_wasted);
  if (found->len > max)
    g_array_set_size (found, max);
  for (guint i = 0; strings && i < found->len; i++)
    {
      StrataHeapDuplicate *duplicate = &g_array_index (found, StrataHeapDuplicate, i);

      duplicate->text = strata_hprof_index_dup_string (search.index, trace, duplicate->example);
    }
  return found;
}

/* What refers to @object, each once in @seen, appended to @holders. */
static void
add_holders (StrataHeapGraph *graph,
             guint32          object,
             GHashTable      *seen,
             GArray          *holders)
{
  guint32 n;
  const guint32 *referrers = strata_heap_graph_get_referrers (graph, object, &n);

  for (guint32 r = 0; r < n; r++)
    if (g_hash_table_add (seen, GUINT_TO_POINTER (referrers[r] + 1)))
      g_array_append_val (holders, referrers[r]);
}

/**
 * strata_heap_duplicate_holders:
 * @duplicate: from strata_heap_find_duplicates()
 *
 * What holds the copies: every object that refers to one of them (a
 * field's owner, an array), each once. The copies are found again among
 * the instances of their class, by their content.
 *
 * Returns: (transfer full): the holders, in the order of the copies
 *   they hold, the copies largest retained first
 */
guint32 *
strata_heap_duplicate_holders (StrataTrace               *trace,
                               const StrataHeapDuplicate *duplicate,
                               guint32                   *n_holders,
                               GCancellable              *cancellable)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  StrataHeapGraph *graph = strata_heap_get_graph (heap);
  guint32 klass = strata_heap_graph_get_class (graph, duplicate->example), n = 0;
  g_autofree gboolean *primitive = g_new0 (gboolean, strata_heap_get_n_classes (heap) + 1);
  Search search = { trace, graph, strata_heap_get_index (heap), duplicate->text != NULL,
                    strata_heap_class_named (trace, "java.lang.String"), primitive, strata_heap_get_n_classes (heap) };
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  GArray *holders = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree guint32 *instances = strata_heap_graph_list_instances (graph, klass, &n);
  Content example, other;

  if (klass < search.n_classes)
    primitive[klass] = TRUE;
  if (!read_content (&search, duplicate->example, &example))
    n = 0;
  for (guint32 i = 0; i < n && !g_cancellable_is_cancelled (cancellable); i++)
    if (read_content (&search, instances[i], &other) && other.kind == example.kind && other.len == example.len &&
        memcmp (other.data, example.data, example.len) == 0)
      add_holders (graph, instances[i], seen, holders);
  *n_holders = holders->len;
  return (guint32 *) g_array_free (holders, FALSE);
}
