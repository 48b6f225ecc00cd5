/* strata-heap-graph.h: a heap dump's objects and references, and what
 * keeps what alive
 *
 * Objects are numbered 0..n-1 in the order of their ids. Everything per
 * object is a plain array; references are in compressed rows (the targets
 * of object i are targets[first[i]..first[i+1]]). Dominators are computed
 * from a virtual root whose children are the GC roots.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define STRATA_HEAP_NO_OBJECT G_MAXUINT32

/* Told how far strata_heap_graph_compute() is, from 0 to 1. */
typedef void (*StrataHeapGraphProgress) (gpointer data,
                                         double   fraction);

typedef struct _StrataHeapGraph StrataHeapGraph;

StrataHeapGraph *strata_heap_graph_new                 (guint32           n_objects,
                                                        guint64          *ids,
                                                        guint32          *classes);
guint32         *strata_heap_graph_peek_classes        (StrataHeapGraph  *self);
void             strata_heap_graph_set_shallow         (StrataHeapGraph  *self,
                                                        guint32           object,
                                                        guint64           bytes);
void             strata_heap_graph_free                (StrataHeapGraph  *self);
void             strata_heap_graph_set_references      (StrataHeapGraph  *self,
                                                        guint32          *first,
                                                        guint32          *targets);
void             strata_heap_graph_set_roots           (StrataHeapGraph  *self,
                                                        const guint32    *roots,
                                                        const guint8     *kinds,
                                                        guint32           n_roots);
int              strata_heap_graph_get_root_kind       (const StrataHeapGraph *self,
                                                        guint32           object);
void             strata_heap_graph_remap_classes       (StrataHeapGraph  *self,
                                                        const guint      *old_to_new);
gboolean         strata_heap_graph_compute            (StrataHeapGraph  *self,
                                                       GCancellable     *cancellable,
                                                       StrataHeapGraphProgress progress,
                                                       gpointer          progress_data);

guint32          strata_heap_graph_get_n_objects       (const StrataHeapGraph *self);
guint32          strata_heap_graph_lookup              (const StrataHeapGraph *self,
                                                        guint64           id);
guint64          strata_heap_graph_get_id              (const StrataHeapGraph *self,
                                                        guint32           object);
guint32          strata_heap_graph_get_class           (const StrataHeapGraph *self,
                                                        guint32           object);
guint64          strata_heap_graph_get_shallow         (const StrataHeapGraph *self,
                                                        guint32           object);
const guint32   *strata_heap_graph_get_references      (const StrataHeapGraph *self,
                                                        guint32           object,
                                                        guint32          *n_references);
const guint32   *strata_heap_graph_get_referrers       (const StrataHeapGraph *self,
                                                        guint32           object,
                                                        guint32          *n_referrers);
gboolean         strata_heap_graph_is_root             (const StrataHeapGraph *self,
                                                        guint32           object);
gboolean         strata_heap_graph_is_reachable        (const StrataHeapGraph *self,
                                                        guint32           object);
guint32          strata_heap_graph_get_dominator       (const StrataHeapGraph *self,
                                                        guint32           object);
const guint32   *strata_heap_graph_get_dominated       (const StrataHeapGraph *self,
                                                        guint32           object,
                                                        guint32          *n_dominated);
guint64          strata_heap_graph_get_retained        (const StrataHeapGraph *self,
                                                        guint32           object);
guint64          strata_heap_graph_get_reachable_bytes (const StrataHeapGraph *self);
guint32          strata_heap_graph_get_n_unreachable   (const StrataHeapGraph *self);
void             strata_heap_graph_release_pages       (const StrataHeapGraph *self,
                                                        guint32           from,
                                                        guint32           to);
void             strata_heap_graph_sum_by_groups       (const StrataHeapGraph *self,
                                                        const guint *const *group_of,
                                                        guint             n_maps,
                                                        guint             n_classes,
                                                        const guint      *n_groups,
                                                        int               heap,
                                                        guint64         **retained);
void             strata_heap_graph_sum_by_class        (const StrataHeapGraph *self,
                                                        guint             n_classes,
                                                        int               heap,
                                                        guint64          *retained);
void             strata_heap_graph_set_heap            (StrataHeapGraph  *self,
                                                        guint32           object,
                                                        guint8            heap);
guint8           strata_heap_graph_get_heap            (const StrataHeapGraph *self,
                                                        guint32           object);
guint32         *strata_heap_graph_top_retained        (const StrataHeapGraph *self,
                                                        guint32           n,
                                                        guint32          *n_found);
guint32         *strata_heap_graph_list_instances      (const StrataHeapGraph *self,
                                                        guint32           klass,
                                                        guint32          *n_found);
guint64          strata_heap_graph_retained_by_set     (const StrataHeapGraph *self,
                                                        const guint32    *objects,
                                                        guint32           n_objects,
                                                        guint64          *n_retained,
                                                        GCancellable     *cancellable);
void             strata_heap_graph_prepare_paths       (const StrataHeapGraph *self);
guint32         *strata_heap_graph_path_from_root      (const StrataHeapGraph *self,
                                                        guint32           object,
                                                        guint32          *n_steps);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrataHeapGraph, strata_heap_graph_free)

G_END_DECLS
