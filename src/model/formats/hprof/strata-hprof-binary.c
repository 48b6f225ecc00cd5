/* strata-hprof-binary.c: binary HPROF heap dumps, summed per class
 *
 * One walk over the mapped file: records are framed by a length, heap
 * dump sub-records by their tag. Every length is checked against the
 * bytes that remain; objects are counted, never stored.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-error.h"
#include "strata-hprof-private.h"
#include "strata-stack-layout.h"

/* Sizes of the basic types; 0 for codes that are not types. */
guint
hprof_type_size (guint type,
                 guint id_size)
{
  static const guint8 sizes[12] = { 0, 0, 0, 0, 1, 2, 4, 8, 1, 2, 4, 8 };

  if (type == 1 || type == 2)
    return id_size;
  return type < G_N_ELEMENTS (sizes) ? sizes[type] : 0;
}

/* ---- Names ---- */

static const char *
primitive_name (char code)
{
  switch (code)
    {
    case 'Z': return "boolean";
    case 'C': return "char";
    case 'F': return "float";
    case 'D': return "double";
    case 'B': return "byte";
    case 'S': return "short";
    case 'I': return "int";
    case 'J': return "long";
    default: return NULL;
    }
}

/* A hidden class (a lambda's) is "Outer$$Lambda$14+0x0000000800c03000"
 * inside HotSpot; Class.getName() and jcmd spell it with a slash. */
static void
spell_hidden_class (GString *name)
{
  const char *plus = strrchr (name->str, '+');
  const char *p;

  if (plus == NULL || plus[1] != '0' || plus[2] != 'x' || plus[3] == '\0')
    return;
  for (p = plus + 3; g_ascii_isxdigit (*p); p++)
    ;
  if (*p == '\0')
    name->str[plus - name->str] = '/';
}

/* HotSpot writes "java/util/HashMap$Node" and "[Ljava/lang/String;"; the
 * agent and Android "java.util.HashMap$Node" and "java.lang.String[]".
 * Both become the second form. */
static char *
normalize_class_name (const char *raw)
{
  GString *name = g_string_new (NULL);
  guint dims = 0;

  while (raw[dims] == '[')
    dims++;
  if (dims > 0 && raw[dims] == 'L')
    {
      const char *end = strchr (raw + dims + 1, ';');

      g_string_append_len (name, raw + dims + 1, end ? end - (raw + dims + 1) : (gssize) strlen (raw + dims + 1));
    }
  else if (dims > 0 && primitive_name (raw[dims]) != NULL && raw[dims + 1] == '\0')
    g_string_append (name, primitive_name (raw[dims]));
  else
    g_string_append (name, raw + dims);
  g_strdelimit (name->str, "/", '.');
  spell_hidden_class (name);
  for (guint i = 0; i < dims; i++)
    g_string_append (name, "[]");
  return g_string_free (name, FALSE);
}

guint32
hprof_string_by_id (HprofLoader *self,
                    guint64      id)
{
  guint32 index = strata_id_map_lookup (&self->strings, id);
  const StringRef *ref;
  g_autofree char *raw = NULL;
  g_autofree char *name = NULL;

  if (index == STRATA_ID_MAP_MISSING)
    return 0;
  ref = &g_array_index (self->string_refs, StringRef, index);
  raw = g_utf8_make_valid ((const char *) self->data + ref->offset, ref->len);
  name = normalize_class_name (raw);
  return strata_string_pool_intern (strata_trace_get_pool (self->trace), name);
}

static guint
class_for (HprofLoader *self,
           guint64      class_id)
{
  guint32 index = strata_id_map_lookup (&self->classes, class_id);

  if (index == STRATA_ID_MAP_MISSING)
    {
      /* Instances of a class the dump never named. */
      g_autofree char *hex = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", class_id);
      /* Translators: %s is a class object's id, such as 0x7f3a10 */
      g_autofree char *name = g_strdup_printf (_("unknown class %s"), hex);

      index = strata_heap_add_class (self->heap, strata_string_pool_intern (strata_trace_get_pool (self->trace), name));
      strata_id_map_insert (&self->classes, class_id, index);
    }
  return index;
}

static guint
primitive_array_class (HprofLoader *self,
                       guint        type)
{
  static const char codes[12] = { 0, 0, 0, 0, 'Z', 'C', 'F', 'D', 'B', 'S', 'I', 'J' };

  if (self->primitive_class[type] == 0)
    {
      g_autofree char *name = g_strdup_printf ("%s[]", primitive_name (codes[type]));

      /* Stored + 1: 0 means not made yet. */
      self->primitive_class[type] = 1 + strata_heap_add_class (self->heap,
                                                               strata_string_pool_intern (strata_trace_get_pool (self->trace), name));
    }
  return self->primitive_class[type] - 1;
}

static void
count_object (HprofLoader *self,
              guint        heap_class,
              guint64      bytes)
{
  StrataHeapClass *klass = strata_heap_peek_class (self->heap, heap_class);

  klass->instances++;
  klass->shallow_bytes += bytes;
}

/* ---- Heap dump sub-records ---- */

/* A value of @type; a code that is no type breaks the cursor. */
static void
skip_value (Cursor *c,
            guint   type)
{
  if (hprof_type_size (type, c->id_size) == 0)
    c->ok = FALSE;
  skip (c, hprof_type_size (type, c->id_size));
}

/* A CLASS DUMP's fixed part after its tag: class id, stack serial, six
 * more ids and the instance size. */
void
hprof_skip_class_header (Cursor *c)
{
  skip (c, c->id_size + 4 + 6 * c->id_size + 4);
}

void
hprof_skip_constant_pool (Cursor *c)
{
  guint n = read_be (c, 2);

  for (guint i = 0; i < n && c->ok; i++)
    {
      skip (c, 2);
      skip_value (c, read_be (c, 1));
    }
}

/* Statics are a name id, a type and a value each. */
void
hprof_skip_statics (Cursor *c)
{
  guint n = read_be (c, 2);

  for (guint i = 0; i < n && c->ok; i++)
    {
      skip (c, c->id_size);
      skip_value (c, read_be (c, 1));
    }
}

static void
skip_class_dump (Cursor *c)
{
  guint n;

  hprof_skip_class_header (c);
  hprof_skip_constant_pool (c);
  hprof_skip_statics (c);
  n = read_be (c, 2);
  skip (c, (guint64) n * (c->id_size + 1));
}

static void
read_array (HprofLoader  *self,
            Cursor       *c,
            const guint8 *tag_at,
            gboolean      primitive,
            gboolean      with_data)
{
  guint64 object_id, count, element_size;
  guint heap_class;

  object_id = read_id (c);
  skip (c, 4);
  count = read_be (c, 4);
  if (primitive)
    {
      guint type = read_be (c, 1);

      element_size = hprof_type_size (type, c->id_size);
      if (type < 4 || element_size == 0)
        {
          c->ok = FALSE;
          return;
        }
      heap_class = primitive_array_class (self, type);
    }
  else
    {
      element_size = c->id_size;
      heap_class = class_for (self, read_id (c));
    }
  if (with_data)
    skip (c, count * element_size);
  if (c->ok)
    {
      count_object (self, heap_class, count * element_size);
      hprof_note_object (self, tag_at, object_id);
    }
}

/* A GC root: its object's id, then @rest bytes this kind adds. */
static void
add_root (HprofLoader    *self,
          Cursor         *c,
          StrataRootKind  kind,
          guint           rest)
{
  guint64 id = read_id (c);

  skip (c, rest);
  if (!c->ok)
    return;
  {
  guint8 kind_byte = kind;

  strata_heap_add_root (self->heap, kind);
  g_array_append_val (self->root_ids, id);
  g_array_append_val (self->root_kinds, kind_byte);
  }
}

/* Android's HEAP DUMP INFO: the objects after it are in that heap. */
static void
read_heap_info (HprofLoader  *self,
                Cursor       *c,
                const guint8 *tag_at)
{
  guint32 heap_id = read_be (c, 4);
  guint64 name_id = read_id (c);
  HeapRange range = { tag_at - self->data, 0 };
  guint heap;

  if (!c->ok)
    return;
  for (heap = 0; heap < self->heap_ids->len && g_array_index (self->heap_ids, guint32, heap) != heap_id; heap++)
    ;
  if (heap == self->heap_ids->len)
    {
      if (heap > G_MAXUINT8)
        return;
      g_array_append_val (self->heap_ids, heap_id);
      g_array_append_val (self->heap_name_ids, name_id);
    }
  range.heap = heap;
  g_array_append_val (self->heap_ranges, range);
}

/* "app", "zygote", "image"…; NULL for a dump that names no heap. */
GPtrArray *
hprof_heap_names (HprofLoader *self)
{
  GPtrArray *names;

  if (self->heap_ids->len == 0)
    return NULL;
  names = g_ptr_array_new_with_free_func (g_free);
  for (guint h = 0; h < self->heap_ids->len; h++)
    {
      guint32 name = hprof_string_text (self, g_array_index (self->heap_name_ids, guint64, h));

      g_ptr_array_add (names, g_strdup (name != 0 ? strata_trace_get_string (self->trace, name) : "?"));
    }
  return names;
}

/* A Java frame or JNI local: its object, thread serial and frame number. */
static void
add_frame_root (HprofLoader    *self,
                Cursor         *c,
                StrataRootKind  kind)
{
  Cursor peek = *c;
  FrameRootInfo root;

  root.id = read_id (&peek);
  root.thread = read_be (&peek, 4);
  root.frame = (gint32) read_be (&peek, 4);
  add_root (self, c, kind, 8);
  if (c->ok)
    g_array_append_val (self->frame_roots, root);
}

/* One sub-record; FALSE when its tag is unknown (the rest of the
 * segment cannot be framed). */
static gboolean
read_sub_record (HprofLoader *self,
                 Cursor      *c)
{
  const guint8 *tag_at = c->p;
  guint tag = read_be (c, 1);
  guint id = c->id_size;

  switch (tag)
    {
    case 0xFF: add_root (self, c, STRATA_ROOT_UNKNOWN, 0); break;
    case 0x01: add_root (self, c, STRATA_ROOT_JNI_GLOBAL, id); break;
    case 0x02: add_frame_root (self, c, STRATA_ROOT_JNI_LOCAL); break;
    case 0x03: add_frame_root (self, c, STRATA_ROOT_JAVA_FRAME); break;
    case 0x04: add_root (self, c, STRATA_ROOT_NATIVE_STACK, 4); break;
    case 0x05: add_root (self, c, STRATA_ROOT_STICKY_CLASS, 0); break;
    case 0x06: add_root (self, c, STRATA_ROOT_THREAD_BLOCK, 4); break;
    case 0x07: add_root (self, c, STRATA_ROOT_MONITOR_USED, 0); break;
    case 0x08:
      {
        ThreadInfo thread = { 0 };
        Cursor object = *c;

        thread.object = read_id (&object);
        add_root (self, c, STRATA_ROOT_THREAD_OBJECT, 0);
        thread.serial = read_be (c, 4);
        thread.stack = read_be (c, 4);
        if (c->ok)
          g_array_append_val (self->threads, thread);
        break;
      }
    case 0x89: add_root (self, c, STRATA_ROOT_INTERNED_STRING, 0); break;
    case 0x8A: add_root (self, c, STRATA_ROOT_FINALIZING, 0); break;
    case 0x8B: add_root (self, c, STRATA_ROOT_DEBUGGER, 0); break;
    case 0x8C: add_root (self, c, STRATA_ROOT_REFERENCE_CLEANUP, 0); break;
    case 0x8D: add_root (self, c, STRATA_ROOT_VM_INTERNAL, 0); break;
    case 0x8E: add_root (self, c, STRATA_ROOT_JNI_MONITOR, 8); break;
    case 0x90: add_root (self, c, STRATA_ROOT_UNREACHABLE, 0); break;
    case 0xFE: read_heap_info (self, c, tag_at); break;
    case 0x20:
      {
        guint64 class_id = read_id (c);

        c->p -= c->ok ? id : 0;
        skip_class_dump (c);
        if (c->ok)
          {
            guint64 offset = tag_at - self->data;

            g_array_append_val (self->class_dump_offsets, offset);
            strata_id_map_insert (&self->class_dumps, class_id, self->class_dump_offsets->len - 1);
            hprof_note_object (self, tag_at, class_id);
          }
        break;
      }
    case 0x21:
      {
        guint64 object_id, class_id, n;

        object_id = read_id (c);
        skip (c, 4);
        class_id = read_id (c);
        n = read_be (c, 4);
        skip (c, n);
        if (c->ok)
          {
            count_object (self, class_for (self, class_id), n);
            hprof_note_object (self, tag_at, object_id);
          }
        break;
      }
    case 0x22: read_array (self, c, tag_at, FALSE, TRUE); break;
    case 0x23: read_array (self, c, tag_at, TRUE, TRUE); break;
    case 0xC3: read_array (self, c, tag_at, TRUE, FALSE); break;
    default:
      return FALSE;
    }
  return TRUE;
}

/* Inside one huge HEAP DUMP record (JDK 8 writes a single one) pages
 * are handed back too, and a cancel is noticed. */
static void
heap_dump_progress (HprofLoader  *self,
                    const guint8 *at)
{
  gsize pos = at - self->data;

  if (pos - self->last_progress < PROGRESS_BYTES)
    return;
  strata_load_job_release_pages (self->job, self->data + self->last_progress, at);
  self->last_progress = pos;
  if (g_cancellable_is_cancelled (self->job->cancellable))
    self->cancelled = TRUE;
}

static void
read_heap_dump (HprofLoader  *self,
                const guint8 *body,
                gsize         len)
{
  Cursor c = { body, body + len, self->id_size, TRUE };
  guint n = 0;

  while (c.ok && c.p < c.end && !self->cancelled)
    {
      if (!read_sub_record (self, &c))
        {
          self->n_bad_segments++;
          return;
        }
      if (++n % 65536 == 0)
        heap_dump_progress (self, c.p);
    }
  if (!c.ok)
    self->n_bad_segments++;
}

/* ---- Top-level records ---- */

static void
read_load_class (HprofLoader *self,
                 Cursor      *c)
{
  guint64 class_id, name_id;
  guint32 serial;
  ClassName pending;

  serial = read_be (c, 4);
  class_id = read_id (c);
  skip (c, 4);
  name_id = read_id (c);
  if (!c->ok)
    return;
  pending.heap_class = strata_heap_add_class (self->heap, 0);
  pending.name_id = name_id;
  g_array_append_val (self->class_serial_names, name_id);
  strata_id_map_insert (&self->class_serials, serial, self->class_serial_names->len - 1);
  strata_id_map_insert (&self->classes, class_id, pending.heap_class);
  g_array_append_val (self->class_names, pending);
}

static void
read_stack_frame (HprofLoader *self,
                  Cursor      *c)
{
  guint64 frame_id = read_id (c);
  FrameInfo frame;

  frame.method_name = read_id (c);
  skip (c, c->id_size);                /* signature */
  frame.source = read_id (c);
  frame.class_serial = read_be (c, 4);
  frame.line = (gint32) read_be (c, 4);
  if (!c->ok)
    return;
  g_array_append_val (self->frame_infos, frame);
  strata_id_map_insert (&self->frames, frame_id, self->frame_infos->len - 1);
}

static void
read_stack_trace (HprofLoader *self,
                  Cursor      *c)
{
  StackInfo stack;
  guint32 n;

  stack.serial = read_be (c, 4);
  skip (c, 4);                         /* thread serial */
  n = read_be (c, 4);
  if (!cursor_need (c, (guint64) n * c->id_size))
    return;
  stack.frame_ids = g_array_sized_new (FALSE, FALSE, sizeof (guint64), n);
  for (guint32 i = 0; i < n; i++)
    {
      guint64 id = read_id (c);

      g_array_append_val (stack.frame_ids, id);
    }
  g_array_append_val (self->stacks, stack);
}

static void
read_start_thread (HprofLoader *self,
                   Cursor      *c)
{
  ThreadInfo thread;

  thread.serial = read_be (c, 4);
  skip (c, c->id_size);
  thread.stack = read_be (c, 4);
  thread.name = read_id (c);
  if (c->ok)
    g_array_append_val (self->threads, thread);
}

/* CPU SAMPLES (the JDK agent with cpu=samples): samples per trace. */
static void
read_cpu_samples (HprofLoader *self,
                  Cursor      *c)
{
  guint32 n;

  skip (c, 4);                         /* total */
  n = read_be (c, 4);
  if (!cursor_need (c, (guint64) n * 8))
    return;
  g_array_set_size (self->cpu_rows, 0);
  for (guint32 i = 0; i < 2 * n; i++)
    {
      guint32 value = read_be (c, 4);

      g_array_append_val (self->cpu_rows, value);
    }
}

/* ALLOC SITES: a header, then 25 bytes per site. */
static void
read_alloc_sites (HprofLoader *self,
                  Cursor      *c)
{
  guint32 n;

  skip (c, 2 + 4 + 4 + 4 + 8 + 8);
  n = read_be (c, 4);
  if (!cursor_need (c, (guint64) n * 25))
    return;
  g_array_set_size (self->sites, 0);
  for (guint32 i = 0; i < n; i++)
    {
      StrataAllocSite site = { 0 };

      skip (c, 1);                     /* array kind */
      site.class_name = read_be (c, 4);   /* a class serial until resolved */
      site.trace = read_be (c, 4);
      site.live_bytes = read_be (c, 4);
      site.live_objects = read_be (c, 4);
      site.allocated_bytes = read_be (c, 4);
      site.allocated_objects = read_be (c, 4);
      g_array_append_val (self->sites, site);
    }
}

static void
read_heap_summary (HprofLoader *self,
                   Cursor      *c,
                   gint64       time)
{
  StrataStringPool *pool = strata_trace_get_pool (self->trace);
  double live_bytes = read_be (c, 4), live_instances = read_be (c, 4);
  double allocated_bytes = read_be (c, 8), allocated_instances = read_be (c, 8);

  if (!c->ok)
    return;
  if (self->summary == NULL)
    self->summary = strata_counter_builder_new (strata_string_pool_intern (pool, _("Heap summary")), 0, 0, 0);
  strata_counter_builder_add (self->summary, time, strata_string_pool_intern (pool, _("live bytes")), live_bytes);
  strata_counter_builder_add (self->summary, time, strata_string_pool_intern (pool, _("live instances")), live_instances);
  strata_counter_builder_add (self->summary, time, strata_string_pool_intern (pool, _("allocated bytes")), allocated_bytes);
  strata_counter_builder_add (self->summary, time, strata_string_pool_intern (pool, _("allocated instances")), allocated_instances);
  strata_counter_builder_end_sample (self->summary);
}

static void
read_record (HprofLoader  *self,
             guint         tag,
             gint64        time,
             const guint8 *body,
             gsize         len)
{
  Cursor c = { body, body + len, self->id_size, TRUE };

  switch (tag)
    {
    case TAG_STRING:
      {
        guint64 id = read_id (&c);
        StringRef ref = { c.p - self->data, len - self->id_size };

        if (!c.ok || len - self->id_size > G_MAXUINT32)
          break;
        g_array_append_val (self->string_refs, ref);
        strata_id_map_insert (&self->strings, id, self->string_refs->len - 1);
        break;
      }
    case TAG_LOAD_CLASS:
      read_load_class (self, &c);
      break;
    case TAG_HEAP_SUMMARY:
      read_heap_summary (self, &c, time);
      break;
    case TAG_STACK_FRAME:
      read_stack_frame (self, &c);
      break;
    case TAG_STACK_TRACE:
      read_stack_trace (self, &c);
      break;
    case TAG_START_THREAD:
      read_start_thread (self, &c);
      break;
    case TAG_ALLOC_SITES:
      read_alloc_sites (self, &c);
      break;
    case TAG_CPU_SAMPLES:
      read_cpu_samples (self, &c);
      break;
    case TAG_HEAP_DUMP:
    case TAG_HEAP_DUMP_SEGMENT:
      read_heap_dump (self, body, len);
      break;
    default:
      /* Known kinds without figures of ours (unload class, end thread,
       * control settings, heap dump end) are no damage. */
      self->n_unknown_tags += !hprof_tag_is_known (tag);
      break;
    }
}

static gboolean
check_unknown_records (HprofLoader  *self,
                       GError      **error)
{
  if (!hprof_unknown_records_refused (self->n_unknown_tags, self->n_records))
    return TRUE;
  hprof_set_unknown_records_error (self->first_unknown_at, self->n_unknown_tags, self->n_records, error);
  return FALSE;
}

/* The progress of the walk at @pos, as its share of the load: a dump's
 * objects come after the walk (one without any is small, and done at
 * once). */
static double
walked (const HprofLoader *self,
        gsize              pos)
{
  return HPROF_PROGRESS_WALKED * pos / MAX (self->len, 1);
}

static gboolean
read_records (HprofLoader  *self,
              gsize         pos,
              GError      **error)
{
  while (pos < self->len)
    {
      Cursor c = { self->data + pos, self->data + self->len, self->id_size, TRUE };
      guint tag = read_be (&c, 1);
      gint64 time = read_be (&c, 4) * 1000;
      guint64 len = read_be (&c, 4);
      gsize body = pos + 9;

      if (!c.ok)
        {
          self->truncated = TRUE;
          self->truncated_at = pos;
          break;
        }
      if (len > self->len - body)
        {
          /* A heap dump cut short still counts what it holds. */
          self->truncated = TRUE;
          self->truncated_at = pos;
          if (tag == TAG_HEAP_DUMP || tag == TAG_HEAP_DUMP_SEGMENT)
            read_heap_dump (self, self->data + body, self->len - body);
          break;
        }
      if (self->n_unknown_tags == 0)
        self->first_unknown_at = pos;
      read_record (self, tag, time, self->data + body, len);
      self->n_records++;
      if (!check_unknown_records (self, error))
        return FALSE;
      pos = body + len;
      if (self->cancelled)
        return strata_load_job_update (self->job, walked (self, pos), NULL, error);
      if (pos - self->last_progress >= PROGRESS_BYTES)
        {
          /* Pages read go back to the kernel: a dump bigger than memory
           * streams through it (names are read again from the file). */
          strata_load_job_release_pages (self->job, self->data + self->last_progress, self->data + pos);
          self->last_progress = pos;
          if (!strata_load_job_update (self->job, walked (self, pos), _("Reading the heap dump…"), error))
            return FALSE;
        }
    }
  return TRUE;
}

/* The id size the records were written with, from the first record whose
 * length it fixes: LOAD CLASS is 2 ids and 8 bytes, STACK FRAME 4 ids and
 * 8 bytes. 0 when there is none (the walk only reads record headers). */
static guint
id_size_of_records (HprofLoader *self,
                    gsize        pos)
{
  guint64 n_unknown = 0;

  while (pos < self->len)
    {
      Cursor c = { self->data + pos, self->data + self->len, 4, TRUE };
      guint tag = read_be (&c, 1);
      guint64 len;

      skip (&c, 4);
      len = read_be (&c, 4);
      if (!c.ok || len > self->len - pos - 9)
        return 0;
      if (tag == TAG_LOAD_CLASS && (len == 8 + 2 * 4 || len == 8 + 2 * 8))
        return (len - 8) / 2;
      if (tag == TAG_STACK_FRAME && (len == 8 + 4 * 4 || len == 8 + 4 * 8))
        return (len - 8) / 4;
      /* Records of no kind a dump has (zeros): the reader refuses the
       * file after as many; walking on would read all of it. */
      if (!hprof_tag_is_known (tag) && ++n_unknown > HPROF_UNKNOWN_RECORDS_TOLERATED)
        return 0;
      pos += 9 + len;
    }
  return 0;
}

static gboolean
read_header (HprofLoader  *self,
             gsize        *pos,
             GError      **error)
{
  const guint8 *nul = memchr (self->data, 0, MIN (self->len, MAX_MAGIC));
  Cursor c;

  if (nul == NULL)
    {
      g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                           _("The heap dump’s header is damaged."));
      return FALSE;
    }
  c = (Cursor) { nul + 1, self->data + self->len, 4, TRUE };
  self->id_size = read_be (&c, 4);
  skip (&c, 8);
  if (!c.ok || (self->id_size != 4 && self->id_size != 8))
    {
      g_set_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                   _("The heap dump gives an identifier size of %u bytes; only 4 and 8 exist."),
                   c.ok ? self->id_size : 0);
      return FALSE;
    }
  strata_trace_set_format_detail (self->trace, (const char *) self->data);
  self->android = strcmp ((const char *) self->data, "JAVA PROFILE 1.0.3") == 0;
  *pos = c.p - self->data;
  /* A header that names the wrong size (a converter's mistake) would read
   * every id wrong and give blank names: the records' lengths decide. */
  {
    guint records = id_size_of_records (self, *pos);

    if (records != 0 && records != self->id_size)
      {
        self->header_id_size = self->id_size;
        self->id_size = records;
      }
  }
  return TRUE;
}


static void
hprof_loader_clear (HprofLoader *self)
{
  for (guint i = 0; self->stacks != NULL && i < self->stacks->len; i++)
    g_array_unref (g_array_index (self->stacks, StackInfo, i).frame_ids);
  g_clear_pointer (&self->stacks, g_array_unref);
  g_clear_pointer (&self->threads, g_array_unref);
  g_clear_pointer (&self->sites, g_array_unref);
  g_clear_pointer (&self->cpu_rows, g_array_unref);
  g_clear_pointer (&self->methods, g_hash_table_unref);
  g_clear_pointer (&self->frame_infos, g_array_unref);
  g_clear_pointer (&self->class_serial_names, g_array_unref);
  strata_id_map_clear (&self->frames);
  strata_id_map_clear (&self->class_serials);
  strata_id_map_clear (&self->strings);
  strata_id_map_clear (&self->classes);
  g_clear_pointer (&self->string_refs, g_array_unref);
  g_clear_pointer (&self->class_names, g_array_unref);
  g_clear_pointer (&self->heap, strata_heap_free);
  g_clear_pointer (&self->summary, strata_counter_builder_free);
  g_clear_pointer (&self->objects, g_array_unref);
  g_clear_pointer (&self->root_ids, g_array_unref);
  g_clear_pointer (&self->root_kinds, g_array_unref);
  g_clear_pointer (&self->frame_roots, g_array_unref);
  g_clear_pointer (&self->heap_ranges, g_array_unref);
  g_clear_pointer (&self->heap_ids, g_array_unref);
  g_clear_pointer (&self->heap_name_ids, g_array_unref);
  g_clear_pointer (&self->class_dump_offsets, g_array_unref);
  strata_id_map_clear (&self->class_dumps);
}

/**
 * strata_hprof_binary_load:
 *
 * Reads a binary heap dump into a trace whose heap holds the class
 * histogram and GC roots.
 */
StrataTrace *
strata_hprof_binary_load (StrataLoadJob  *job,
                          GError        **error)
{
  g_autoptr(StrataTrace) trace = strata_trace_new (STRATA_FORMAT_HPROF_BINARY);
  HprofLoader self = { .job = job, .trace = trace };
  gsize pos = 0;
  gboolean ok;

  self.data = g_bytes_get_data (job->bytes, &self.len);
  self.heap = strata_heap_new ();
  self.string_refs = g_array_new (FALSE, FALSE, sizeof (StringRef));
  self.class_names = g_array_new (FALSE, FALSE, sizeof (ClassName));
  strata_id_map_init (&self.strings);
  strata_id_map_init (&self.classes);
  strata_id_map_init (&self.frames);
  strata_id_map_init (&self.class_serials);
  self.frame_infos = g_array_new (FALSE, FALSE, sizeof (FrameInfo));
  self.class_serial_names = g_array_new (FALSE, FALSE, sizeof (guint64));
  self.stacks = g_array_new (FALSE, FALSE, sizeof (StackInfo));
  self.threads = g_array_new (FALSE, FALSE, sizeof (ThreadInfo));
  self.sites = g_array_new (FALSE, FALSE, sizeof (StrataAllocSite));
  self.cpu_rows = g_array_new (FALSE, FALSE, sizeof (guint32));
  self.methods = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self.objects = g_array_new (FALSE, FALSE, sizeof (HprofObject));
  self.root_ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  self.root_kinds = g_array_new (FALSE, FALSE, sizeof (guint8));
  self.frame_roots = g_array_new (FALSE, FALSE, sizeof (FrameRootInfo));
  self.heap_ranges = g_array_new (FALSE, FALSE, sizeof (HeapRange));
  self.heap_ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  self.heap_name_ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  self.class_dump_offsets = g_array_new (FALSE, FALSE, sizeof (guint64));
  strata_id_map_init (&self.class_dumps);

  ok = read_header (&self, &pos, error) && read_records (&self, pos, error);
  if (ok)
    {
      g_autoptr(StrataHeapGraph) graph = NULL;
      g_autoptr(StrataHprofIndex) index = NULL;
      g_autofree guint *old_to_new = NULL;

      hprof_resolve_class_names (&self);
      hprof_resolve_stacks_and_threads (&self);
      hprof_build_cpu_calls (&self);
      if (self.objects->len > 0 && !(graph = hprof_build_graph (&self, &index, error)))
        {
          hprof_loader_clear (&self);
          return NULL;
        }
      hprof_resolve_threads (&self, graph, index);
      hprof_resolve_frame_roots (&self, graph);
      old_to_new = strata_heap_merge_same_names (self.heap);
      if (graph != NULL)
        {
          strata_heap_graph_remap_classes (graph, old_to_new);
          strata_heap_set_heap_names (self.heap, hprof_heap_names (&self));
          strata_heap_take_graph (self.heap, g_steal_pointer (&graph), g_steal_pointer (&index),
                                  (GDestroyNotify) strata_hprof_index_free);
        }
      if (self.summary != NULL)
        {
          strata_trace_add_process (trace, 0, _("Java VM"));
          strata_trace_add_counter (trace, strata_counter_builder_finish (g_steal_pointer (&self.summary)));
        }
      strata_trace_set_heap (trace, g_steal_pointer (&self.heap));
      hprof_report (&self);
      strata_trace_finish (trace);
    }
  hprof_loader_clear (&self);
  return ok ? g_steal_pointer (&trace) : NULL;
}
