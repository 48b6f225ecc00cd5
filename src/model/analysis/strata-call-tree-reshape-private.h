/* strata-call-tree-reshape-private.h: the state of a tree being reshaped
 *
 * Shared by the parts of a transform: strata-call-tree-transform.c makes
 * the result level by level, strata-call-tree-leaving.c finds the time
 * that leaves a subtree (calls dropped, recursion collapsed) and names
 * collapsed runs, strata-call-tree-follow.c follows a path through a
 * transform.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-call-tree-private.h"

G_BEGIN_DECLS


#define NO_NODE G_MAXUINT32

/* What a node of the tree becomes under the node of the result that its
 * parent feeds. */
typedef enum
{
  FATE_CHILD,         /* a child, by its code */
  FATE_MERGED,        /* part of the node, its calls not counted */
  FATE_NONE,          /* nothing here: dropped, or taken by an outer frame */
} Fate;

/* A child being made: its feeders' figures, and how many they are. */
typedef struct
{
  gint64  total[STRATA_MAX_CLOCKS];
  guint64 calls;
  guint32 code;
  guint32 n_feeders;
} Kid;

/* A node of the tree and the child it feeds (its place among its
 * parent's kids). */
typedef struct
{
  guint32 node;
  guint32 kid;
} Feed;

/* The feeders of a level's nodes, grouped by node. */
typedef struct
{
  guint32 *feeders;
  guint32 *start;      /* per node, and one past the last */
  guint32  n_nodes;
  gsize    n_feeders;
  gsize    feeders_alloc;
  gsize    start_alloc;
} Level;

/* A call of the method whose recursion collapses, under another call
 * of it: the outermost of those calls takes it up. */
typedef struct
{
  guint32 outermost;
  guint32 node;
} Inner;

typedef struct _Reshape Reshape;

/* A worker's part of a level: the nodes @first to @last sorted out,
 * their kids and feeds kept in turn, then placed. */
typedef struct
{
  /* Each worker's own cache lines: the two are written at once. */
  _Alignas (128) Reshape *reshape;
  guint32                 first;
  guint32                 last;
  StrataKidTable          kid_of;        /* by code index */
  Kid                    *kids;          /* each node's, in turn */
  gsize                   n_kids;
  gsize                   kids_alloc;
  gsize                   segment;       /* where the node's kids begin */
  Feed                   *feeds;         /* each node's, in turn; kids counted from its segment */
  gsize                   n_feeds;
  gsize                   feeds_alloc;
  guint32                *node_kids;     /* per node, and one past: its first kid */
  guint32                *node_feeds;    /* per node, and one past: its first feed */
  guint32                *copied;        /* per node: its one feeder, whose children it copies; or NO_NODE */
  guint8                 *whole;         /* per node copying: every child is copied */
  gsize                   n_copied;      /* the kids those give */
  gsize                   node_kids_alloc;
  gsize                   node_feeds_alloc;
  gsize                   copied_alloc;
  gsize                   whole_alloc;
  guint32                *open;          /* feeders whose children are still to sort out */
  gsize                   open_alloc;
  guint32                *place;
  guint32                *rank;          /* a node's kids, largest first */
  guint32                 node_base;
  guint32                 feeder_base;
  gboolean                cancelled;
} Sorter;

struct _Reshape
{
  StrataCallTree            *source;
  StrataCallTree            *result;
  const StrataCallTransform *transform;
  GCancellable              *cancellable;
  guint32                    collapsed;    /* COLLAPSE_PREFIX: the code of the runs */
  guint8                    *prefixed;     /* COLLAPSE_PREFIX: the methods the prefix names */
  /* COLLAPSE_RECURSION: */
  guint8                    *under;        /* per node: it or a node above it calls the method */
  Inner                     *inner;        /* the calls of the method under another, by outermost call */
  gsize                      n_inner;
  /* DROP_FUNCTION, COLLAPSE_RECURSION: */
  guint64                   *has_leaving;  /* a bit per node: time leaves its subtree */
  gint64                    *leaving[STRATA_MAX_CLOCKS];  /* how much, where the bit is set */
  gboolean                   all_leaving;  /* every node's is in @leaving */
  guint                      n_methods;
  guint                      n_synthetic;
  guint                      n_buckets;
  guint                      n_workers;
  Sorter                     sorters[2];
  Level                      level;
  Level                      next;
  guint32                    level_first;  /* the level's first node */
  guint32                    next_first;   /* the next level's */
};


guint32      strata_reshape_find_synthetic (const StrataCallTree *tree,
                                           const char           *prefix);
guint8      *strata_reshape_match_prefix   (StrataTrace          *trace,
                                           const char           *prefix);
guint32      strata_reshape_synthetic_code (StrataCallTree       *tree,
                                           const char           *prefix);
void         strata_reshape_find_leaving   (Reshape              *reshape);
const Inner *strata_reshape_inner_calls    (const Reshape        *reshape,
                                           guint32               node,
                                           gsize                *n_inner);

/* Whether @code (a node's method field) is a method @matches marks. */
static inline gboolean
strata_reshape_has_prefix (const guint8 *matches,
            guint32       code)
{
  return IS_METHOD (code) && matches[code];
}

static inline gboolean
strata_reshape_is_call_of (const Reshape *reshape,
            guint32        node)
{
  return reshape->source->method[node] == reshape->transform->method;
}

/* Whether @node is a call of the method under another (RECURSION). */
static inline gboolean
strata_reshape_is_inner (const Reshape *reshape,
          guint32        parent,
          guint32        node)
{
  return reshape->under[parent] && strata_reshape_is_call_of (reshape, node);
}

static inline gboolean
strata_reshape_has_leaving (const Reshape *reshape,
             guint32        node)
{
  return reshape->all_leaving || (reshape->has_leaving[node / 64] & (G_GUINT64_CONSTANT (1) << (node % 64))) != 0;
}

/* The time of @node's subtree that stays with it. */
static inline gint64
strata_reshape_staying (const Reshape *reshape,
         guint32        node,
         guint          clock)
{
  gint64 total = reshape->source->total[clock][node];

  if (reshape->has_leaving == NULL || !strata_reshape_has_leaving (reshape, node))
    return total;
  return total - reshape->leaving[clock][node];
}

G_END_DECLS
