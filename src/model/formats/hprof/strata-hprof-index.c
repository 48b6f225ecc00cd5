/* strata-hprof-index.c: a binary heap dump kept readable after loading,
 * for the fields of any object and the names of references
 *
 * The dump stays mapped (address space, not memory: pages are read again
 * from the file when needed). Per object the index keeps where its record
 * is; per class, where its CLASS DUMP is; field names are interned once.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-hprof-index.h"
#include "strata-hprof-private.h"
#include "strata-memory.h"

#define MAX_CLASS_DEPTH 256

/* Where a string class's value and coder lie in its instances' bytes
 * (-1: no such field). */
typedef struct
{
  guint64 klass;
  gint64  value_at;
  gint64  coder_at;
} StringLayout;

struct _StrataHprofIndex
{
  GBytes                *content;
  const guint8          *data;
  gsize                  len;
  guint                  id_size;
  const StrataHeapGraph *graph;           /* owned by the heap, as the index is */
  GBytes                *offsets_bytes;   /* usually a scratch file's mapping */
  const guint64         *offsets;         /* per object: its record's tag */
  StrataIdMap            class_dumps;     /* class id -> index in class_dump_offsets */
  GArray                *class_dump_offsets;
  StrataIdMap            names;           /* string id -> pool id */
  StrataIdMap            class_names;     /* class object id -> pool id of its name */
  StringLayout           string_layout;   /* java.lang.String's, found once */
  gboolean               data_mapped;     /* the dump's pages can be given back */
  gboolean               offsets_mapped;
};

void
strata_hprof_index_free (StrataHprofIndex *self)
{
  if (self == NULL)
    return;
  g_bytes_unref (self->content);
  g_clear_pointer (&self->offsets_bytes, g_bytes_unref);
  strata_id_map_clear (&self->class_dumps);
  strata_id_map_clear (&self->names);
  strata_id_map_clear (&self->class_names);
  g_clear_pointer (&self->class_dump_offsets, g_array_unref);
  g_free (self);
}

static void
intern_field_names (StrataHprofIndex *self,
                    HprofLoader      *loader)
{
  for (guint i = 0; i < self->class_dump_offsets->len; i++)
    {
      Cursor c = { self->data + g_array_index (self->class_dump_offsets, guint64, i) + 1,
                   self->data + self->len, self->id_size, TRUE };
      guint n;

      hprof_skip_class_header (&c);
      hprof_skip_constant_pool (&c);
      for (guint pass = 0; pass < 2 && c.ok; pass++)
        {
          n = read_be (&c, 2);
          for (guint k = 0; k < n && c.ok; k++)
            {
              guint64 name = read_id (&c);
              guint type = read_be (&c, 1);

              if (strata_id_map_lookup (&self->names, name) == STRATA_ID_MAP_MISSING)
                strata_id_map_insert (&self->names, name, hprof_string_text (loader, name));
              /* Statics carry a value; instance fields do not. */
              if (pass == 0)
                skip (&c, hprof_type_size (type, c.id_size));
            }
        }
    }
}

static StringLayout find_string_layout (StrataHprofIndex *self,
                                        StrataTrace      *trace,
                                        guint64           class_id);

/* Takes the loader's class dump map; @offsets is taken too. */
StrataHprofIndex *
hprof_index_new (HprofLoader     *loader,
                 StrataHeapGraph *graph,
                 GBytes          *offsets,
                 gboolean         offsets_mapped)
{
  StrataHprofIndex *self = g_new0 (StrataHprofIndex, 1);

  self->content = g_bytes_ref (loader->job->bytes);
  self->data = loader->data;
  self->len = loader->len;
  self->id_size = loader->id_size;
  self->graph = graph;
  self->offsets_bytes = offsets;
  self->offsets = g_bytes_get_data (offsets, NULL);
  self->data_mapped = loader->job->bytes_are_mapped;
  self->offsets_mapped = offsets_mapped;
  self->class_dumps = loader->class_dumps;
  memset (&loader->class_dumps, 0, sizeof loader->class_dumps);
  strata_id_map_init (&loader->class_dumps);
  self->class_dump_offsets = g_steal_pointer (&loader->class_dump_offsets);
  loader->class_dump_offsets = g_array_new (FALSE, FALSE, sizeof (guint64));
  strata_id_map_init (&self->names);
  intern_field_names (self, loader);
  /* Class objects are java.lang.Class instances: each keeps its name. */
  strata_id_map_init (&self->class_names);
  for (gsize slot = 0; loader->classes.keys != NULL && slot <= loader->classes.mask; slot++)
    if (loader->classes.values[slot] != 0)
      {
        guint32 name = strata_heap_get_class (loader->heap, loader->classes.values[slot] - 1)->name;

        strata_id_map_insert (&self->class_names, loader->classes.keys[slot], name);
        if (g_str_equal (strata_trace_get_string (loader->trace, name), "java.lang.String"))
          self->string_layout = find_string_layout (self, loader->trace, loader->classes.keys[slot]);
      }
  return self;
}

static gboolean
class_dump_cursor (StrataHprofIndex *self,
                   guint64           class_id,
                   Cursor           *c)
{
  guint32 index = strata_id_map_lookup (&self->class_dumps, class_id);

  if (index == STRATA_ID_MAP_MISSING)
    return FALSE;
  *c = (Cursor) { self->data + g_array_index (self->class_dump_offsets, guint64, index) + 1,
                  self->data + self->len, self->id_size, TRUE };
  return TRUE;
}

/* Puts @dump at the instance fields of class @class_id (their count comes
 * next) and gives its superclass. FALSE when the dump lacks the class. */
static gboolean
open_instance_fields (StrataHprofIndex *self,
                      guint64           class_id,
                      Cursor           *dump,
                      guint64          *super_id)
{
  if (!class_dump_cursor (self, class_id, dump))
    return FALSE;
  skip (dump, dump->id_size + 4);
  *super_id = read_id (dump);
  skip (dump, 5 * dump->id_size + 4);
  hprof_skip_constant_pool (dump);
  hprof_skip_statics (dump);
  return dump->ok;
}

static const char *
field_name (StrataHprofIndex *self,
            StrataTrace      *trace,
            guint64           name_id)
{
  guint32 name = strata_id_map_lookup (&self->names, name_id);

  return name == STRATA_ID_MAP_MISSING ? "" : strata_trace_get_string (trace, name);
}

/* A field's name as shown: a mapping's, when the trace has one. */
static const char *
shown_field_name (StrataHprofIndex *self,
                  StrataTrace      *trace,
                  guint64           class_id,
                  guint64           name_id)
{
  const char *name = field_name (self, trace, name_id);
  guint32 klass = strata_id_map_lookup (&self->class_names, class_id);

  if (klass == STRATA_ID_MAP_MISSING)
    return name;
  return strata_trace_map_field_name (trace, strata_trace_get_string (trace, klass), name);
}

static void
add_field (GArray     *fields,
           const char *name,
           guint       type,
           guint64     value,
           gboolean    is_static,
           const char *owner)
{
  StrataHeapField field = { name, type, value, is_static, owner };

  g_array_append_val (fields, field);
}

/* A class object: its static fields. */
static void
get_static_fields (StrataHprofIndex *self,
                   StrataTrace      *trace,
                   Cursor           *c,
                   GArray           *fields)
{
  Cursor peek = *c;
  guint64 class_id = read_id (&peek);
  guint n;

  hprof_skip_class_header (c);
  hprof_skip_constant_pool (c);
  n = read_be (c, 2);
  for (guint k = 0; k < n && c->ok; k++)
    {
      const char *name = shown_field_name (self, trace, class_id, read_id (c));
      guint type = read_be (c, 1);
      guint64 value = read_be (c, hprof_type_size (type, c->id_size));

      if (c->ok)
        add_field (fields, name, type, value, TRUE, NULL);
    }
}

/* An instance: its fields and its superclasses', in the record's order. */
static void
get_instance_fields (StrataHprofIndex *self,
                     StrataTrace      *trace,
                     Cursor           *c,
                     GArray           *fields)
{
  guint64 class_id;
  guint32 n_bytes;
  Cursor values;

  skip (c, c->id_size + 4);
  class_id = read_id (c);
  n_bytes = read_be (c, 4);
  if (!cursor_need (c, n_bytes))
    return;
  values = (Cursor) { c->p, c->p + n_bytes, c->id_size, TRUE };
  for (guint depth = 0; class_id != 0 && depth < MAX_CLASS_DEPTH; depth++)
    {
      Cursor dump;
      guint64 owner = class_id;
      const char *owner_name = strata_hprof_index_get_class_name (self, trace, owner);
      guint n;

      if (!open_instance_fields (self, owner, &dump, &class_id))
        return;
      n = read_be (&dump, 2);
      for (guint k = 0; k < n && dump.ok; k++)
        {
          const char *name = shown_field_name (self, trace, owner, read_id (&dump));
          guint type = read_be (&dump, 1);
          guint64 value = read_be (&values, hprof_type_size (type, dump.id_size));

          if (!values.ok)
            return;
          add_field (fields, name, type, value, FALSE, owner_name);
        }
    }
}

/**
 * strata_hprof_index_get_fields:
 *
 * Returns: (transfer full): StrataHeapField: an instance's fields, or a
 *   class's static fields; empty for arrays
 */
GArray *
strata_hprof_index_get_fields (StrataHprofIndex *self,
                               StrataTrace      *trace,
                               guint32           object)
{
  GArray *fields = g_array_new (FALSE, FALSE, sizeof (StrataHeapField));
  Cursor c = { self->data + self->offsets[object], self->data + self->len, self->id_size, TRUE };

  switch (read_be (&c, 1))
    {
    case 0x20: get_static_fields (self, trace, &c, fields); break;
    case 0x21: get_instance_fields (self, trace, &c, fields); break;
    default: break;
    }
  return fields;
}

/* The place in an object array that holds @target, or -1. */
static gint64
find_element (StrataHprofIndex *self,
              guint32           array,
              guint64           target)
{
  Cursor c = { self->data + self->offsets[array], self->data + self->len, self->id_size, TRUE };
  guint32 length;

  if (read_be (&c, 1) != 0x22)
    return -1;
  skip (&c, c.id_size + 4);
  length = read_be (&c, 4);
  skip (&c, c.id_size);
  for (guint32 i = 0; i < length && c.ok; i++)
    if (read_id (&c) == target)
      return i;
  return -1;
}

/**
 * strata_hprof_index_name_reference:
 *
 * Returns: (transfer full): how @from refers to @to: a field's name
 *   ("next"), a static field ("static INSTANCE"), or an array element
 *   ("[12]"); "?" when the reference is not found
 */
char *
strata_hprof_index_name_reference (StrataHprofIndex *self,
                                   StrataTrace      *trace,
                                   guint32           from,
                                   guint32           to)
{
  guint64 target = strata_heap_graph_get_id (self->graph, to);
  g_autoptr(GArray) fields = strata_hprof_index_get_fields (self, trace, from);
  gint64 element;

  for (guint i = 0; i < fields->len; i++)
    {
      const StrataHeapField *field = &g_array_index (fields, StrataHeapField, i);

      if (field->type == STRATA_HEAP_TYPE_OBJECT && field->value == target)
        return field->is_static ? g_strdup_printf ("static %s", field->name) : g_strdup (field->name);
    }
  if ((element = find_element (self, from, target)) >= 0)
    return g_strdup_printf ("[%" G_GINT64_FORMAT "]", element);
  /* A class refers to its superclass and loader too. */
  return g_strdup ("?");
}

/**
 * strata_heap_field_format_value:
 *
 * Returns: (transfer full): the value as Java would print it; an object
 *   as its id in hex, or "null"
 */
char *
strata_heap_field_format_value (const StrataHeapField *field)
{
  switch (field->type)
    {
    case STRATA_HEAP_TYPE_OBJECT:
      return field->value == 0 ? g_strdup ("null") : g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", field->value);
    case STRATA_HEAP_TYPE_BOOLEAN:
      return g_strdup (field->value ? "true" : "false");
    case STRATA_HEAP_TYPE_CHAR:
      {
        gunichar ch = (gunichar) field->value;
        char utf8[8] = { 0 };

        if (!g_unichar_validate (ch) || !g_unichar_isprint (ch))
          return g_strdup_printf ("'\\u%04x'", (guint) field->value);
        g_unichar_to_utf8 (ch, utf8);
        return g_strdup_printf ("'%s'", utf8);
      }
    case STRATA_HEAP_TYPE_FLOAT:
      {
        guint32 bits = (guint32) field->value;
        float f;

        memcpy (&f, &bits, sizeof f);
        return g_strdup_printf ("%g", f);
      }
    case STRATA_HEAP_TYPE_DOUBLE:
      {
        double d;

        memcpy (&d, &field->value, sizeof d);
        return g_strdup_printf ("%g", d);
      }
    case STRATA_HEAP_TYPE_BYTE:
      return g_strdup_printf ("%d", (gint8) field->value);
    case STRATA_HEAP_TYPE_SHORT:
      return g_strdup_printf ("%d", (gint16) field->value);
    case STRATA_HEAP_TYPE_INT:
      return g_strdup_printf ("%d", (gint32) field->value);
    case STRATA_HEAP_TYPE_LONG:
      return g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) field->value);
    default:
      return g_strdup ("?");
    }
}

/**
 * strata_hprof_index_get_primitive_array:
 *
 * Returns: (nullable): the elements of a primitive array, big-endian as
 *   the dump holds them, with its type and length; %NULL for anything else
 */
const guint8 *
strata_hprof_index_get_primitive_array (StrataHprofIndex *self,
                 guint32           object,
                 guint            *type,
                 guint32          *length)
{
  Cursor c = { self->data + self->offsets[object], self->data + self->len, self->id_size, TRUE };

  if (read_be (&c, 1) != 0x23)
    return NULL;
  skip (&c, c.id_size + 4);
  *length = read_be (&c, 4);
  *type = read_be (&c, 1);
  if (!c.ok || hprof_type_size (*type, c.id_size) == 0 ||
      !cursor_need (&c, (guint64) *length * hprof_type_size (*type, c.id_size)))
    return NULL;
  return c.p;
}

/**
 * strata_hprof_index_dup_string:
 * @object: a java.lang.String
 *
 * The text, from its value array: bytes with a coder (JDK 9 and later:
 * Latin-1, or UTF-16 in the machine's order, little-endian here) or chars
 * (JDK 8 and Android). At most 64 KiB of it.
 *
 * Returns: (transfer full) (nullable): UTF-8 text, or %NULL when @object
 *   is not a string the dump holds whole
 */
/* Where @class_id's instances hold `value` and `coder`: its fields and
 * its superclasses', in the record's order. */
static StringLayout
find_string_layout (StrataHprofIndex *self,
                    StrataTrace      *trace,
                    guint64           class_id)
{
  StringLayout layout = { class_id, -1, -1 };
  gint64 at = 0;

  for (guint depth = 0; class_id != 0 && depth < MAX_CLASS_DEPTH; depth++)
    {
      Cursor dump;
      guint n;

      if (!open_instance_fields (self, class_id, &dump, &class_id))
        break;
      n = read_be (&dump, 2);
      for (guint k = 0; k < n && dump.ok; k++)
        {
          const char *name = field_name (self, trace, read_id (&dump));
          guint type = read_be (&dump, 1);

          if (type == STRATA_HEAP_TYPE_OBJECT && g_str_equal (name, "value") && layout.value_at < 0)
            layout.value_at = at;
          else if (type == STRATA_HEAP_TYPE_BYTE && g_str_equal (name, "coder") && layout.coder_at < 0)
            layout.coder_at = at;
          at += hprof_type_size (type, dump.id_size);
        }
    }
  return layout;
}

/**
 * strata_hprof_index_get_string_value:
 * @object: a java.lang.String
 * @data: (out): its value array's elements, big-endian as the dump holds them
 * @type: (out): their type: STRATA_HEAP_TYPE_BYTE (JDK 9 on) or _CHAR
 * @coder: (out): with bytes, 0 for Latin-1, 1 for UTF-16 (little-endian)
 *
 * Reads a string's content where the dump holds it, without copying:
 * the fields' places are found once for java.lang.String.
 *
 * Returns: %FALSE when @object is not a string whose value the dump holds
 */
gboolean
strata_hprof_index_get_string_value (StrataHprofIndex *self,
                                     StrataTrace      *trace,
                                     guint32           object,
                                     const guint8    **data,
                                     guint32          *length,
                                     guint            *type,
                                     guint            *coder)
{
  Cursor c = { self->data + self->offsets[object], self->data + self->len, self->id_size, TRUE };
  guint64 class_id;
  guint32 n_bytes, value;
  Cursor field;
  StringLayout layout;

  if (read_be (&c, 1) != 0x21)
    return FALSE;
  skip (&c, c.id_size + 4);
  class_id = read_id (&c);
  n_bytes = read_be (&c, 4);
  if (!c.ok || !cursor_need (&c, n_bytes))
    return FALSE;
  /* Read-only once made: the index is read from several threads. */
  layout = class_id == self->string_layout.klass ? self->string_layout : find_string_layout (self, trace, class_id);
  if (layout.value_at < 0 || (guint64) layout.value_at + self->id_size > n_bytes)
    return FALSE;
  field = (Cursor) { c.p + layout.value_at, c.p + n_bytes, self->id_size, TRUE };
  value = strata_heap_graph_lookup (self->graph, read_id (&field));
  *coder = layout.coder_at >= 0 && (guint64) layout.coder_at < n_bytes ? c.p[layout.coder_at] : 0;
  if (value == STRATA_HEAP_NO_OBJECT || !(*data = strata_hprof_index_get_primitive_array (self, value, type, length)))
    return FALSE;
  return *type == STRATA_HEAP_TYPE_BYTE || *type == STRATA_HEAP_TYPE_CHAR;
}

/**
 * strata_hprof_index_dup_string:
 * @object: a java.lang.String
 *
 * The text, from its value array: bytes with a coder (JDK 9 and later:
 * Latin-1, or UTF-16 in the machine's order, little-endian here) or chars
 * (JDK 8 and Android). At most 64 KiB of it.
 *
 * Returns: (transfer full) (nullable): UTF-8 text, or %NULL when @object
 *   is not a string the dump holds whole
 */
char *
strata_hprof_index_dup_string (StrataHprofIndex *self,
                               StrataTrace      *trace,
                               guint32           object)
{
  const guint8 *data;
  guint32 length;
  guint type, coder;

  if (!strata_hprof_index_get_string_value (self, trace, object, &data, &length, &type, &coder))
    return NULL;
  length = MIN (length, 64 * 1024);
  if (type == STRATA_HEAP_TYPE_BYTE && coder == 0)
    return g_convert ((const char *) data, length, "UTF-8", "ISO-8859-1", NULL, NULL, NULL);
  {
    gboolean little = type == STRATA_HEAP_TYPE_BYTE;
    guint32 n = little ? length / 2 : length;
    g_autofree gunichar2 *units = g_new (gunichar2, MAX (n, 1));

    for (guint32 i = 0; i < n; i++)
      units[i] = little ? data[2 * i] | data[2 * i + 1] << 8 : data[2 * i] << 8 | data[2 * i + 1];
    return g_utf16_to_utf8 (units, n, NULL, NULL, NULL);
  }
}

/**
 * strata_hprof_index_release_records:
 *
 * Gives back to the system the pages of the dump that hold the records
 * of objects @from to @to (excluded), read and done with: a pass over
 * every object of a dump larger than memory then streams through it.
 * They are read again from the file if needed.
 */
void
strata_hprof_index_release_records (StrataHprofIndex *self,
                                    guint32           from,
                                    guint32           to)
{
  guint64 lo = G_MAXUINT64, hi = 0;

  for (guint32 i = from; i < to; i++)
    {
      lo = MIN (lo, self->offsets[i]);
      hi = MAX (hi, self->offsets[i]);
    }
  if (lo < hi)
    strata_memory_release_span (self->data + lo, self->data + hi, self->data_mapped);
  strata_memory_release_span (self->offsets + from, self->offsets + to, self->offsets_mapped);
}

/* The name of the class whose class object has @id, or NULL. */
const char *
strata_hprof_index_get_class_name (StrataHprofIndex *self,
                                   StrataTrace      *trace,
                                   guint64           id)
{
  guint32 name = strata_id_map_lookup (&self->class_names, id);

  return name == STRATA_ID_MAP_MISSING ? NULL : strata_trace_get_string (trace, name);
}

/**
 * strata_hprof_index_get_class_loader:
 *
 * Returns: the id of the loader of the class whose class object has
 *   @class_id; 0 for the bootstrap loader, or a class the dump lacks
 */
guint64
strata_hprof_index_get_class_loader (StrataHprofIndex *self,
                                     guint64           class_id)
{
  Cursor c;

  if (!class_dump_cursor (self, class_id, &c))
    return 0;
  skip (&c, c.id_size + 4 + c.id_size);
  return read_id (&c);
}

/**
 * strata_hprof_index_get_class_chain:
 * @names: (out caller-allocates): class names, the object's own first
 * @max: how many @names holds
 *
 * An instance's class and its superclasses, as far as the dump has
 * them: what `instanceof` asks.
 *
 * Returns: how many names were given; 0 for a class object or an array
 */
guint
strata_hprof_index_get_class_chain (StrataHprofIndex *self,
                                    StrataTrace      *trace,
                                    guint32           object,
                                    const char      **names,
                                    guint             max)
{
  Cursor c = { self->data + self->offsets[object], self->data + self->len, self->id_size, TRUE };
  guint64 class_id;
  guint n = 0;

  if (read_be (&c, 1) != 0x21)
    return 0;
  skip (&c, c.id_size + 4);
  class_id = read_id (&c);
  while (c.ok && class_id != 0 && n < MIN (max, MAX_CLASS_DEPTH))
    {
      const char *name = strata_hprof_index_get_class_name (self, trace, class_id);
      Cursor dump;

      if (name == NULL)
        break;
      names[n++] = name;
      if (!open_instance_fields (self, class_id, &dump, &class_id))
        break;
    }
  return n;
}

/**
 * strata_heap_fields_find:
 * @fields: (element-type StrataHeapField): from strata_hprof_index_get_fields()
 * @owner: (nullable): the class that declares it, or %NULL for any
 *
 * Returns: (nullable): the first field @name (of @owner), the subclass's
 *   before its superclasses', or %NULL
 */
const StrataHeapField *
strata_heap_fields_find (GArray     *fields,
                         const char *owner,
                         const char *name)
{
  for (guint i = 0; i < fields->len; i++)
    {
      const StrataHeapField *field = &g_array_index (fields, StrataHeapField, i);

      if (g_str_equal (field->name, name) && (owner == NULL || g_strcmp0 (field->owner, owner) == 0))
        return field;
    }
  return NULL;
}

/* Bytes per element of a primitive type; 0 for anything else. */
guint
strata_heap_type_size (guint type)
{
  return type == STRATA_HEAP_TYPE_OBJECT ? 0 : hprof_type_size (type, 8);
}

/**
 * strata_hprof_index_get_array:
 * @type: (out): the element type (STRATA_HEAP_TYPE_OBJECT for an array of
 *   references)
 * @length: (out): how many elements
 * @element_size: (out): bytes per element in the dump
 *
 * Returns: (nullable): an array's elements, big-endian as the dump holds
 *   them; %NULL for an object that is not an array
 */
const guint8 *
strata_hprof_index_get_array (StrataHprofIndex *self,
                              guint32           object,
                              guint            *type,
                              guint32          *length,
                              guint            *element_size)
{
  Cursor c = { self->data + self->offsets[object], self->data + self->len, self->id_size, TRUE };
  const guint8 *data;

  if (read_be (&c, 1) != 0x22)
    {
      data = strata_hprof_index_get_primitive_array (self, object, type, length);
      *element_size = data != NULL ? hprof_type_size (*type, self->id_size) : 0;
      return data;
    }
  skip (&c, c.id_size + 4);
  *length = read_be (&c, 4);
  skip (&c, c.id_size);
  *type = STRATA_HEAP_TYPE_OBJECT;
  *element_size = self->id_size;
  if (!cursor_need (&c, (guint64) *length * self->id_size))
    return NULL;
  return c.p;
}

/* Element @i of an array from strata_hprof_index_get_array(), as a field
 * named "[i]". */
StrataHeapField
strata_heap_array_element (const guint8 *data,
                           guint         type,
                           guint         element_size,
                           guint32       i)
{
  StrataHeapField field = { NULL, type, 0, FALSE };

  for (guint b = 0; b < element_size; b++)
    field.value = field.value << 8 | data[(gsize) i * element_size + b];
  return field;
}
