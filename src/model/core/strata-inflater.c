/* strata-inflater.c: the one way Strata reads gzip content
 *
 * Sniffing a file's head, inflating a heap dump or method trace whole,
 * the Trace Event reader's inflating thread and reading one event's
 * arguments back all go through here: one magic check, one decompressor
 * set-up, one message for damaged data. Over memory, an inflater reads
 * into the caller's buffer a piece at a time; over a GInputStream, it is
 * GIO's converter stream with the same decompressor.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-error.h"
#include "strata-inflater.h"

struct _StrataInflater
{
  GZlibDecompressor *z;
  const guint8      *input;
  gsize              input_len;
  gsize              input_pos;
};

gboolean
strata_is_gzip (const guint8 *data,
                gsize         len)
{
  return len >= 2 && data[0] == 0x1f && data[1] == 0x8b;
}

void
strata_set_gzip_damaged_error (GError **error)
{
  g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                       _("It is a gzip file, but its compressed data is damaged."));
}

static GZlibDecompressor *
gzip_decompressor_new (void)
{
  return g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
}

/**
 * strata_inflater_new:
 * @input: the whole compressed content; it must outlive the inflater
 * @input_len: its length
 */
StrataInflater *
strata_inflater_new (const guint8 *input,
                     gsize         input_len)
{
  StrataInflater *self = g_new0 (StrataInflater, 1);

  self->z = gzip_decompressor_new ();
  self->input = input;
  self->input_len = input_len;
  return self;
}

void
strata_inflater_free (StrataInflater *self)
{
  if (self == NULL)
    return;
  g_object_unref (self->z);
  g_free (self);
}

/**
 * strata_inflater_read:
 * @out: where the inflated bytes go
 * @out_size: room in @out
 * @n_written: (out): how many bytes were inflated into @out
 *
 * Inflates as much as fits in @out. Input cut short yields everything it
 * held, then %STRATA_INFLATE_CUT, so a truncated file still loads.
 */
StrataInflateStatus
strata_inflater_read (StrataInflater *self,
                      guint8         *out,
                      gsize           out_size,
                      gsize          *n_written)
{
  g_autoptr(GError) error = NULL;
  gsize n_read = 0;
  GConverterResult result;

  *n_written = 0;
  result = g_converter_convert (G_CONVERTER (self->z),
                                self->input + self->input_pos, self->input_len - self->input_pos,
                                out, out_size, G_CONVERTER_INPUT_AT_END,
                                &n_read, n_written, &error);
  self->input_pos += n_read;
  if (result == G_CONVERTER_ERROR)
    return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT) ? STRATA_INFLATE_CUT
                                                                          : STRATA_INFLATE_DAMAGED;
  if (result == G_CONVERTER_FINISHED || (n_read == 0 && *n_written == 0))
    return STRATA_INFLATE_END;
  return STRATA_INFLATE_MORE;
}

/* How many compressed bytes have been consumed: progress, and what the
 * loader may release. */
gsize
strata_inflater_get_input_pos (const StrataInflater *self)
{
  return self->input_pos;
}

/**
 * strata_inflater_open_stream:
 * @base: a stream at the start of a file's content
 *
 * Returns: (transfer full): a stream of the inflated content when @base
 * holds gzip, else a buffered stream of @base itself
 */
GInputStream *
strata_inflater_open_stream (GInputStream  *base,
                             GCancellable  *cancellable,
                             GError       **error)
{
  g_autoptr(GInputStream) buffered = g_buffered_input_stream_new (base);
  g_autoptr(GZlibDecompressor) z = NULL;
  const guint8 *head;
  gsize n = 0;

  if (g_buffered_input_stream_fill (G_BUFFERED_INPUT_STREAM (buffered), 2, cancellable, error) < 0)
    return NULL;
  head = g_buffered_input_stream_peek_buffer (G_BUFFERED_INPUT_STREAM (buffered), &n);
  if (!strata_is_gzip (head, n))
    return g_steal_pointer (&buffered);

  z = gzip_decompressor_new ();
  return g_converter_input_stream_new (buffered, G_CONVERTER (z));
}
