/* strata-hprof-edges.c: every object's record read again for its
 * references, on both cores
 *
 * Instance fields by their class's layout, array elements, a class's
 * static fields, superclass and loader; with each, the object's class and
 * its size in the VM. References to ids the dump does not hold are
 * counted; a java.lang.ref.Reference's referent is kept aside unless the
 * load follows weak references. Past a million objects the second half
 * is read on a worker into its own arrays and joined after the first.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-hprof-graph-private.h"
#include "strata-load-guard.h"
#include "strata-memory.h"

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
  layout = hprof_layout_for (build, class_id);
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
  strata_heap_graph_set_shallow (pass->graph, object, hprof_array_size (pass->build, length, pass->build->vm.ref_size));
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
  strata_heap_graph_set_shallow (pass->graph, object, hprof_array_size (pass->build, length, hprof_type_size (type, c->id_size)));
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
      const ClassLayout *mirror = hprof_layout_for (build, build->class_class_id);

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
        hprof_layout_for (build, maps[m]->keys[slot]);
  if (build->class_class_id != 0)
    hprof_layout_for (build, build->class_class_id);
  build->unknown = (ClassLayout) { STRATA_ID_MAP_MISSING };
  hprof_lay_out_class (build, 0, &build->unknown);
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
gboolean
hprof_read_references (EdgePass      *pass,
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
