/* strata-json-writer.h: JSON written as it is produced
 *
 * A report of a large trace holds millions of objects; building them as a
 * tree first costs many times the trace's own memory. The writer keeps
 * only a stack of open containers and a buffer, escapes each string once
 * on its way out and writes integers exactly.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _StrataJsonWriter StrataJsonWriter;

StrataJsonWriter *strata_json_writer_new          (GOutputStream     *stream,
                                                   guint              pretty_depth);
StrataJsonWriter *strata_json_writer_new_inside   (GOutputStream          *stream,
                                                   const StrataJsonWriter *outer,
                                                   gboolean                continues);
void              strata_json_writer_splice       (StrataJsonWriter  *self,
                                                   GBytes            *items);
gboolean          strata_json_writer_finish       (StrataJsonWriter  *self,
                                                   GError           **error);
void              strata_json_writer_free         (StrataJsonWriter  *self);

void              strata_json_writer_begin_object (StrataJsonWriter  *self);
void              strata_json_writer_end_object   (StrataJsonWriter  *self);
void              strata_json_writer_begin_array  (StrataJsonWriter  *self);
void              strata_json_writer_end_array    (StrataJsonWriter  *self);
void              strata_json_writer_member       (StrataJsonWriter  *self,
                                                   const char        *name);
void              strata_json_writer_string       (StrataJsonWriter  *self,
                                                   const char        *value);
void              strata_json_writer_int          (StrataJsonWriter  *self,
                                                   gint64             value);
void              strata_json_writer_uint         (StrataJsonWriter  *self,
                                                   guint64            value);
void              strata_json_writer_null         (StrataJsonWriter  *self);
void              strata_json_writer_boolean      (StrataJsonWriter  *self,
                                                   gboolean           value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrataJsonWriter, strata_json_writer_free)

G_END_DECLS
