/* hprof-writer.h: binary heap dumps made up for tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void    hprof_writer_put         (GByteArray *out,
                                  guint64     value,
                                  guint       size);
void    hprof_writer_put_record  (GByteArray *out,
                                  guint8      tag,
                                  GByteArray *body);
void    hprof_writer_put_name    (GByteArray *out,
                                  guint32     id,
                                  const char *text);
GBytes *hprof_writer_many_arrays (guint32 n_arrays);
GBytes *hprof_writer_linked_list (guint32 n_nodes);

G_END_DECLS
