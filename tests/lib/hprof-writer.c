/* hprof-writer.c: binary heap dumps made up for tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
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
