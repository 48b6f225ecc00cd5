/* strata-call-tree-place.c: where the user is in a call tree's table
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-call-tree-place.h"

static GArray *
codes_new (void)
{
  return g_array_new (FALSE, FALSE, sizeof (guint32));
}

/* An empty place: nothing selected, open or zoomed into. */
StrataCallTreePlace *
strata_call_tree_place_new (StrataCallTreeKind kind)
{
  StrataCallTreePlace *place = g_new0 (StrataCallTreePlace, 1);

  place->kind = kind;
  place->codes = codes_new ();
  place->zoom = codes_new ();
  place->opened = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  return place;
}

StrataCallTreePlace *
strata_call_tree_place_copy (const StrataCallTreePlace *place)
{
  StrataCallTreePlace *copy;

  g_return_val_if_fail (place != NULL, NULL);

  copy = g_new0 (StrataCallTreePlace, 1);
  copy->kind = place->kind;
  copy->codes = g_array_copy (place->codes);
  copy->zoom = g_array_copy (place->zoom);
  copy->opened = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  for (guint i = 0; i < place->opened->len; i++)
    g_ptr_array_add (copy->opened, g_array_copy (g_ptr_array_index (place->opened, i)));
  return copy;
}

void
strata_call_tree_place_free (StrataCallTreePlace *place)
{
  if (place == NULL)
    return;
  g_array_unref (place->codes);
  g_ptr_array_unref (place->opened);
  g_array_unref (place->zoom);
  g_free (place);
}

/* The path of @node of @tree, as codes. */
GArray *
strata_call_tree_path_codes (StrataCallTree *tree,
                             guint32         node)
{
  guint n_codes;
  g_autofree guint32 *codes = strata_call_tree_dup_codes (tree, node, &n_codes);
  GArray *array = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n_codes);

  g_array_append_vals (array, codes, n_codes);
  return array;
}

static void
follow_codes (StrataCallTree            *from,
              const StrataCallTransform *transform,
              StrataCallTree            *to,
              StrataCallTreeKind         kind,
              GArray                    *codes)
{
  g_array_set_size (codes, strata_call_tree_follow_path (from, transform, to, kind, (guint32 *) codes->data, codes->len));
}

/* @place moved to where @transform leads its paths from @from in @to:
 * a frame merged away, the same calls one level up. */
void
strata_call_tree_place_follow (StrataCallTreePlace       *place,
                               StrataCallTree            *from,
                               const StrataCallTransform *transform,
                               StrataCallTree            *to)
{
  g_return_if_fail (place != NULL);

  follow_codes (from, transform, to, place->kind, place->codes);
  follow_codes (from, transform, to, place->kind, place->zoom);
  for (guint k = 0; k < place->opened->len; k++)
    follow_codes (from, transform, to, place->kind, g_ptr_array_index (place->opened, k));
}
