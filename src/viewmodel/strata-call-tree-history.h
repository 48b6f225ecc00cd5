/* strata-call-tree-history.h: the call tree a session shows, and its transforms
 *
 * The tree follows the session: its trace, the profile's thread and, with
 * "Selected Range", the range; it is merged off the main thread. The
 * transforms applied (oldest first) and the tree before each are kept,
 * so the last one can be undone; bottom up, the last tree is inverted.
 * Where the user was before each transform is kept too, and a place
 * followed through a transform is handed back with "reveal". All of it
 * runs without a display.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-call-tree-place.h"
#include "strata-call-tree.h"

G_BEGIN_DECLS

#define STRATA_TYPE_CALL_TREE_HISTORY (strata_call_tree_history_get_type ())

G_DECLARE_FINAL_TYPE (StrataCallTreeHistory, strata_call_tree_history, STRATA, CALL_TREE_HISTORY, GObject)

/* Where the user is now (transfer full), or NULL: asked before a
 * transform and before the tree is merged anew. */
typedef StrataCallTreePlace *(*StrataCallTreePlaceFunc) (gpointer data);

typedef enum
{
  STRATA_CALL_TREE_EMPTY,      /* no trace, or one without calls */
  STRATA_CALL_TREE_MERGING,    /* the tree is being merged */
  STRATA_CALL_TREE_RESHAPING,  /* a transform or the inversion is being made */
  STRATA_CALL_TREE_READY,
} StrataCallTreeState;

StrataCallTreeHistory     *strata_call_tree_history_new            (void);
void                       strata_call_tree_history_merge          (StrataCallTreeHistory     *self,
                                                                    StrataTrace               *trace,
                                                                    int                        thread,
                                                                    const StrataProfileRange  *range);
void                       strata_call_tree_history_set_place_func (StrataCallTreeHistory     *self,
                                                                    StrataCallTreePlaceFunc    func,
                                                                    gpointer                   data);
void                       strata_call_tree_history_set_inverted   (StrataCallTreeHistory     *self,
                                                                    gboolean                   inverted);
gboolean                   strata_call_tree_history_get_inverted   (StrataCallTreeHistory     *self);
void                       strata_call_tree_history_apply          (StrataCallTreeHistory     *self,
                                                                    const StrataCallTransform *transform);
void                       strata_call_tree_history_pop            (StrataCallTreeHistory     *self);
StrataCallTreeState        strata_call_tree_history_get_state      (StrataCallTreeHistory     *self);
gboolean                   strata_call_tree_history_is_ready       (StrataCallTreeHistory     *self);
StrataCallTree            *strata_call_tree_history_get_tree       (StrataCallTreeHistory     *self);
StrataCallTree            *strata_call_tree_history_get_top_down   (StrataCallTreeHistory     *self);
int                        strata_call_tree_history_get_thread     (StrataCallTreeHistory     *self);
guint                      strata_call_tree_history_get_n_threads  (StrataCallTreeHistory     *self);
void                       strata_call_tree_history_merge_threads  (StrataCallTreeHistory     *self,
                                                                    StrataTrace               *trace,
                                                                    const guint               *threads,
                                                                    guint                      n_threads,
                                                                    const StrataProfileRange  *range);
const StrataCallTransform *strata_call_tree_history_get_transforms (StrataCallTreeHistory     *self,
                                                                    guint                     *n_transforms);
char                      *strata_call_tree_history_dup_description (StrataCallTreeHistory    *self);

G_END_DECLS
