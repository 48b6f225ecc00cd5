/* strata-hprof-index.h: a binary heap dump kept readable after loading,
 * for the fields of any object and the names of references
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-heap-graph.h"

G_BEGIN_DECLS

/* strata-trace.h includes this header through strata-heap.h. */
typedef struct _StrataTrace StrataTrace;

/* HPROF's basic types. */
typedef enum
{
  STRATA_HEAP_TYPE_OBJECT = 2,
  STRATA_HEAP_TYPE_BOOLEAN = 4,
  STRATA_HEAP_TYPE_CHAR,
  STRATA_HEAP_TYPE_FLOAT,
  STRATA_HEAP_TYPE_DOUBLE,
  STRATA_HEAP_TYPE_BYTE,
  STRATA_HEAP_TYPE_SHORT,
  STRATA_HEAP_TYPE_INT,
  STRATA_HEAP_TYPE_LONG,
} StrataHeapType;

typedef struct
{
  const char     *name;      /* the field's name; valid as long as the trace */
  StrataHeapType  type;
  guint64         value;     /* an object id, or the bits of a primitive */
  gboolean        is_static;
  const char     *owner;     /* an instance field's class, NULL when not known */
} StrataHeapField;

typedef struct _StrataHprofIndex StrataHprofIndex;

void    strata_hprof_index_free            (StrataHprofIndex *self);
GArray *strata_hprof_index_get_fields      (StrataHprofIndex *self,
                                            StrataTrace      *trace,
                                            guint32           object);
char   *strata_hprof_index_name_reference  (StrataHprofIndex *self,
                                            StrataTrace      *trace,
                                            guint32           from,
                                            guint32           to);
const guint8 *strata_hprof_index_get_primitive_array (StrataHprofIndex *self,
                                                     guint32           object,
                                                     guint            *type,
                                                     guint32          *length);
guint   strata_heap_type_size              (guint             type);
const guint8 *strata_hprof_index_get_array (StrataHprofIndex *self,
                                            guint32           object,
                                            guint            *type,
                                            guint32          *length,
                                            guint            *element_size);
StrataHeapField strata_heap_array_element  (const guint8     *data,
                                            guint             type,
                                            guint             element_size,
                                            guint32           i);
gboolean strata_hprof_index_get_string_value (StrataHprofIndex *self,
                                              StrataTrace      *trace,
                                              guint32           object,
                                              const guint8    **data,
                                              guint32          *length,
                                              guint            *type,
                                              guint            *coder);
char   *strata_hprof_index_dup_string      (StrataHprofIndex *self,
                                            StrataTrace      *trace,
                                            guint32           object);
const char *strata_hprof_index_get_class_name (StrataHprofIndex *self,
                                               StrataTrace      *trace,
                                               guint64           id);
guint64 strata_hprof_index_get_class_loader (StrataHprofIndex *self,
                                             guint64           class_id);
guint   strata_hprof_index_get_class_chain (StrataHprofIndex *self,
                                            StrataTrace      *trace,
                                            guint32           object,
                                            const char      **names,
                                            guint             max);
char   *strata_heap_field_format_value     (const StrataHeapField *field);
const StrataHeapField *strata_heap_fields_find (GArray          *fields,
                                                const char      *owner,
                                                const char      *name);
void    strata_hprof_index_release_records (StrataHprofIndex *self,
                                            guint32           from,
                                            guint32           to);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrataHprofIndex, strata_hprof_index_free)

G_END_DECLS
