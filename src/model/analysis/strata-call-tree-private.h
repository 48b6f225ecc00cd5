/* strata-call-tree-private.h: the call tree's arrays, for its builders
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>

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
  /* Bottom up: what each source node's path weighs, when it is not the
   * source's @own (the callers of a function: its outermost calls' totals). */
  gint64             *weight[STRATA_MAX_CLOCKS];
  GPtrArray          *synthetic;    /* names of collapsed runs ("java.*") */
};

StrataCallTree *strata_call_tree_new_blank (StrataTrace        *trace,
                                            StrataCallTreeKind  kind,
                                            guint               n_clocks);
void            strata_call_tree_fit       (StrataCallTree     *tree);
/* A node's code as an index: methods first, then collapsed runs, then
 * threads. */
static inline guint32
strata_call_tree_code_index (guint   n_methods,
                             guint   n_synthetic,
                             guint32 code)
{
  if ((code & THREAD_NODE) != 0)
    return n_methods + n_synthetic + (code & ~THREAD_NODE);
  if ((code & SYNTHETIC_NODE) != 0)
    return n_methods + (code & ~SYNTHETIC_NODE);
  return code;
}

/* Each code's kid among the children a node is being given, by index: a
 * table the size of the codes, emptied for the next node by a new stamp
 * rather than by clearing it. */
typedef struct
{
  guint32 *kid_of;
  guint32 *stamp_of;
  guint32  stamp;
  guint    n_codes;
} StrataKidTable;

static inline void
strata_kid_table_init (StrataKidTable *self,
                       guint           n_codes)
{
  self->kid_of = g_new (guint32, MAX (n_codes, 1));
  self->stamp_of = g_new0 (guint32, MAX (n_codes, 1));
  self->stamp = 0;
  self->n_codes = n_codes;
}

static inline void
strata_kid_table_clear (StrataKidTable *self)
{
  g_clear_pointer (&self->kid_of, g_free);
  g_clear_pointer (&self->stamp_of, g_free);
}

/* No code has a kid: the next node's children begin. */
static inline void
strata_kid_table_empty (StrataKidTable *self)
{
  if (++self->stamp == 0)
    {
      memset (self->stamp_of, 0, sizeof (guint32) * MAX (self->n_codes, 1));
      self->stamp = 1;
    }
}

/* The kid of @index; when it has none yet, @next becomes its kid, and
 * @added is set. */
static inline guint32
strata_kid_table_find (StrataKidTable *self,
                       guint32         index,
                       guint32         next,
                       gboolean       *added)
{
  *added = self->stamp_of[index] != self->stamp;
  if (*added)
    {
      self->stamp_of[index] = self->stamp;
      self->kid_of[index] = next;
    }
  return self->kid_of[index];
}

gboolean strata_call_tree_span_time (const StrataSpanTable    *table,
                                     guint                     depth,
                                     guint32                   index,
                                     const StrataProfileRange *range,
                                     gint64                   *time);
void     strata_call_tree_run_two   (GThreadFunc               func,
                                     gpointer                  first,
                                     gpointer                  second);
gboolean strata_call_tree_walk      (StrataCallTree           *tree,
                                     const guint8             *threads,
                                     gboolean                  by_thread,
                                     const StrataProfileRange *range,
                                     GCancellable             *cancellable,
                                     GError                  **error);

/* A top-down node whose self time a bottom-up node holds (@leaf), and
 * the top-down node at the bottom-up node's level of callers (@at). */
typedef struct
{
  guint32 leaf;
  guint32 at;
} StrataCallTreeEntry;

void strata_call_tree_open_node (StrataCallTree *self,
                                 guint32         node);

G_END_DECLS
