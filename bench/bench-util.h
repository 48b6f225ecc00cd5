/* bench-util.h: what the benchmarks share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "strata-profile.h"

G_BEGIN_DECLS

gboolean strata_bench_ensure_trace    (const char    *generator,
                                       const char    *path,
                                       guint64        n_records,
                                       guint          n_methods);
gboolean strata_bench_ensure_shaped_trace (const char *generator,
                                           const char *shape,
                                           const char *path,
                                           guint64     n_records,
                                           guint       n_methods);
int      strata_bench_compare_doubles (gconstpointer  a,
                                       gconstpointer  b);

double       strata_bench_median          (double         *values,
                                           guint           n);
double       strata_bench_seconds_since   (gint64          start);
StrataTrace *strata_bench_load_and_profile (const char     *path,
                                           StrataProfile **profile,
                                           double         *load_s,
                                           double         *profile_s);

double       strata_bench_time_report     (const char     *strata,
                                           const char     *format,
                                           const char     *path,
                                           double         *peak_mib);
gboolean     strata_bench_time_reports    (const char     *strata,
                                           const char     *format,
                                           const char     *path,
                                           guint           n_runs,
                                           double         *median_s,
                                           double         *min_s,
                                           double         *peak_mib);

G_END_DECLS
