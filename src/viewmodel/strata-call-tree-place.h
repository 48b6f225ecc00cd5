/* strata-call-tree-place.h: where the user is in a call tree's table
 *
 * The selected row's path, as codes (top down from the top, or bottom up
 * from where the time went; empty without a selection), the paths of the
 * rows open, and the path of the bar the flame graph is zoomed into.
 * Paths, not nodes, so that they find the rows and the bar again in a
 * tree made anew or reshaped by a transform.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-call-tree.h"

G_BEGIN_DECLS

/* Rows open that a place keeps: each is looked for when it is revealed. */
#define STRATA_CALL_TREE_PLACE_MAX_OPENED 256

typedef struct
{
  StrataCallTreeKind kind;
  GArray            *codes;    /* guint32 */
  GPtrArray         *opened;   /* GArray of guint32 codes each */
  GArray            *zoom;     /* guint32; empty: zoomed out */
} StrataCallTreePlace;

StrataCallTreePlace *strata_call_tree_place_new    (StrataCallTreeKind         kind);
StrataCallTreePlace *strata_call_tree_place_copy   (const StrataCallTreePlace *place);
void                 strata_call_tree_place_free   (StrataCallTreePlace       *place);
GArray              *strata_call_tree_path_codes   (StrataCallTree            *tree,
                                                    guint32                    node);
void                 strata_call_tree_place_follow (StrataCallTreePlace       *place,
                                                    StrataCallTree            *from,
                                                    const StrataCallTransform *transform,
                                                    StrataCallTree            *to);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrataCallTreePlace, strata_call_tree_place_free)

G_END_DECLS
