/* strata-call-tree-follow.c: a path followed through a transform
 *
 * Where the user was in a tree (a selection, rows open, a zoom) is kept as
 * paths of codes; after a transform each path is taken to the node its
 * calls went to: a frame merged away, the same calls one level up.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include "strata-call-tree-reshape-private.h"

/* ---- Following a node ---- */

static gboolean
path_has (const guint32 *codes,
          guint          n,
          guint32        code)
{
  for (guint i = 0; i < n; i++)
    if (codes[i] == code)
      return TRUE;
  return FALSE;
}

/* @codes (a path's, @n of them) as @transform makes the path in @result;
 * returns how many are left. */
static guint
follow_codes (StrataCallTree            *self,
              const StrataCallTransform *transform,
              StrataCallTree            *result,
              guint32                   *codes,
              guint                      n)
{
  guint first = n, last = n, kept = 0;

  /* The top stays the top. */
  if (n == 0)
    return 0;
  for (guint i = 0; i < n; i++)
    if (codes[i] == transform->method)
      {
        first = first == n ? i : first;
        last = i;
      }
  switch (transform->kind)
    {
    case STRATA_CALL_TRANSFORM_MERGE_FUNCTION:
      for (guint i = 0; i < n; i++)
        if (codes[i] != transform->method)
          codes[kept++] = codes[i];
      return kept;
    case STRATA_CALL_TRANSFORM_DROP_FUNCTION:
      return first;   /* the caller of the call dropped */
    case STRATA_CALL_TRANSFORM_FOCUS_FUNCTION:
      if (first == n)
        {
          codes[0] = transform->method;
          return 1;
        }
      memmove (codes, codes + first, (n - first) * sizeof (guint32));
      return n - first;
    case STRATA_CALL_TRANSFORM_COLLAPSE_RECURSION:
      for (guint i = 0; i < n; i++)
        if (i <= first || i > last)
          codes[kept++] = codes[i];
      return kept;
    case STRATA_CALL_TRANSFORM_COLLAPSE_PREFIX:
      {
        guint32 collapsed = strata_reshape_find_synthetic (result, transform->prefix);
        gboolean in_run = FALSE;

        /* The path's own methods are matched, not the whole list. */
        for (guint i = 0; i < n; i++)
          {
            gboolean named = IS_METHOD (codes[i]) &&
                             strata_call_transform_in_group (self->trace, codes[i], transform->prefix);

            if (!named)
              codes[kept++] = codes[i];
            else if (collapsed == STRATA_CALL_TREE_NONE)
              return kept;
            else if (!in_run)
              codes[kept++] = collapsed;
            in_run = named;
          }
        return kept;
      }
    case STRATA_CALL_TRANSFORM_FOCUS_SUBTREE:
    default:
      {
        guint n_focus = 0;
        g_autofree guint32 *focus = transform->node < self->n_nodes ? strata_call_tree_dup_codes (self, transform->node, &n_focus) : NULL;
        gboolean under = n_focus > 0 && n_focus <= n && memcmp (focus, codes, n_focus * sizeof (guint32)) == 0;

        if (n_focus == 0)
          return 0;
        if (!under)
          {
            codes[0] = focus[n_focus - 1];
            return 1;
          }
        memmove (codes, codes + n_focus - 1, (n - n_focus + 1) * sizeof (guint32));
        return n - n_focus + 1;
      }
    }
}

static void
reverse_codes (guint32 *codes,
               guint    n)
{
  for (guint i = 0; i < n / 2; i++)
    {
      guint32 swap = codes[i];

      codes[i] = codes[n - 1 - i];
      codes[n - 1 - i] = swap;
    }
}

/**
 * strata_call_tree_follow_path:
 * @self: a top-down tree
 * @result: what @transform made of @self
 * @kind: how @codes run: top down, from the top of the tree (as
 *   strata_call_tree_dup_codes() gives them); bottom up, from where time
 *   was spent through its callers, maybe not up to the top
 * @codes: (inout): a path
 *
 * @codes made into the path @transform leads them to, in place: frames
 * merged or cut out of a recursion taken out, a focus's callers taken
 * off, runs of a prefix made one. Where calls are dropped, the path ends
 * before them. A path bottom up keeps what it cannot see above it.
 *
 * Returns: how many codes are left
 */
guint
strata_call_tree_follow_path (StrataCallTree            *self,
                              const StrataCallTransform *transform,
                              StrataCallTree            *result,
                              StrataCallTreeKind         kind,
                              guint32                   *codes,
                              guint                      n_codes)
{
  guint n;

  g_return_val_if_fail (STRATA_IS_CALL_TREE (self) && STRATA_IS_CALL_TREE (result), 0);
  g_return_val_if_fail (transform != NULL && (codes != NULL || n_codes == 0), 0);

  /* Bottom up, a path is the end of stacks, callers last, maybe not up to
   * the top. Stacks with a call dropped go whole: the path ends before
   * it, either way. */
  if (kind == STRATA_CALL_TREE_TOP_DOWN || transform->kind == STRATA_CALL_TRANSFORM_DROP_FUNCTION)
    return follow_codes (self, transform, result, codes, n_codes);
  /* A focus may be above what the path shows. */
  if (transform->kind == STRATA_CALL_TRANSFORM_FOCUS_SUBTREE ||
      (transform->kind == STRATA_CALL_TRANSFORM_FOCUS_FUNCTION && !path_has (codes, n_codes, transform->method)))
    return n_codes;
  /* Turned over, it is the stacks' ends top down. */
  reverse_codes (codes, n_codes);
  n = follow_codes (self, transform, result, codes, n_codes);
  reverse_codes (codes, n);
  return n;
}
