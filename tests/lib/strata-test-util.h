/* strata-test-util.h: helpers shared by the test programs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "strata-trace.h"

G_BEGIN_DECLS

char  *strata_test_corpus_path  (const char   *first_element,
                                 ...) G_GNUC_NULL_TERMINATED;
char  *strata_test_fixture_path (const char   *first_element,
                                 ...) G_GNUC_NULL_TERMINATED;
void   strata_test_skip_no_corpus (void);
char  *strata_test_write_file   (const char   *name,
                                 const void   *data,
                                 gsize         len);
char  *strata_test_make_tmpdir  (void);
GBytes *strata_test_gzip        (gconstpointer data,
                                 gsize         len);

/* Another program cutting a file short: strata_test_cut_later() starts a
 * thread that truncates @path to @size after 20 ms; join it with
 * strata_test_cut_join(), which returns when the cut came (monotonic µs). */
typedef struct _StrataTestCut StrataTestCut;
StrataTestCut *strata_test_cut_later (const char    *path,
                                      gsize          size);
gint64         strata_test_cut_join  (StrataTestCut *cut);
void   strata_test_fill_random  (guint8       *data,
                                 gsize         len,
                                 guint32       seed);

StrataTrace      *strata_test_load_path (const char         *path,
                                        GError            **error);
double            strata_test_assert_cancel_is_prompt (const char *path);
void              strata_test_assert_same_calls (const StrataSpanTable *x,
                                                 const StrataSpanTable *y,
                                                 guint                  depth);
StrataSpan        strata_test_span_at   (const StrataThread *thread,
                                        guint               depth,
                                        guint32             index);
void              strata_test_assert_span (StrataTrace        *trace,
                                          const StrataThread *thread,
                                          guint               depth,
                                          guint32             index,
                                          const char         *name,
                                          gint64              start,
                                          gint64              end);
guint32           strata_test_method_by_name (StrataTrace *trace,
                                              const char  *name);
const StrataThread *strata_test_thread_by_tid (StrataTrace *trace,
                                              gint64       tid);
const char       *strata_test_metadata       (StrataTrace *trace,
                                              const char  *key);
gboolean          strata_test_has_note       (StrataTrace *trace,
                                              const char  *part);
gboolean          strata_test_has_diagnostic (StrataTrace *trace,
                                              const char  *part);

G_END_DECLS
