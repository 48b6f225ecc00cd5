/* strata-call-tree.h: calls merged along their whole call paths
 *
 * The top-down tree has a node per distinct call path (the methods from
 * the bottom of a thread's stack down to a call), with the time of every
 * call on that path summed on each clock and their number. The
 * bottom-up tree turns it over: its roots are the methods where time was
 * spent in themselves, their children the callers, and so on.
 *
 * Nodes are numbered 0 (the root, no method) to n - 1, breadth first;
 * the children of a node are consecutive and sorted by total time on the
 * first clock, largest first.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-profile.h"
#include "strata-trace.h"

G_BEGIN_DECLS

#define STRATA_CALL_TREE_ROOT 0
#define STRATA_CALL_TREE_NONE G_MAXUINT32

typedef enum
{
  STRATA_CALL_TREE_TOP_DOWN,
  STRATA_CALL_TREE_BOTTOM_UP,
} StrataCallTreeKind;

/* Ways to reshape a top-down tree, as Firefox Profiler's transforms. */
typedef enum
{
  STRATA_CALL_TRANSFORM_FOCUS_FUNCTION,   /* paths from each first call of @method on */
  STRATA_CALL_TRANSFORM_FOCUS_SUBTREE,    /* paths under @node only, from it */
  STRATA_CALL_TRANSFORM_MERGE_FUNCTION,   /* @method's frames gone, its time its caller's */
  STRATA_CALL_TRANSFORM_COLLAPSE_RECURSION, /* @method within @method: one frame */
  STRATA_CALL_TRANSFORM_COLLAPSE_PREFIX,  /* runs of frames in group @prefix: one frame */
  STRATA_CALL_TRANSFORM_DROP_FUNCTION,    /* calls of @method and what they called gone */
} StrataCallTransformKind;

typedef struct
{
  StrataCallTransformKind kind;
  guint32                 method;   /* the function, for the kinds about one */
  guint32                 node;     /* FOCUS_SUBTREE: in the tree transformed */
  const char             *prefix;   /* COLLAPSE_PREFIX, such as "java." or "lodash"
                                     * (strata_call_transform_dup_group()) */
  guint32                *codes;    /* FOCUS_SUBTREE, to find @node again in a tree merged
                                     * anew (strata_call_tree_dup_codes()); the keeper's */
  guint                   n_codes;
} StrataCallTransform;

#define STRATA_TYPE_CALL_TREE (strata_call_tree_get_type ())

G_DECLARE_FINAL_TYPE (StrataCallTree, strata_call_tree, STRATA, CALL_TREE, GObject)

StrataCallTree     *strata_call_tree_new            (StrataTrace              *trace,
                                                     int                       thread,
                                                     gboolean                  by_thread,
                                                     const StrataProfileRange *range,
                                                     GCancellable             *cancellable,
                                                     GError                  **error);
StrataCallTree     *strata_call_tree_new_for_threads (StrataTrace             *trace,
                                                     const guint              *threads,
                                                     guint                     n_threads,
                                                     gboolean                  by_thread,
                                                     const StrataProfileRange *range,
                                                     GCancellable             *cancellable,
                                                     GError                  **error);
StrataCallTree     *strata_call_tree_transform      (StrataCallTree           *self,
                                                     const StrataCallTransform *transform,
                                                     GCancellable             *cancellable,
                                                     GError                  **error);
StrataCallTransform strata_call_transform_copy     (const StrataCallTransform *transform);
void                strata_call_transform_clear     (gpointer                  transform);
char               *strata_call_transform_describe  (StrataCallTree           *tree,
                                                     const StrataCallTransform *transform);
char               *strata_call_transform_dup_group (StrataTrace              *trace,
                                                     guint32                   method);
gboolean            strata_call_transform_in_group  (StrataTrace              *trace,
                                                     guint32                   method,
                                                     const char               *prefix);
StrataCallTree     *strata_call_tree_invert         (StrataCallTree           *self,
                                                     GCancellable             *cancellable,
                                                     GError                  **error);
StrataCallTree     *strata_call_tree_callers_of     (StrataCallTree           *self,
                                                     guint32                   code,
                                                     GCancellable             *cancellable,
                                                     GError                  **error);
StrataTrace        *strata_call_tree_get_trace      (StrataCallTree           *self);
StrataCallTreeKind  strata_call_tree_get_kind       (StrataCallTree           *self);
guint               strata_call_tree_get_n_clocks   (StrataCallTree           *self);
guint32             strata_call_tree_get_n_nodes    (StrataCallTree           *self);
gsize               strata_call_tree_get_size       (StrataCallTree           *self);
guint32             strata_call_tree_get_parent     (StrataCallTree           *self,
                                                     guint32                   node);
guint32             strata_call_tree_get_method     (StrataCallTree           *self,
                                                     guint32                   node);
guint32             strata_call_tree_get_code       (StrataCallTree           *self,
                                                     guint32                   node);
int                 strata_call_tree_get_thread     (StrataCallTree           *self,
                                                     guint32                   node);
guint32             strata_call_tree_get_first_child (StrataCallTree          *self,
                                                     guint32                   node);
guint32             strata_call_tree_get_n_children (StrataCallTree           *self,
                                                     guint32                   node);
guint32            *strata_call_tree_order_children (StrataCallTree           *self,
                                                     guint32                   node,
                                                     guint                     clock,
                                                     guint32                  *n_children);
gint64              strata_call_tree_get_total      (StrataCallTree           *self,
                                                     guint32                   node,
                                                     guint                     clock);
gint64              strata_call_tree_get_self       (StrataCallTree           *self,
                                                     guint32                   node,
                                                     guint                     clock);
guint64             strata_call_tree_get_calls      (StrataCallTree           *self,
                                                     guint32                   node);
guint               strata_call_tree_get_depth      (StrataCallTree           *self,
                                                     guint32                   node);
guint               strata_call_tree_get_depth_below (StrataCallTree          *self,
                                                     guint32                   node);
char               *strata_call_tree_dup_name       (StrataCallTree           *self,
                                                     guint32                   node);
guint32             strata_call_tree_find_call      (StrataCallTree           *self,
                                                     const StrataSliceRef     *call);
guint32            *strata_call_tree_dup_codes      (StrataCallTree           *self,
                                                     guint32                   node,
                                                     guint                    *n_codes);
guint32             strata_call_tree_find_codes     (StrataCallTree           *self,
                                                     const guint32            *codes,
                                                     guint                     n_codes);
guint               strata_call_tree_follow_path    (StrataCallTree           *self,
                                                     const StrataCallTransform *transform,
                                                     StrataCallTree           *result,
                                                     StrataCallTreeKind        kind,
                                                     guint32                  *codes,
                                                     guint                     n_codes);
char               *strata_call_tree_dup_path       (StrataCallTree           *self,
                                                     guint32                   node,
                                                     const char               *separator);
char               *strata_call_tree_dup_display_path (StrataCallTree         *self,
                                                     guint32                   node,
                                                     const char               *separator);

G_END_DECLS
