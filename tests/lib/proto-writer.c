/* proto-writer.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "proto-writer.h"

#include <string.h>

GByteArray *
proto_message (void)
{
  return g_byte_array_new ();
}

void
proto_put_varint (GByteArray *out,
                  guint64     value)
{
  guint8 bytes[10];
  guint n = 0;

  do
    {
      bytes[n] = value & 0x7f;
      value >>= 7;
      if (value != 0)
        bytes[n] |= 0x80;
      n++;
    }
  while (value != 0);
  g_byte_array_append (out, bytes, n);
}

void
proto_put_uint (GByteArray *out,
                guint       field,
                guint64     value)
{
  proto_put_varint (out, (guint64) field << 3);
  proto_put_varint (out, value);
}

void
proto_put_fixed64 (GByteArray *out,
                   guint       field,
                   guint64     value)
{
  guint8 bytes[8];

  proto_put_varint (out, (guint64) field << 3 | 1);
  for (guint i = 0; i < 8; i++)
    bytes[i] = value >> (8 * i);
  g_byte_array_append (out, bytes, 8);
}

void
proto_put_bytes (GByteArray   *out,
                 guint         field,
                 const guint8 *data,
                 gsize         len)
{
  proto_put_varint (out, (guint64) field << 3 | 2);
  proto_put_varint (out, len);
  g_byte_array_append (out, data, len);
}

void
proto_put_string (GByteArray *out,
                  guint       field,
                  const char *text)
{
  proto_put_bytes (out, field, (const guint8 *) text, strlen (text));
}

void
proto_put_message (GByteArray *out,
                   guint       field,
                   GByteArray *message)
{
  proto_put_bytes (out, field, message->data, message->len);
  g_byte_array_unref (message);
}
