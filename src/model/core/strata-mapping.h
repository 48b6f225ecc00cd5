/* strata-mapping.h: a ProGuard or R8 mapping.txt, for names a build shrank
 *
 * Only the classes a trace names are kept: the file is read once, as it
 * streams in, and the members of every other class are skipped.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _StrataMapping StrataMapping;

StrataMapping *strata_mapping_new_for_classes (GHashTable     *wanted);
gboolean       strata_mapping_read          (StrataMapping  *self,
                                             GInputStream   *stream,
                                             GCancellable   *cancellable,
                                             GError        **error);
gboolean       strata_mapping_read_file     (StrataMapping  *self,
                                             GFile          *file,
                                             GCancellable   *cancellable,
                                             GError        **error);
void           strata_mapping_free          (StrataMapping  *self);

guint          strata_mapping_get_n_classes (StrataMapping  *self);
guint64        strata_mapping_get_n_lines   (StrataMapping  *self);
guint64        strata_mapping_get_n_bad_lines (StrataMapping *self);
char          *strata_mapping_describe_bad_lines (StrataMapping *self);

const char    *strata_mapping_class         (StrataMapping  *self,
                                             const char     *obfuscated);
char          *strata_mapping_type          (StrataMapping  *self,
                                             const char     *type);
char          *strata_mapping_descriptor    (StrataMapping  *self,
                                             const char     *descriptor);
char          *strata_mapping_method        (StrataMapping  *self,
                                             const char     *obfuscated_class,
                                             const char     *obfuscated_name,
                                             const char     *descriptor,
                                             int             line);
gboolean       strata_mapping_has_method    (StrataMapping  *self,
                                             const char     *obfuscated_class,
                                             const char     *obfuscated_name,
                                             const char     *descriptor);
const char    *strata_mapping_source_file   (StrataMapping  *self,
                                             const char     *obfuscated_class);
const char    *strata_mapping_get_id        (StrataMapping  *self);
const char    *strata_mapping_get_hash      (StrataMapping  *self);
const char    *strata_mapping_field         (StrataMapping  *self,
                                             const char     *obfuscated_class,
                                             const char     *obfuscated_name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrataMapping, strata_mapping_free)

G_END_DECLS
