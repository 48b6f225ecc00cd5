/* strata-csv-writer.h: tables as CSV or TSV that other tools can read
 *
 * The writer beside the JSON writer: cells by type (text quoted as RFC
 * 4180 asks, integers exact, decimals that read back the same, shares as
 * plain decimals), each row written as it ends. What each exported table
 * holds is in the view model's strata-csv-export.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _StrataCsvWriter StrataCsvWriter;

StrataCsvWriter *strata_csv_writer_new            (GFile            *file,
                                                   GError          **error);
StrataCsvWriter *strata_csv_writer_new_for_stream (GOutputStream    *stream,
                                                   char              separator);
void             strata_csv_writer_add_text       (StrataCsvWriter  *self,
                                                   const char       *text);
void             strata_csv_writer_add_int        (StrataCsvWriter  *self,
                                                   gint64            value);
void             strata_csv_writer_add_uint       (StrataCsvWriter  *self,
                                                   guint64           value);
void             strata_csv_writer_add_double     (StrataCsvWriter  *self,
                                                   double            value);
void             strata_csv_writer_add_percent    (StrataCsvWriter  *self,
                                                   gint64            part,
                                                   gint64            total);
void             strata_csv_writer_add_empty      (StrataCsvWriter  *self);
gboolean         strata_csv_writer_end_row        (StrataCsvWriter  *self,
                                                   GError          **error);
gboolean         strata_csv_writer_finish         (StrataCsvWriter  *self,
                                                   GError          **error);
void             strata_csv_writer_free           (StrataCsvWriter  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrataCsvWriter, strata_csv_writer_free)

G_END_DECLS
