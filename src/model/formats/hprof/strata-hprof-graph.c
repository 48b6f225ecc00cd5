/* strata-hprof-graph.c: a binary heap dump's objects, their sizes in the
 * VM that wrote it, and their references
 *
 * The record walk notes where each object's record is. Here the objects
 * are put in id order, each record is read again for its references
 * (instance fields by their class's layout, array elements, a class's
 * static fields, superclass and loader), and the graph is handed to
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
#include "strata-hprof-private.h"
#include "strata-load-guard.h"
#include "strata-memory.h"
#include "strata-radix-sort.h"

#define MAX_CLASS_DEPTH 256
#define COMPRESSED_HEAP_LIMIT (G_GUINT64_CONSTANT (32) << 30)
#define NO_LAYOUT G_MAXUINT32

typedef struct
{
  guint32 heap_class;
  guint32 vm_size;       /* an instance's size in the VM */
  guint32 first_ref;     /* reference fields: offsets in ref_offsets */
  guint32 n_refs;
  gboolean soft;         /* a java.lang.ref.SoftReference: its referent lives until memory runs short */
} ClassLayout;

typedef struct
{
  HprofLoader *loader;
  StrataIdMap  layout_ids;    /* class id -> index in layouts */
  GArray      *layouts;       /* ClassLayout */
  GArray      *ref_offsets;   /* guint32: within an instance's field bytes */
  HprofHotspotVm vm;         /* reference and pointer sizes, JDK generation */
  guint        header;        /* an instance's header */
  guint        array_header;  /* before an array's elements */
  gboolean     art_sizes;     /* instances as big as their class dump says */
  guint64      class_class_id;  /* java.lang.Class, whose instances the class objects are */
  gboolean     frozen;        /* every layout made: read on two threads, none added */
  ClassLayout  unknown;       /* frozen: for instances of a class without a class dump */
} GraphBuild;

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

static inline guint64
align8 (guint64 size)
{
  return (size + 7) & ~G_GUINT64_CONSTANT (7);
}

static guint64
array_size (const GraphBuild *build,
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
static void
lay_out_class (GraphBuild  *build,
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

static const ClassLayout *
layout_for (GraphBuild *build,
            guint64     class_id)
{
  guint32 index = strata_id_map_lookup (&build->layout_ids, class_id);
  ClassLayout layout = { 0 };

  if (index != STRATA_ID_MAP_MISSING)
    return &g_array_index (build->layouts, ClassLayout, index);
  if (build->frozen)
    return &build->unknown;
  layout.heap_class = strata_id_map_lookup (&build->loader->classes, class_id);
  lay_out_class (build, class_id, &layout);
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

/* ---- References ---- */

/* A reference's referent, when referents keep nothing alive. */
typedef struct
{
  guint32  holder;
  guint32  referent;
  gboolean soft;
} Referent;

/* Objects with references to ids the dump does not hold, and how many. */
typedef struct
{
  guint32 object;
  guint32 n;
} Dangling;

typedef struct
{
  GraphBuild      *build;
  StrataHeapGraph *graph;
  guint32         *classes;
  GArray          *targets;   /* guint32 */
  guint32          object;    /* whose record is read */
  GArray          *dangling;  /* Dangling */
  GArray          *referents; /* Referent: the references not followed */
  guint64          n_weak;    /* references with a referent */
} EdgePass;

static void
add_reference (EdgePass *pass,
               guint64   id)
{
  guint32 target;

  if (id == 0)
    return;
  target = strata_heap_graph_lookup (pass->graph, id);
  if (target == STRATA_HEAP_NO_OBJECT)
    {
      Dangling *last = pass->dangling->len > 0 ? &g_array_index (pass->dangling, Dangling, pass->dangling->len - 1) : NULL;

      if (last == NULL || last->object != pass->object)
        g_array_append_val (pass->dangling, ((Dangling) { pass->object, 0 }));
      g_array_index (pass->dangling, Dangling, pass->dangling->len - 1).n++;
      return;
    }
  g_array_append_val (pass->targets, target);
}

static void
read_instance (EdgePass *pass,
               guint32   object,
               Cursor   *c)
{
  GraphBuild *build = pass->build;
  guint64 class_id;
  guint32 n;
  const ClassLayout *layout;
  const guint8 *fields;

  skip (c, c->id_size + 4);
  class_id = read_id (c);
  n = read_be (c, 4);
  fields = c->p;
  if (!cursor_need (c, n))
    return;
  layout = layout_for (build, class_id);
  pass->classes[object] = layout->heap_class;
  strata_heap_graph_set_shallow (pass->graph, object, layout->vm_size);
  for (guint32 r = 0; r < layout->n_refs; r++)
    {
      guint32 offset = g_array_index (build->ref_offsets, guint32, layout->first_ref + r);
      /* An instance shorter than its class says holds no more fields. */
      Cursor field = { fields + MIN (offset & 0x7fffffffu, n), fields + n, c->id_size, TRUE };
      guint64 id = read_id (&field);

      if (!field.ok)
        continue;
      if ((offset & 0x80000000u) != 0)
        pass->n_weak += id != 0;
      if ((offset & 0x80000000u) == 0 || build->loader->job->follow_weak)
        add_reference (pass, id);
      else if (id != 0 && strata_heap_graph_lookup (pass->graph, id) != STRATA_HEAP_NO_OBJECT)
        g_array_append_val (pass->referents, ((Referent) { object, strata_heap_graph_lookup (pass->graph, id), layout->soft }));
    }
}

static void
read_object_array (EdgePass *pass,
                   guint32   object,
                   Cursor   *c)
{
  guint64 class_id;
  guint32 length;

  skip (c, c->id_size + 4);
  length = read_be (c, 4);
  class_id = read_id (c);
  if (!cursor_need (c, (guint64) length * c->id_size))
    return;
  pass->classes[object] = strata_id_map_lookup (&pass->build->loader->classes, class_id);
  strata_heap_graph_set_shallow (pass->graph, object, array_size (pass->build, length, pass->build->vm.ref_size));
  for (guint32 i = 0; i < length; i++)
    add_reference (pass, read_id (c));
}

static void
read_primitive_array (EdgePass *pass,
                      guint32   object,
                      Cursor   *c)
{
  HprofLoader *self = pass->build->loader;
  guint32 length;
  guint type;

  skip (c, c->id_size + 4);
  length = read_be (c, 4);
  type = read_be (c, 1);
  if (!c->ok || type < 4 || type >= 12)
    return;
  pass->classes[object] = self->primitive_class[type] - 1;
  strata_heap_graph_set_shallow (pass->graph, object, array_size (pass->build, length, hprof_type_size (type, c->id_size)));
}

/* HotSpot's dumps add statics that are no fields ("<resolved_references>",
 * "<init_lock>"): they refer to real objects but take no room in the
 * mirror. */
static gboolean
is_pseudo_static (HprofLoader *self,
                  guint64      name_id)
{
  guint32 index = strata_id_map_lookup (&self->strings, name_id);
  const StringRef *ref;

  if (index == STRATA_ID_MAP_MISSING)
    return FALSE;
  ref = &g_array_index (self->string_refs, StringRef, index);
  return ref->len > 0 && self->data[ref->offset] == '<';
}

/* The bytes a class's static fields take in its HotSpot mirror, laid out
 * as JDK 17's FieldLayoutBuilder does for statics: the references first
 * and contiguous (the GC walks them as one block), then the 8-byte
 * primitives, each aligned, then the smaller ones by size, largest first,
 * each appended at the end (the static layout never fills the hole an
 * aligned long leaves), the whole rounded up to words. */
typedef struct
{
  guint n_refs;
  guint n_by_size[9];    /* primitives by their size in bytes */
} StaticFields;

static guint64
hotspot_static_bytes (const StaticFields *statics,
                      guint               ref_size)
{
  guint64 end = (guint64) statics->n_refs * ref_size;

  for (guint i = 0; i < statics->n_by_size[8]; i++)
    end = align8 (end) + 8;
  for (guint size = 4; size >= 1; size /= 2)
    if (statics->n_by_size[size] > 0)
      end = ((end + size - 1) & ~(guint64) (size - 1)) + (guint64) statics->n_by_size[size] * size;
  return align8 (end);
}

static guint64
art_static_bytes (const StaticFields *statics,
                  guint               ref_size)
{
  guint64 bytes = (guint64) statics->n_refs * ref_size;

  for (guint size = 1; size <= 8; size *= 2)
    bytes += (guint64) statics->n_by_size[size] * size;
  return bytes;
}

/* A class holds its superclass, loader and static fields' objects. */
static void
read_class (EdgePass *pass,
            guint32   object,
            Cursor   *c)
{
  GraphBuild *build = pass->build;
  StaticFields statics = { 0 };
  guint n;

  skip (c, c->id_size + 4);
  add_reference (pass, read_id (c));    /* superclass */
  add_reference (pass, read_id (c));    /* class loader */
  skip (c, 4 * c->id_size + 4);
  hprof_skip_constant_pool (c);
  n = read_be (c, 2);
  for (guint i = 0; i < n && c->ok; i++)
    {
      guint64 name = read_id (c);
      guint type = read_be (c, 1);
      guint size = hprof_type_size (type, c->id_size);

      if (type == 2)
        add_reference (pass, read_id (c));
      else
        skip (c, size);
      if (is_pseudo_static (build->loader, name))
        continue;
      if (type == 2)
        statics.n_refs++;
      else if (size == 1 || size == 2 || size == 4 || size == 8)
        statics.n_by_size[size]++;
    }
  /* The class's mirror, a java.lang.Class holding its static fields after
   * its own (InstanceMirrorKlass). */
  if (build->class_class_id != 0 && c->ok)
    {
      const ClassLayout *mirror = layout_for (build, build->class_class_id);

      pass->classes[object] = mirror->heap_class;
      strata_heap_graph_set_shallow (pass->graph, object,
                                     build->art_sizes ? mirror->vm_size + art_static_bytes (&statics, build->vm.ref_size)
                                                      : align8 (mirror->vm_size) + hotspot_static_bytes (&statics, build->vm.ref_size));
    }
}

/* The heap the record at @offset is in: the last HEAP DUMP INFO before it. */
static guint8
heap_at (HprofLoader *self,
         guint64      offset)
{
  guint lo = 0, hi = self->heap_ranges->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (self->heap_ranges, HeapRange, mid).offset <= offset)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo > 0 ? g_array_index (self->heap_ranges, HeapRange, lo - 1).heap : 0;
}

/* The dominator computation's share of the load. */
static void
tell_compute_progress (gpointer data,
                       double   fraction)
{
  strata_load_job_update (data, HPROF_PROGRESS_FOLLOWED + (HPROF_PROGRESS_COMPUTED - HPROF_PROGRESS_FOLLOWED) * fraction,
                          NULL, NULL);
}

/* Objects @from to @to (excluded) read again, in id order, from
 * @offsets (a scratch file's mapping when @offsets_mapped: its pages go
 * back too); @first gets each one's first reference in @pass's targets.
 * With @error, the load's progress is told (the loading thread).
 * Returns FALSE when cancelled. */
static gboolean
read_range (EdgePass      *pass,
            const guint64 *offsets,
            gboolean       offsets_mapped,
            guint32        from,
            guint32        to,
            guint32        n,
            guint32       *first,
            GError       **error)
{
  HprofLoader *self = pass->build->loader;
  guint64 released = from < to ? offsets[from] : 0;
  guint32 offsets_released = from;

  for (guint32 i = from; i < to; i++)
    {
      guint64 offset = offsets[i];

      /* Objects come mostly in file order: pages behind go back to the
       * kernel, so a dump larger than memory streams through it. */
      if (offset > released + PROGRESS_BYTES)
        {
          strata_load_job_release_pages (self->job, self->data + released, self->data + offset);
          released = offset;
        }
      if (i - offsets_released >= PROGRESS_BYTES / sizeof (guint64))
        {
          /* Whole pages only: a half starts anywhere in a page. */
          strata_memory_release_span (offsets + offsets_released, offsets + i, offsets_mapped);
          offsets_released = i;
        }
      Cursor c = { self->data + offset, self->data + self->len, self->id_size, TRUE };
      guint tag = read_be (&c, 1);

      first[i] = pass->targets->len;
      pass->object = i;
      pass->classes[i] = STRATA_HEAP_NO_OBJECT;
      if (self->heap_ranges->len > 1)
        strata_heap_graph_set_heap (pass->graph, i, heap_at (self, offset));
      switch (tag)
        {
        case 0x20: read_class (pass, i, &c); break;
        case 0x21: read_instance (pass, i, &c); break;
        case 0x22: read_object_array (pass, i, &c); break;
        case 0x23: case 0xC3: read_primitive_array (pass, i, &c); break;
        default: break;
        }
      if ((i - from) % 65536 != 0)
        continue;
      if (error == NULL && g_cancellable_is_cancelled (self->job->cancellable))
        return FALSE;
      if (error != NULL &&
          !strata_load_job_update (self->job, HPROF_PROGRESS_ORDERED + (HPROF_PROGRESS_FOLLOWED - HPROF_PROGRESS_ORDERED) * (i - from) / MAX (to - from, 1),
                                   _("Following references…"), error))
        return FALSE;
    }
  strata_memory_release_span (offsets + offsets_released, offsets + to, offsets_mapped);
  return TRUE;
}

/* The second half of the objects, on a core of its own. */
typedef struct
{
  EdgePass        pass;
  const guint64  *offsets;
  gboolean        offsets_mapped;
  guint32         from;
  guint32         to;
  guint32         n;
  guint32        *first;
  gboolean        done;
  StrataLoadGuard guard;
} EdgeHalf;

static gpointer
read_half (gpointer data)
{
  EdgeHalf *half = data;

  if (STRATA_LOAD_GUARD_FAULTED (&half->guard))
    return NULL;
  half->done = read_range (&half->pass, half->offsets, half->offsets_mapped, half->from, half->to, half->n, half->first, NULL);
  strata_load_guard_pop (&half->guard);
  return NULL;
}

/* Every layout a record can ask for, made before two threads read them:
 * each class dump's and each loaded class's. */
static void
freeze_layouts (GraphBuild *build)
{
  HprofLoader *self = build->loader;
  const StrataIdMap *maps[] = { &self->classes, &self->class_dumps };

  for (guint m = 0; m < G_N_ELEMENTS (maps); m++)
    for (gsize slot = 0; maps[m]->keys != NULL && slot <= maps[m]->mask; slot++)
      if (maps[m]->values[slot] != 0)
        layout_for (build, maps[m]->keys[slot]);
  if (build->class_class_id != 0)
    layout_for (build, build->class_class_id);
  build->unknown = (ClassLayout) { STRATA_ID_MAP_MISSING };
  lay_out_class (build, 0, &build->unknown);
  build->frozen = TRUE;
}

#define JOIN_STEP (4u << 20)

/* The second half's references after the first's, its objects' first
 * references moved along. */
static void
join_halves (EdgePass *pass,
             EdgeHalf *half)
{
  guint32 shift = pass->targets->len;

  GArray *targets = half->pass.targets;
  gsize released = 0;

  for (guint32 i = half->from; i < half->to; i++)
    half->first[i] += shift;
  /* A piece at a time, each given back once copied: the two halves are
   * not held twice. */
  g_array_set_size (pass->targets, shift + targets->len);
  for (guint at = 0; at < targets->len; at += JOIN_STEP)
    {
      guint n = MIN (JOIN_STEP, targets->len - at);

      memcpy (&g_array_index (pass->targets, guint32, shift + at), &g_array_index (targets, guint32, at), n * sizeof (guint32));
      strata_memory_release_front (targets->data, (gsize) (at + n) * sizeof (guint32), &released);
    }
  g_array_append_vals (pass->dangling, half->pass.dangling->data, half->pass.dangling->len);
  g_array_append_vals (pass->referents, half->pass.referents->data, half->pass.referents->len);
  pass->n_weak += half->pass.n_weak;
}

static void
clear_half (EdgeHalf *half)
{
  g_clear_pointer (&half->pass.targets, g_array_unref);
  g_clear_pointer (&half->pass.dangling, g_array_unref);
  g_clear_pointer (&half->pass.referents, g_array_unref);
}

/* Below this many objects, one core reads them all. */
#define PARALLEL_MIN_OBJECTS 1000000

/* Every object's record read again, in id order: the second half on
 * another core, then joined after the first. */
static gboolean
read_references (EdgePass      *pass,
                 const guint64 *offsets,
                 gboolean       offsets_mapped,
                 guint32        n,
                 guint32       *first,
                 GError       **error)
{
  HprofLoader *self = pass->build->loader;
  EdgeHalf half = { { pass->build, pass->graph, pass->classes }, offsets, offsets_mapped, n / 2, n, n, first };
  GThread *worker = NULL;
  gboolean ok;

  if (n >= PARALLEL_MIN_OBJECTS)
    {
      freeze_layouts (pass->build);
      /* Made now, so neither thread makes it. */
      if (self->heap_ranges->len > 1)
        strata_heap_graph_set_heap (pass->graph, 0, 0);
      half.pass.targets = g_array_new (FALSE, FALSE, sizeof (guint32));
      half.pass.dangling = g_array_new (FALSE, FALSE, sizeof (Dangling));
      half.pass.referents = g_array_new (FALSE, FALSE, sizeof (Referent));
      worker = g_thread_try_new ("strata-edges", read_half, &half, NULL);
    }
  ok = read_range (pass, offsets, offsets_mapped, 0, worker != NULL ? n / 2 : n, n, first, error);
  if (worker != NULL)
    {
      if (!ok)
        g_cancellable_cancel (self->job->cancellable);
      g_thread_join (worker);
      if (ok && half.guard.fault != STRATA_LOAD_FAULT_NONE)
        {
          strata_load_guard_set_error (&half.guard, error);
          ok = FALSE;
        }
      ok = ok && (half.done || !g_cancellable_set_error_if_cancelled (self->job->cancellable, error));
      if (ok)
        join_halves (pass, &half);
    }
  clear_half (&half);
  first[n] = pass->targets->len;
  /* Objects out of file order left pages behind: all go back now. */
  strata_load_job_release_pages (self->job, self->data, self->data + self->len);
  return ok;
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
       read_references (&pass, g_bytes_get_data (offsets, NULL), offsets_mapped, n, first, error);
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
