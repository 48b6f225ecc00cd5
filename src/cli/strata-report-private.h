/* strata-report-private.h: the parts of `strata -r` in other files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-call-tree.h"
#include "strata-comparison.h"
#include "strata-json-writer.h"
#include "strata-profile.h"
#include "strata-trace-mapping.h"
#include "strata-trace.h"

G_BEGIN_DECLS

/* A report being printed: the trace, its profile and what was asked. */
typedef struct
{
  StrataTrace      *trace;
  StrataProfile    *profile;
  guint             clock;
  guint             top;
  guint             heap_top;      /* objects that retain the most */
  const char       *mapping_path;  /* --mapping, or NULL */
  StrataTraceNames *names;         /* what it gave, or NULL */
} StrataReport;

gboolean strata_report_write_speedscope  (const StrataReport *report,
                                          GError            **error);
gboolean strata_report_print_json        (const StrataReport *report,
                                          GError            **error);
StrataTraceNames *strata_report_apply_mapping (StrataTrace  *trace,
                                               const char   *path,
                                               gboolean      strict,
                                               GError      **error);

void strata_report_print_dominators      (StrataTrace      *trace,
                                          guint             n);
void strata_report_write_json_dominators (StrataJsonWriter *json,
                                          StrataTrace      *trace,
                                          guint             n);

GThread *strata_report_start_paths      (StrataTrace      *trace);
void strata_report_print_suspects        (StrataTrace      *trace);
void strata_report_print_android         (StrataTrace      *trace);
void strata_report_print_frames          (StrataTrace      *trace);
void strata_report_print_user_notes      (StrataTrace      *trace);
void strata_report_write_json_user_notes (StrataJsonWriter *json,
                                         StrataTrace      *trace);
void strata_report_write_json_frames     (StrataJsonWriter *json,
                                          StrataTrace      *trace);
void strata_report_print_groups          (StrataTrace      *trace);
void strata_report_write_json_groups     (StrataJsonWriter *json,
                                          StrataTrace      *trace);
void strata_report_write_json_android    (StrataJsonWriter *json,
                                          StrataTrace      *trace);
void strata_report_write_json_suspects   (StrataJsonWriter *json,
                                          StrataTrace      *trace);

void strata_report_print_duplicates      (StrataTrace      *trace,
                                          guint             n);
void strata_report_write_json_duplicates (StrataJsonWriter *json,
                                          StrataTrace      *trace,
                                          guint             n);

const char *strata_report_clock_id       (StrataTrace      *trace,
                                          guint             clock);

gboolean strata_report_print_tree        (StrataCallTree   *tree,
                                          guint             clock,
                                          int               max_depth,
                                          GError          **error);
gboolean strata_report_write_json_tree   (StrataCallTree   *tree,
                                          guint             clock,
                                          int               max_depth,
                                          GError          **error);
gboolean strata_report_write_csv         (StrataTrace      *trace,
                                          StrataProfile    *profile,
                                          guint             clock,
                                          GError          **error);
gboolean strata_report_write_csv_tree    (StrataCallTree   *tree,
                                          GError          **error);
gboolean strata_report_write_folded      (StrataCallTree   *tree,
                                          guint             clock,
                                          int               max_depth,
                                          GError          **error);

typedef struct
{
  const char      *baseline;
  const char      *current;
  StrataMatchMode  match;
  gboolean         cpu;        /* thread CPU rather than the default, wall time */
  gboolean         json;
  gboolean         follow_weak;
  const char      *mapping;    /* the current file's build's mapping.txt; nullable */
  const char      *baseline_mapping; /* the baseline's; nullable */
  int              top;        /* rows to print; -1: 20 as text, all as JSON */
  GPtrArray       *rules;      /* StrataGateRule */
} StrataReportDiffOptions;

GPtrArray *strata_report_parse_rules     (char            **texts);
int        strata_report_diff            (const StrataReportDiffOptions *options);

G_END_DECLS
