/* strata-proto.h: the protobuf wire format, read field by field
 *
 * Only what a reader of known messages needs: each field's number, its
 * wire type and its value (a varint, a fixed number, or the bytes of a
 * length-delimited one), every length checked against what remains.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  STRATA_PROTO_VARINT = 0,
  STRATA_PROTO_FIXED64 = 1,
  STRATA_PROTO_BYTES = 2,
  STRATA_PROTO_FIXED32 = 5,
} StrataProtoWire;

typedef struct
{
  const guint8 *p;
  const guint8 *end;
  gboolean      bad;      /* a field ran past the end, or had no known wire type */
} StrataProto;

typedef struct
{
  guint32         number;
  StrataProtoWire wire;
  guint64         value;   /* varints and fixed numbers */
  const guint8   *bytes;   /* length-delimited */
  gsize           len;
} StrataProtoField;

static inline void
strata_proto_init (StrataProto  *self,
                   const guint8 *data,
                   gsize         len)
{
  /* An empty message may have no bytes at all (a batch that inflated
   * to nothing). */
  *self = (StrataProto) { data, data != NULL ? data + len : data, FALSE };
}

static inline gboolean
strata_proto_varint (StrataProto *self,
                     guint64     *value)
{
  guint64 result = 0;

  /* Most varints (field keys, small numbers) are one byte. */
  if (G_LIKELY (self->p < self->end && *self->p < 0x80))
    {
      *value = *self->p++;
      return TRUE;
    }

  for (guint shift = 0; shift < 70 && self->p < self->end; shift += 7)
    {
      guint8 byte = *self->p++;

      result |= shift < 64 ? (guint64) (byte & 0x7f) << shift : 0;
      if (!(byte & 0x80))
        {
          *value = result;
          return TRUE;
        }
    }
  self->bad = TRUE;
  return FALSE;
}

/* The next field; FALSE at the end of the message or where it breaks. */
static inline gboolean
strata_proto_next (StrataProto      *self,
                   StrataProtoField *field)
{
  guint64 key, len;

  if (self->bad || self->p >= self->end || !strata_proto_varint (self, &key))
    return FALSE;
  field->number = (guint32) MIN (key >> 3, G_MAXUINT32);
  field->wire = key & 7;
  /* Only length-delimited fields have bytes: a reader that takes a
   * message where a number came finds none. */
  field->bytes = NULL;
  field->len = 0;
  field->value = 0;
  switch (field->wire)
    {
    case STRATA_PROTO_VARINT:
      return strata_proto_varint (self, &field->value);
    case STRATA_PROTO_FIXED64:
      if (self->end - self->p < 8)
        break;
      field->value = 0;
      for (guint i = 0; i < 8; i++)
        field->value |= (guint64) self->p[i] << (8 * i);
      self->p += 8;
      return TRUE;
    case STRATA_PROTO_FIXED32:
      if (self->end - self->p < 4)
        break;
      field->value = self->p[0] | (self->p[1] << 8) | (self->p[2] << 16) | ((guint64) self->p[3] << 24);
      self->p += 4;
      return TRUE;
    case STRATA_PROTO_BYTES:
      if (!strata_proto_varint (self, &len) || len > (guint64) (self->end - self->p))
        break;
      field->bytes = self->p;
      field->len = (gsize) len;
      self->p += len;
      return TRUE;
    default:
      break;
    }
  self->bad = TRUE;
  return FALSE;
}

G_END_DECLS
