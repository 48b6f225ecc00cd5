/* strata-table-writer.h: tables as CSV or TSV that other tools can read
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "strata-trace.h"

G_BEGIN_DECLS

typedef struct _StrataTableWriter StrataTableWriter;

StrataTableWriter *strata_table_writer_new      (GFile              *file,
                                                 GError            **error);
StrataTableWriter *strata_table_writer_new_for_stream (GOutputStream *stream,
                                                 char                separator);
void               strata_table_writer_add_text (StrataTableWriter  *self,
                                                 const char         *text);
void               strata_table_writer_add_int  (StrataTableWriter  *self,
                                                 gint64              value);
void               strata_table_writer_add_uint (StrataTableWriter  *self,
                                                 guint64             value);
void               strata_table_writer_add_double (StrataTableWriter *self,
                                                 double              value);
void               strata_table_writer_add_percent (StrataTableWriter *self,
                                                 gint64              part,
                                                 gint64              total);
void               strata_table_writer_add_empty (StrataTableWriter *self);
gboolean           strata_table_writer_end_row  (StrataTableWriter  *self,
                                                 GError            **error);
gboolean           strata_table_writer_finish   (StrataTableWriter  *self,
                                                 GError            **error);
void               strata_table_writer_free     (StrataTableWriter  *self);
void               strata_table_writer_add_profile_headers (StrataTableWriter *self,
                                                 StrataTrace        *trace,
                                                 guint               clock);
const char        *strata_table_clock_unit      (StrataTrace        *trace,
                                                 guint               clock);
char              *strata_table_export_name     (StrataTrace        *trace,
                                                 const char         *view);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrataTableWriter, strata_table_writer_free)

G_END_DECLS
