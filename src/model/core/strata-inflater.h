/* strata-inflater.h: the one way Strata reads gzip content
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum
{
  STRATA_INFLATE_MORE,     /* @out is full or the input has more to give */
  STRATA_INFLATE_END,      /* the stream ended */
  STRATA_INFLATE_CUT,      /* the input ended before the stream did */
  STRATA_INFLATE_DAMAGED,  /* the compressed data is damaged here */
} StrataInflateStatus;

typedef struct _StrataInflater StrataInflater;

gboolean            strata_is_gzip                 (const guint8    *data,
                                                    gsize            len);
void                strata_set_gzip_damaged_error  (GError         **error);

StrataInflater     *strata_inflater_new            (const guint8    *input,
                                                    gsize            input_len);
void                strata_inflater_free           (StrataInflater  *self);
StrataInflateStatus strata_inflater_read           (StrataInflater  *self,
                                                    guint8          *out,
                                                    gsize            out_size,
                                                    gsize           *n_written);
gsize               strata_inflater_get_input_pos  (const StrataInflater *self);

GInputStream       *strata_inflater_open_stream    (GInputStream    *base,
                                                    GCancellable    *cancellable,
                                                    GError         **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrataInflater, strata_inflater_free)

G_END_DECLS
