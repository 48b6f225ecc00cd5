/* strata-report-private.h: the parts of `strata -r` in other files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-json-writer.h"
#include "strata-trace.h"

G_BEGIN_DECLS

void strata_report_print_dominators      (StrataTrace      *trace,
                                          guint             n);
void strata_report_write_json_dominators (StrataJsonWriter *json,
                                          StrataTrace      *trace,
                                          guint             n);

void strata_report_print_suspects        (StrataTrace      *trace);
void strata_report_write_json_suspects   (StrataJsonWriter *json,
                                          StrataTrace      *trace);

void strata_report_print_duplicates      (StrataTrace      *trace,
                                          guint             n);
void strata_report_write_json_duplicates (StrataJsonWriter *json,
                                          StrataTrace      *trace,
                                          guint             n);

G_END_DECLS
