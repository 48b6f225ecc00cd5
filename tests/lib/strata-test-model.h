/* strata-test-model.h: traces the model tests make and read back
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-call-tree.h"
#include "strata-trace.h"

G_BEGIN_DECLS

/* Steps of each thread's script in strata_test_write_random_stacks(). */
#define STRATA_TEST_RANDOM_STEPS 120000


StrataTrace *strata_test_load_bytes         (GBytes                  *taken,
                                             const char              *name);
StrataTrace *strata_test_load_script        (const char              *script);
guint32      strata_test_method_named       (StrataTrace             *trace,
                                             char                     letter);
char        *strata_test_describe_tree      (StrataCallTree          *tree);
char        *strata_test_transformed        (StrataCallTree          *tree,
                                             StrataCallTransformKind  kind,
                                             guint32                  method,
                                             const char              *prefix);
StrataTrace *strata_test_write_random_stacks (guint                  n_methods,
                                              guint                  max_depth,
                                              GHashTable            *expected);
StrataTrace *strata_test_load_heap          (const char              *path);
StrataTrace *strata_test_load_heap_bytes    (GBytes                  *bytes,
                                             GError                 **error);
StrataTrace *strata_test_load_heap_corpus   (const char              *name);

G_END_DECLS
