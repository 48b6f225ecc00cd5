/* hprof-writer.c: binary heap dumps made up for tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "hprof-writer.h"

/**
 * hprof_writer_put:
 *
 * Appends the @size low bytes of @value, big-endian, as HPROF writes
 * every number and id.
 */
void
hprof_writer_put (GByteArray *out,
                  guint64     value,
                  guint       size)
{
  for (guint i = size; i > 0; i--)
    {
      guint8 byte = value >> (8 * (i - 1));

      g_byte_array_append (out, &byte, 1);
    }
}

/**
 * hprof_writer_put_record:
 *
 * Appends a record of @tag holding @body, which is emptied.
 */
void
hprof_writer_put_record (GByteArray *out,
                         guint8      tag,
                         GByteArray *body)
{
  hprof_writer_put (out, tag, 1);
  hprof_writer_put (out, 0, 4);
  hprof_writer_put (out, body->len, 4);
  g_byte_array_append (out, body->data, body->len);
  g_byte_array_set_size (body, 0);
}

/**
 * hprof_writer_put_name:
 *
 * Appends a STRING record of a 4-byte-id dump: @text under @id.
 */
void
hprof_writer_put_name (GByteArray *out,
                       guint32     id,
                       const char *text)
{
  g_autoptr(GByteArray) body = g_byte_array_new ();

  hprof_writer_put (body, id, 4);
  g_byte_array_append (body, (const guint8 *) text, strlen (text));
  hprof_writer_put_record (out, 0x01, body);
}

/**
 * hprof_writer_many_arrays:
 *
 * A JDK-style dump (8-byte ids) of @n_arrays primitive arrays, each its
 * own GC root: byte[], int[] and long[] in turn, of 0 to 49 elements, so
 * their sizes repeat and their order by size differs from their order by
 * id or class.
 *
 * Returns: (transfer full): the dump's bytes
 */
GBytes *
hprof_writer_many_arrays (guint32 n_arrays)
{
  static const guint8 types[] = { 8, 10, 11 };          /* byte, int, long */
  static const guint sizes[] = { 1, 4, 8 };
  const char header[] = "JAVA PROFILE 1.0.2";
  GByteArray *out = g_byte_array_new ();
  g_autoptr(GByteArray) dump = g_byte_array_new ();

  g_byte_array_append (out, (const guint8 *) header, sizeof header);
  hprof_writer_put (out, 8, 4);
  hprof_writer_put (out, 0, 8);
  for (guint32 i = 0; i < n_arrays; i++)
    {
      guint32 length = (i * 7919u) % 50;
      guint kind = i % 3;

      hprof_writer_put (dump, 0x23, 1);
      hprof_writer_put (dump, 0x100000 + (guint64) i * 8, 8);
      hprof_writer_put (dump, 0, 4);
      hprof_writer_put (dump, length, 4);
      hprof_writer_put (dump, types[kind], 1);
      for (guint32 b = 0; b < length * sizes[kind]; b++)
        hprof_writer_put (dump, b, 1);
      hprof_writer_put (dump, 0xFF, 1);                     /* ROOT UNKNOWN */
      hprof_writer_put (dump, 0x100000 + (guint64) i * 8, 8);
    }
  hprof_writer_put (out, 0x1C, 1);                           /* HEAP DUMP SEGMENT */
  hprof_writer_put (out, 0, 4);
  hprof_writer_put (out, dump->len, 4);
  g_byte_array_append (out, dump->data, dump->len);
  hprof_writer_put (out, 0x2C, 1);                           /* HEAP DUMP END */
  hprof_writer_put (out, 0, 8);
  return g_byte_array_free_to_bytes (out);
}

/* A LOAD CLASS and STRING record naming class @id @name. */
static void
put_class_name (GByteArray *out,
                guint64     id,
                const char *name)
{
  g_autoptr(GByteArray) body = g_byte_array_new ();

  hprof_writer_put (body, id + 1, 8);
  g_byte_array_append (body, (const guint8 *) name, strlen (name));
  hprof_writer_put_record (out, 0x01, body);
  hprof_writer_put (body, 1, 4);
  hprof_writer_put (body, id, 8);
  hprof_writer_put (body, 0, 4);
  hprof_writer_put (body, id + 1, 8);
  hprof_writer_put_record (out, 0x02, body);
}

/**
 * hprof_writer_linked_list:
 *
 * A JDK-style dump (8-byte ids) of one list of @n_nodes nodes, each
 * (class "Node", one reference field "next", 8 bytes of fields) referring
 * to the next, the first a GC root; the last refers to an id the dump
 * does not hold. Node i has id 0x100000 + 16 i.
 *
 * Returns: (transfer full): the dump's bytes
 */
GBytes *
hprof_writer_linked_list (guint32 n_nodes)
{
  const char header[] = "JAVA PROFILE 1.0.2";
  const guint64 node_class = 0x1000, field_name = 0x2000;
  GByteArray *out = g_byte_array_new ();
  g_autoptr(GByteArray) dump = g_byte_array_new ();
  g_autoptr(GByteArray) name = g_byte_array_new ();

  g_byte_array_append (out, (const guint8 *) header, sizeof header);
  hprof_writer_put (out, 8, 4);
  hprof_writer_put (out, 0, 8);
  put_class_name (out, node_class, "Node");
  hprof_writer_put (name, field_name, 8);
  g_byte_array_append (name, (const guint8 *) "next", 4);
  hprof_writer_put_record (out, 0x01, name);
  hprof_writer_put (dump, 0x20, 1);                          /* CLASS DUMP */
  hprof_writer_put (dump, node_class, 8);
  hprof_writer_put (dump, 0, 4);
  for (guint i = 0; i < 6; i++)                              /* super, loader, … */
    hprof_writer_put (dump, 0, 8);
  hprof_writer_put (dump, 8, 4);                             /* instance size */
  hprof_writer_put (dump, 0, 2);
  hprof_writer_put (dump, 0, 2);
  hprof_writer_put (dump, 1, 2);
  hprof_writer_put (dump, field_name, 8);
  hprof_writer_put (dump, 2, 1);
  for (guint32 i = 0; i < n_nodes; i++)
    {
      hprof_writer_put (dump, 0x21, 1);                      /* INSTANCE DUMP */
      hprof_writer_put (dump, 0x100000 + (guint64) i * 16, 8);
      hprof_writer_put (dump, 0, 4);
      hprof_writer_put (dump, node_class, 8);
      hprof_writer_put (dump, 8, 4);
      hprof_writer_put (dump, 0x100000 + (guint64) (i + 1) * 16, 8);
    }
  hprof_writer_put (dump, 0xFF, 1);                          /* ROOT UNKNOWN */
  hprof_writer_put (dump, 0x100000, 8);
  hprof_writer_put (out, 0x1C, 1);                           /* HEAP DUMP SEGMENT */
  hprof_writer_put (out, 0, 4);
  hprof_writer_put (out, dump->len, 4);
  g_byte_array_append (out, dump->data, dump->len);
  hprof_writer_put (out, 0x2C, 1);                           /* HEAP DUMP END */
  hprof_writer_put (out, 0, 8);
  return g_byte_array_free_to_bytes (out);
}
