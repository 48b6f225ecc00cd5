/* strata-content-reader.h: a file's content as a window that slides along
 *
 * Plain content is the mapped file, one window over all of it. Gzip
 * content is inflated on a second thread, a few megabytes ahead of the
 * reader, so inflating and scanning share the two cores and the whole
 * content is never in memory at once.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-load-guard.h"
#include "strata-loader-private.h"

G_BEGIN_DECLS

typedef struct _StrataContentInflater StrataContentInflater;

typedef struct
{
  StrataLoadJob         *job;
  const guint8          *input;
  gsize                  input_len;
  gsize                  input_pos;  /* compressed bytes consumed so far */
  StrataContentInflater *inflater;   /* NULL for plain content */
  GByteArray            *buffer;     /* gzip: inflated bytes from @offset on */
  const char            *data;       /* the window */
  gsize                  len;
  gsize                  pos;        /* the scanner's place in the window */
  guint64                offset;     /* content offset of data[0] */
  gsize                  released;   /* plain: pages handed back up to here */
  gboolean               at_end;
  gboolean               damaged;    /* gzip: the stream broke off */
  StrataLoadFault        fault;      /* gzip: the file shrank, or memory ran out */
  gsize                  fault_wanted;
} StrataContentReader;

void     strata_content_reader_init     (StrataContentReader *reader,
                                         StrataLoadJob       *job,
                                         gboolean             gzip);
void     strata_content_reader_clear    (StrataContentReader *reader);
gboolean strata_content_reader_refill   (StrataContentReader *reader);
gboolean strata_content_reader_peek     (StrataContentReader *reader,
                                         char                *c);
void     strata_content_reader_release  (StrataContentReader *reader);
void     strata_content_reader_release_all (StrataContentReader *reader);
double   strata_content_reader_fraction (StrataContentReader *reader);

G_END_DECLS
