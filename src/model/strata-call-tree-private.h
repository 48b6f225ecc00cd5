/* strata-call-tree-private.h: the call tree's arrays, for its builders
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-call-tree.h"

G_BEGIN_DECLS

/* A thread's node (by_thread trees) has this bit set in its method; a
 * node standing for a run of collapsed frames this one, with the index
 * of its name in @synthetic. */
#define THREAD_NODE 0x80000000u
#define SYNTHETIC_NODE 0x40000000u
#define IS_METHOD(m) (((m) & (THREAD_NODE | SYNTHETIC_NODE)) == 0)
#define CANCEL_INTERVAL 65536
#define SHARED_MIN_NODES 16384   /* fewer are not shared out between two workers */

struct _StrataCallTree
{
  GObject             parent_instance;

  StrataTrace        *trace;
  StrataCallTreeKind  kind;
  guint               n_clocks;
  guint32             n_nodes;
  guint32            *parent;
  guint32            *method;       /* STRATA_CALL_TREE_NONE for the root */
  guint32            *first_child;  /* n + 1: children of i are first_child[i]..first_child[i + 1] */
  guint32            *calls;        /* saturating */
  gint64             *total[STRATA_MAX_CLOCKS];
  /* Bottom up, nodes are made as they are opened (the whole tree can
   * hold a hundred times the paths of the top-down one): */
  StrataCallTree     *source;       /* the top-down tree */
  guint32             n_alloc;
  guint32            *n_children;   /* STRATA_CALL_TREE_NONE until opened */
  guint32            *entry_first;  /* a node's (leaf, caller) pairs in @entries */
  guint32            *entry_count;
  GArray             *entries;      /* Entry */
  gint64             *own[STRATA_MAX_CLOCKS];  /* top down: each node's self, for the inversion */
  GPtrArray          *synthetic;    /* names of collapsed runs ("java.*") */
};

StrataCallTree *strata_call_tree_new_blank (StrataTrace        *trace,
                                            StrataCallTreeKind  kind,
                                            guint               n_clocks);
gboolean strata_call_tree_span_time (const StrataSpanTable    *table,
                                     guint                     depth,
                                     guint32                   index,
                                     const StrataProfileRange *range,
                                     gint64                   *time);
void     strata_call_tree_run_two   (GThreadFunc               func,
                                     gpointer                  first,
                                     gpointer                  second);
gboolean strata_call_tree_walk      (StrataCallTree           *tree,
                                     int                       thread,
                                     gboolean                  by_thread,
                                     const StrataProfileRange *range,
                                     GCancellable             *cancellable,
                                     GError                  **error);

G_END_DECLS
