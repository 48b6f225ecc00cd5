/* strata-hprof-graph.c: a binary heap dump's objects, their sizes in the
 * VM that wrote it, and their references
 *
 * The record walk notes where each object's record is. Here the objects
 * are put in id order, each record is read again for its references
 * (strata-hprof-edges.c: instance fields by their class's layout, array
 * elements, a class's static fields, superclass and loader), and the
 * graph is handed to
 * StrataHeapGraph for dominators and retained sizes.
 *
 * Sizes are the VM's, as `jcmd GC.class_histogram` prints them, and the
 * dump says which VM wrote it. ART (Android) writes JAVA PROFILE 1.0.3,
 * HEAP DUMP INFO records and classes of its own (dalvik.*, android.*),
 * also when hprof-conv has made the dump standard; it gives each class's
 * instance size, header included, in its class dump; its arrays have a
 * 12-byte header, 16 before 8-byte elements. Otherwise HotSpot wrote it,
 * or its hprof agent, whose class dumps hold only the declared fields'
 * bytes. A 64-bit HotSpot dump writes every reference as an 8-byte id,
 * but a heap under 32 GB uses 4-byte compressed references and class
 * pointers: a 12-byte object header, 16 bytes before an array's
 * elements, everything aligned to 8. The span of the object ids
 * (addresses) tells which, as Eclipse MAT and VisualVM infer it. 4-byte
 * ids come from a 32-bit VM, or from the hprof agent (JDK 5 to 8), whose
 * ids are serial numbers, not addresses: both get the 32-bit layout, an
 * 8-byte header, 12 bytes before an array's elements (16 before 8-byte
 * ones), as VisualVM sizes them. JDK 8 and older (no java.lang.Module)
 * hide other fields than JDK 9 on (strata-hprof-hotspot.c).
 *
 * The referent of a java.lang.ref.Reference is not followed unless the
 * load asks for it: by default an object only weakly, softly or phantom
 * reachable is not kept alive by the reference, as Eclipse MAT counts it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "strata-hprof-hotspot.h"
#include "strata-hprof-graph-private.h"
#include "strata-hprof-private.h"
#include "strata-load-guard.h"
#include "strata-memory.h"
#include "strata-radix-sort.h"

#define MAX_CLASS_DEPTH 256
#define COMPRESSED_HEAP_LIMIT (G_GUINT64_CONSTANT (32) << 30)


void
hprof_note_object (HprofLoader  *self,
                   const guint8 *tag,
                   guint64       id)
{
  HprofObject object = { id, tag - self->data };

  g_array_append_val (self->objects, object);
}

/* ---- Sizes ---- */

static const char *
class_name (HprofLoader *self,
            guint64      class_id)
{
  guint32 heap_class = strata_id_map_lookup (&self->classes, class_id);

  if (heap_class == STRATA_ID_MAP_MISSING)
    return "";
  return strata_trace_get_string (self->trace, strata_heap_get_class (self->heap, heap_class)->name);
}

static guint64
find_class_id (HprofLoader *self,
               const char  *name)
{
  const StrataIdMap *map = &self->classes;

  for (gsize slot = 0; map->keys != NULL && slot <= map->mask; slot++)
    if (map->values[slot] != 0 && strcmp (class_name (self, map->keys[slot]), name) == 0)
      return map->keys[slot];
  return 0;
}

/* Whether ART wrote the dump: its header, its heaps, or its classes (a
 * dump hprof-conv made standard keeps those). */
static gboolean
written_by_art (HprofLoader *self)
{
  static const char *const art_prefixes[] = { "dalvik.", "android.", "libcore.", "java.lang.DexCache" };
  const StrataIdMap *map = &self->classes;

  if (self->android || self->heap_ranges->len > 0)
    return TRUE;
  for (gsize slot = 0; map->keys != NULL && slot <= map->mask; slot++)
    {
      const char *name;

      if (map->values[slot] == 0)
        continue;
      name = class_name (self, map->keys[slot]);
      for (guint i = 0; i < G_N_ELEMENTS (art_prefixes); i++)
        if (g_str_has_prefix (name, art_prefixes[i]))
          return TRUE;
    }
  return FALSE;
}

/* Says in the format's detail which VM's sizes the objects have. */
static void
name_sizes (GraphBuild *build)
{
  HprofLoader *self = build->loader;
  const char *sizes, *jdk;
  g_autofree char *detail = NULL;

  if (build->art_sizes)
    sizes = _("sizes as ART gives them");
  else if (self->id_size == 4)
    sizes = _("sizes of a 32-bit HotSpot VM");
  else if (build->vm.ref_size == 4)
    sizes = _("sizes of a 64-bit HotSpot VM with compressed references");
  else
    sizes = _("sizes of a 64-bit HotSpot VM");
  jdk = build->vm.jdk == 17 ? _("JDK 9 or later") : build->vm.jdk == 8 ? _("JDK 8") : _("JDK 7 or older");
  if (build->art_sizes)
    /* TRANSLATORS: the dump's header ("JAVA PROFILE 1.0.3"), then how its objects are sized */
    detail = g_strdup_printf (_("%s; %s"), (const char *) self->data, sizes);
  else
    /* TRANSLATORS: the dump's header ("JAVA PROFILE 1.0.2"), how its objects are sized, the JDK ("JDK 8") */
    detail = g_strdup_printf (_("%s; %s, %s"), (const char *) self->data, sizes, jdk);
  strata_trace_set_format_detail (self->trace, detail);
}

static void
choose_sizes (GraphBuild *build)
{
  HprofLoader *self = build->loader;
  guint64 lo = G_MAXUINT64, hi = 0;
  gboolean compressed;

  for (guint i = 0; i < self->objects->len; i++)
    {
      guint64 id = g_array_index (self->objects, HprofObject, i).id;

      lo = MIN (lo, id);
      hi = MAX (hi, id);
    }
  build->art_sizes = written_by_art (self);
  /* HashMap$Node came with JDK 8, Module with 9: both load at start. */
  build->vm.jdk = find_class_id (self, "java.lang.Module") != 0 ? 17 : find_class_id (self, "java.util.HashMap$Node") != 0 ? 8 : 7;
  if (build->art_sizes || self->id_size == 4)
    {
      build->vm.ref_size = build->vm.word_size = 4;
      build->header = 8;
      build->array_header = 12;
    }
  else
    {
      compressed = hi < lo || hi - lo < COMPRESSED_HEAP_LIMIT;
      build->vm.ref_size = compressed ? 4 : 8;
      build->vm.word_size = 8;
      build->header = compressed ? 12 : 16;
      build->array_header = compressed ? 16 : 24;
    }
  name_sizes (build);
}

guint64
hprof_array_size (const GraphBuild *build,
            guint64           length,
            guint             element_size)
{
  guint header = build->array_header;

  /* ART and 32-bit VMs start 8-byte elements at 16. */
  if (header % 8 != 0 && element_size == 8)
    header = align8 (header);
  return align8 (header + length * element_size);
}

/* ---- Class layouts ---- */

typedef struct
{
  guint64 super_id;
  guint32 instance_size;
  const guint8 *fields;   /* the instance field count, then the fields */
} ClassDump;

static gboolean
read_class_dump (HprofLoader *self,
                 guint64      class_id,
                 ClassDump   *dump)
{
  guint32 index = strata_id_map_lookup (&self->class_dumps, class_id);
  Cursor c;

  if (index == STRATA_ID_MAP_MISSING)
    return FALSE;
  c = (Cursor) { self->data + g_array_index (self->class_dump_offsets, guint64, index) + 1,
                 self->data + self->len, self->id_size, TRUE };
  skip (&c, c.id_size + 4);
  dump->super_id = read_id (&c);
  skip (&c, 5 * c.id_size);
  dump->instance_size = read_be (&c, 4);
  hprof_skip_constant_pool (&c);
  hprof_skip_statics (&c);
  dump->fields = c.p;
  return c.ok;
}

/* Walks the instance fields of @class_id and its superclasses, in the
 * order an instance's bytes hold them, noting where references are, and
 * sums the bytes the fields take in the VM (strata-hprof-hotspot.c). */
void
hprof_lay_out_class (GraphBuild  *build,
               guint64      class_id,
               ClassLayout *layout)
{
  HprofLoader *self = build->loader;
  g_autoptr(GArray) chain = g_array_new (FALSE, TRUE, sizeof (HprofHotspotClass));
  guint64 offset = 0;
  guint64 id = class_id;
  ClassDump dump = { 0 };
  guint32 own_instance_size = 0;

  layout->first_ref = build->ref_offsets->len;
  for (guint depth = 0; id != 0 && depth < MAX_CLASS_DEPTH && read_class_dump (self, id, &dump); depth++)
    {
      Cursor c = { dump.fields, self->data + self->len, self->id_size, TRUE };
      const char *name = class_name (self, id);
      gboolean weak_holder = strcmp (name, "java.lang.ref.Reference") == 0;

      layout->soft |= strcmp (name, "java.lang.ref.SoftReference") == 0;
      HprofHotspotClass vm = { name, hprof_hotspot_hidden_bytes (&build->vm, name), 0, 0, 0 };
      guint n = read_be (&c, 2);

      if (depth == 0)
        own_instance_size = dump.instance_size;
      for (guint i = 0; i < n && c.ok; i++)
        {
          const char *field = strata_trace_get_string (self->trace, hprof_string_text (self, read_id (&c)));
          guint type = read_be (&c, 1);
          guint size = type == 2 ? build->vm.ref_size : hprof_type_size (type, self->id_size);

          if (type == 2)
            {
              guint32 ref = offset;

              if (weak_holder && g_strcmp0 (field, "referent") == 0)
                ref |= 0x80000000u;
              g_array_append_val (build->ref_offsets, ref);
            }
          offset += hprof_type_size (type, self->id_size);
          if (hprof_hotspot_field_contended (&build->vm, name, field))
            vm.group_bytes += size, vm.group_max = MAX (vm.group_max, size);
          else
            vm.root_bytes += size, vm.root_max = MAX (vm.root_max, size);
        }
      g_array_append_val (chain, vm);
      id = dump.super_id;
    }
  layout->n_refs = build->ref_offsets->len - layout->first_ref;
  layout->vm_size = build->art_sizes
                    ? own_instance_size
                    : hprof_hotspot_instance_size (&build->vm, (const HprofHotspotClass *) chain->data, chain->len, build->header);
}

const ClassLayout *
hprof_layout_for (GraphBuild *build,
            guint64     class_id)
{
  guint32 index = strata_id_map_lookup (&build->layout_ids, class_id);
  ClassLayout layout = { 0 };

  if (index != STRATA_ID_MAP_MISSING)
    return &g_array_index (build->layouts, ClassLayout, index);
  if (build->frozen)
    return &build->unknown;
  layout.heap_class = strata_id_map_lookup (&build->loader->classes, class_id);
  hprof_lay_out_class (build, class_id, &layout);
  g_array_append_val (build->layouts, layout);
  strata_id_map_insert (&build->layout_ids, class_id, build->layouts->len - 1);
  return &g_array_index (build->layouts, ClassLayout, build->layouts->len - 1);
}

/* ---- Objects in id order ---- */

static int
compare_objects (gconstpointer a,
                 gconstpointer b)
{
  guint64 x = ((const HprofObject *) a)->id, y = ((const HprofObject *) b)->id;

  return x < y ? -1 : x > y;
}

/* Dumps list objects by address within each stretch of the heap, the
 * stretches in any order. Each object becomes a pair (its id's offset
 * from the lowest in the high half, its place in the walk's list in the
 * low), the pairs are radix-sorted by id, 16 bits a pass, skipping the
 * digits all ids share (stable: of a record listed twice, a segment
 * repeated, the first stays), and turned in place into the record
 * offsets, in id order, while the ids are written out.
 *
 * Returns: the number of distinct objects; @ids and @offsets, (transfer
 *   full), in id order. %G_MAXUINT32 when the ids span too far for the
 *   pairs (over 32 GB of heap with 1-byte alignment). */
static guint32
order_objects (GArray   *objects,
               guint64 **ids_out,
               guint64 **offsets_out)
{
  const HprofObject *object = (const HprofObject *) objects->data;
  guint32 n = objects->len, kept = 0;
  guint64 lo = G_MAXUINT64, hi = 0, spread = 0, last = G_MAXUINT64;
  guint shift;
  gboolean sorted = TRUE;
  guint64 *pairs, *ids;

  for (guint32 i = 0; i < n; i++)
    {
      lo = MIN (lo, object[i].id);
      hi = MAX (hi, object[i].id);
      sorted = sorted && (i == 0 || object[i - 1].id < object[i].id);
    }
  for (guint32 i = 0; i < n; i++)
    spread |= object[i].id - lo;
  shift = (spread & 7) == 0 ? 3 : 0;
  if (n > 0 && ((hi - lo) >> shift) > G_MAXUINT32)
    return G_MAXUINT32;
  pairs = g_new (guint64, MAX (n, 1));
  for (guint32 i = 0; i < n; i++)
    pairs[i] = ((object[i].id - lo) >> shift) << 32 | i;
  if (!sorted)
    strata_radix_sort_u64 (pairs, n, 32);
  ids = g_new (guint64, MAX (n, 1));
  for (guint32 i = 0; i < n; i++)
    {
      guint64 key = pairs[i] >> 32;

      if (key == last)
        continue;
      last = key;
      ids[kept] = lo + (key << shift);
      /* kept <= i: the pair read is never one written over. */
      pairs[kept++] = object[(guint32) pairs[i]].offset;
    }
  *ids_out = ids;
  *offsets_out = pairs;
  return kept;
}

/* Where the pairs do not fit: the records themselves sorted, the same
 * way. */
static guint32
order_objects_widely (GArray   *objects,
                      guint64 **ids_out,
                      guint64 **offsets_out)
{
  guint32 kept = 0;
  guint64 *ids = g_new (guint64, MAX (objects->len, 1));
  guint64 *offsets = g_new (guint64, MAX (objects->len, 1));

  g_array_sort (objects, compare_objects);
  for (guint i = 0; i < objects->len; i++)
    {
      const HprofObject *object = &g_array_index (objects, HprofObject, i);

      if (kept > 0 && ids[kept - 1] == object->id)
        continue;
      ids[kept] = object->id;
      offsets[kept++] = object->offset;
    }
  *ids_out = ids;
  *offsets_out = offsets;
  return kept;
}

/* The dominator computation's share of the load. */
static void
tell_compute_progress (gpointer data,
                       double   fraction)
{
  strata_load_job_update (data, HPROF_PROGRESS_FOLLOWED + (HPROF_PROGRESS_COMPUTED - HPROF_PROGRESS_FOLLOWED) * fraction,
                          NULL, NULL);
}

static guint32 *
find_roots (HprofLoader     *self,
            StrataHeapGraph *graph,
            guint8         **kinds,
            guint32         *n_roots)
{
  guint32 *roots = g_new (guint32, MAX (self->root_ids->len, 1));
  guint32 n = 0;

  *kinds = g_new (guint8, MAX (self->root_ids->len, 1));
  for (guint i = 0; i < self->root_ids->len; i++)
    {
      guint32 object = strata_heap_graph_lookup (graph, g_array_index (self->root_ids, guint64, i));

      if (object == STRATA_HEAP_NO_OBJECT)
        continue;
      (*kinds)[n] = g_array_index (self->root_kinds, guint8, i);
      roots[n++] = object;
    }
  *n_roots = n;
  return roots;
}

/* Marks, from @queue on, what strong references reach from it among the
 * objects no root reaches strongly, with @kind; adds up those marked. */
static void
mark_reached (StrataHeapGraph     *graph,
              guint8              *marks,
              GArray              *queue,
              guint8               kind,
              StrataHeapUnreached *sum)
{
  while (queue->len > 0)
    {
      guint32 v = g_array_index (queue, guint32, queue->len - 1), n;
      const guint32 *targets = strata_heap_graph_get_references (graph, v, &n);

      g_array_set_size (queue, queue->len - 1);
      sum->objects++;
      sum->bytes += strata_heap_graph_get_shallow (graph, v);
      for (guint32 e = 0; e < n; e++)
        if (marks[targets[e]] == 0 && !strata_heap_graph_is_reachable (graph, targets[e]))
          {
            marks[targets[e]] = kind;
            g_array_append_val (queue, targets[e]);
          }
    }
}

/* The objects no root reaches strongly that soft references reach (from
 * what is reachable), then those that only weak, phantom and final ones
 * do: until a pass adds none, as a reference reached weakly reaches on. */
static void
count_weakly_reached (GraphBuild      *build,
                      StrataHeapGraph *graph,
                      GArray          *referents)
{
  g_autofree guint8 *marks = NULL;
  g_autoptr(GArray) queue = g_array_new (FALSE, FALSE, sizeof (guint32));
  StrataHeapUnreached sums[2] = { { 0, 0 }, { 0, 0 } };

  if (referents->len > 0)
    marks = g_new0 (guint8, strata_heap_graph_get_n_objects (graph));
  for (guint8 kind = 1; kind <= 2 && marks != NULL; kind++)
    for (gboolean added = TRUE; added;)
      {
        added = FALSE;
        for (guint i = 0; i < referents->len; i++)
          {
            const Referent *r = &g_array_index (referents, Referent, i);
            gboolean holder_held = strata_heap_graph_is_reachable (graph, r->holder) ||
                                   (marks[r->holder] != 0 && marks[r->holder] <= kind);

            if ((kind == 2 || r->soft) && holder_held && marks[r->referent] == 0 &&
                !strata_heap_graph_is_reachable (graph, r->referent))
              {
                marks[r->referent] = kind;
                g_array_append_val (queue, r->referent);
                added = TRUE;
              }
          }
        mark_reached (graph, marks, queue, kind, &sums[kind - 1]);
      }
  strata_heap_set_weakly_reached (build->loader->heap, &sums[0], &sums[1]);
}

/* Whether @object is the array of roots of the JDK's class data sharing
 * archive: an Object[] held by a JNI global. With G1, HotSpot maps the
 * archive's objects into the heap and the dumper leaves out its closed
 * region, to which that array refers (no dump made with -Xshare:off has
 * such references). */
static gboolean
is_archive_roots (GraphBuild      *build,
                  StrataHeapGraph *graph,
                  guint32          object)
{
  guint klass = strata_heap_graph_get_class (graph, object);
  const StrataHeap *heap = build->loader->heap;

  return !build->art_sizes && strata_heap_graph_get_root_kind (graph, object) == STRATA_ROOT_JNI_GLOBAL &&
         klass < strata_heap_get_n_classes (heap) &&
         g_str_equal (strata_trace_get_string (build->loader->trace, strata_heap_get_class (heap, klass)->name),
                      "java.lang.Object[]");
}

/* References to objects a dump does not hold are damage when reachable
 * objects have them, but normal from the class data sharing archive's
 * roots and from garbage (an unreachable array whose elements the
 * collector had already freed): those are said quietly. */
static void
report_graph (GraphBuild      *build,
              StrataHeapGraph *graph,
              GArray          *dangling)
{
  StrataTrace *trace = build->loader->trace;
  guint64 damaged = 0, archived = 0, garbage = 0;

  for (guint i = 0; i < dangling->len; i++)
    {
      const Dangling *d = &g_array_index (dangling, Dangling, i);

      if (!strata_heap_graph_is_reachable (graph, d->object))
        garbage += d->n;
      else if (is_archive_roots (build, graph, d->object))
        archived += d->n;
      else
        damaged += d->n;
    }
  strata_trace_add_count_diagnostic (trace, damaged,
                                     ngettext ("%s reference of a reachable object points to an object the dump does not hold; it was left out.",
                                               "%s references of reachable objects point to objects the dump does not hold; they were left out.",
                                               damaged));
  strata_trace_add_count_note (trace, archived,
                               ngettext ("%s reference points to an object of the JDK's class data sharing archive that HotSpot "
                                         "does not write into dumps; it was left out. It changes no figure of the program's objects.",
                                         "%s references point to objects of the JDK's class data sharing archive that HotSpot "
                                         "does not write into dumps; they were left out. They change no figure of the program's objects.",
                                         archived));
  strata_trace_add_count_note (trace, garbage,
                               ngettext ("%s reference points to an object the dump does not hold, from an unreachable object: "
                                         "garbage whose referents the collector had already freed. It changes no figure.",
                                         "%s references point to objects the dump does not hold, all from unreachable objects: "
                                         "garbage whose referents the collector had already freed. They change no figure.",
                                         garbage));
}

typedef struct
{
  gpointer data;
  gsize    size;
  gboolean mapped;
} ScratchBlock;

static void
scratch_block_free (gpointer data)
{
  ScratchBlock *block = data;

  strata_scratch_free (block->data, block->size, block->mapped);
  g_free (block);
}

/* Where each object's record is, for reading it back later: kept in a
 * scratch file, so it costs no memory until the inspector asks. */
static GBytes *
stash_offsets (guint64  *offsets,
               guint32   n,
               gboolean *mapped)
{
  ScratchBlock *block = g_new0 (ScratchBlock, 1);

  block->size = (gsize) MAX (n, 1) * sizeof (guint64);
  block->data = strata_scratch_move (offsets, block->size, &block->mapped);
  *mapped = block->mapped;
  return g_bytes_new_with_free_func (block->data, (gsize) n * sizeof (guint64), scratch_block_free, block);
}

/**
 * hprof_build_graph:
 *
 * Returns: (transfer full): the graph with dominators computed, or %NULL
 *   with @error set when cancelled
 */
StrataHeapGraph *
hprof_build_graph (HprofLoader       *self,
                   StrataHprofIndex **index,
                   GError           **error)
{
  GraphBuild build = { .loader = self };
  g_autoptr(StrataHeapGraph) graph = NULL;
  EdgePass pass = { &build };
  guint32 n, n_roots, *roots;
  guint8 *kinds;
  guint64 *ids, *record_offsets;
  g_autoptr(GBytes) offsets = NULL;
  gboolean offsets_mapped = FALSE;
  guint32 *first;
  gboolean ok;

  if (!strata_load_job_update (self->job, HPROF_PROGRESS_WALKED, _("Putting objects in order…"), error))
    return NULL;
  choose_sizes (&build);
  build.class_class_id = find_class_id (self, "java.lang.Class");
  n = order_objects (self->objects, &ids, &record_offsets);
  if (n == G_MAXUINT32)
    n = order_objects_widely (self->objects, &ids, &record_offsets);
  /* Offsets to a scratch file, ids to the graph: the 16 bytes an object
   * the walk noted go before the references are read. */
  g_clear_pointer (&self->objects, g_array_unref);
  strata_load_job_update (self->job, HPROF_PROGRESS_SORTED, NULL, NULL);
  offsets = stash_offsets (record_offsets, n, &offsets_mapped);
  graph = strata_heap_graph_new (n, ids, NULL);
  pass.classes = strata_heap_graph_peek_classes (graph);
  pass.graph = graph;
  pass.targets = g_array_new (FALSE, FALSE, sizeof (guint32));
  pass.dangling = g_array_new (FALSE, FALSE, sizeof (Dangling));
  pass.referents = g_array_new (FALSE, FALSE, sizeof (Referent));
  build.layouts = g_array_new (FALSE, FALSE, sizeof (ClassLayout));
  build.ref_offsets = g_array_new (FALSE, FALSE, sizeof (guint32));
  strata_id_map_init (&build.layout_ids);
  first = g_new (guint32, (gsize) n + 1);

  ok = strata_load_job_update (self->job, HPROF_PROGRESS_ORDERED, _("Following references…"), error) &&
       hprof_read_references (&pass, g_bytes_get_data (offsets, NULL), offsets_mapped, n, first, error);
  g_array_unref (build.layouts);
  g_array_unref (build.ref_offsets);
  strata_id_map_clear (&build.layout_ids);
  if (!ok)
    {
      g_free (first);
      g_array_unref (pass.targets);
      g_array_unref (pass.dangling);
      g_array_unref (pass.referents);
      return NULL;
    }
  {
    gsize n_targets = pass.targets->len;
    /* The doubling took up to twice the room: give it back. */
    guint32 *targets = g_realloc (g_array_free (pass.targets, FALSE), MAX (n_targets, 1) * sizeof (guint32));

    strata_heap_graph_set_references (graph, first, targets);
  }
  roots = find_roots (self, graph, &kinds, &n_roots);
  strata_heap_graph_set_roots (graph, roots, kinds, n_roots);
  g_free (roots);
  g_free (kinds);
  if (!strata_load_job_update (self->job, HPROF_PROGRESS_FOLLOWED, _("Computing retained sizes…"), error) ||
      !strata_heap_graph_compute (graph, self->job->cancellable, tell_compute_progress, self->job))
    {
      g_cancellable_set_error_if_cancelled (self->job->cancellable, error);
      g_array_unref (pass.dangling);
      g_array_unref (pass.referents);
      return NULL;
    }
  report_graph (&build, graph, pass.dangling);
  count_weakly_reached (&build, graph, pass.referents);
  g_array_unref (pass.dangling);
  g_array_unref (pass.referents);
  strata_heap_set_weak_referents (self->heap, self->job->follow_weak, pass.n_weak);
  *index = hprof_index_new (self, graph, g_steal_pointer (&offsets), offsets_mapped);
  return g_steal_pointer (&graph);
}
