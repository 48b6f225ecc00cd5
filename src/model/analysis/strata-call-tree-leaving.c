/* strata-call-tree-leaving.c: what a transform takes out of a subtree
 *
 * Calls dropped, and calls of a collapsed recursion taken up by the
 * outermost call, take their time out of the subtrees above them: this
 * finds where and how much, and names the runs a collapsed prefix makes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include "strata-call-tree-reshape-private.h"
#include "strata-memory.h"

/* ---- Prefixes and recursion ---- */

/* For each method, whether it is in @prefix's group: decided once, not
 * for each of the nodes that name it. */
guint8 *
strata_reshape_match_prefix (StrataTrace *trace,
                             const char  *prefix)
{
  guint n = strata_trace_get_n_methods (trace);
  guint8 *matches = g_new0 (guint8, MAX (n, 1));

  for (guint m = 0; m < n; m++)
    matches[m] = strata_call_transform_in_group (trace, m, prefix);
  return matches;
}

/* "…/node_modules/@scope/name/lib/x.js": "@scope/name". */
static char *
node_package (const char *url)
{
  const char *marker = "node_modules/";
  const char *at = NULL, *next, *end;

  for (next = strstr (url, marker); next != NULL; next = strstr (next + 1, marker))
    at = next;
  if (at == NULL)
    return NULL;
  at += strlen (marker);
  end = strchr (at, '/');
  if (*at == '@' && end != NULL)
    end = strchr (end + 1, '/');
  if (end == NULL || end == at)
    return NULL;
  return g_strndup (at, end - at);
}

/**
 * strata_call_transform_dup_group:
 *
 * Returns: (transfer full) (nullable): the group Collapse Package puts
 *   @method in: a JavaScript function's node package, or else its
 *   script's URL; a Java method's package ("java.util."); %NULL for a
 *   method in none
 */
char *
strata_call_transform_dup_group (StrataTrace *trace,
                                 guint32      method)
{
  const StrataMethod *m = strata_trace_get_method (trace, method);
  const char *class_name = strata_trace_get_string (trace, m->class_name);
  const char *source = strata_trace_get_string (trace, m->source_file);
  const char *dot;

  if (g_str_equal (class_name, "JavaScript"))
    {
      char *package = *source != '\0' ? node_package (source) : NULL;

      return package != NULL ? package : *source != '\0' ? g_strdup (source) : NULL;
    }
  if (*class_name == '\0')
    return NULL;
  dot = strrchr (class_name, '.');
  return dot != NULL ? g_strndup (class_name, dot - class_name + 1) : g_strconcat (class_name, ".", NULL);
}

/**
 * strata_call_transform_in_group:
 *
 * Whether Collapse Package with @prefix takes @method: a JavaScript
 * function whose group is @prefix, or another method whose name starts
 * with it.
 */
gboolean
strata_call_transform_in_group (StrataTrace *trace,
                                guint32      method,
                                const char  *prefix)
{
  const StrataMethod *m = strata_trace_get_method (trace, method);

  if (g_str_equal (strata_trace_get_string (trace, m->class_name), "JavaScript"))
    {
      g_autofree char *group = strata_call_transform_dup_group (trace, method);

      return group != NULL && g_str_equal (group, prefix);
    }
  return g_str_has_prefix (strata_trace_get_method_name (trace, method), prefix);
}


/* The code of the synthetic name "@prefix*" in @tree, or
 * STRATA_CALL_TREE_NONE. */
guint32
strata_reshape_find_synthetic (const StrataCallTree *tree,
                               const char           *prefix)
{
  g_autofree char *name = g_strconcat (prefix, "*", NULL);

  for (guint i = 0; tree->synthetic != NULL && i < tree->synthetic->len; i++)
    if (g_str_equal (g_ptr_array_index (tree->synthetic, i), name))
      return SYNTHETIC_NODE | i;
  return STRATA_CALL_TREE_NONE;
}

/* The synthetic name "@prefix*" in @tree, added once. */
guint32
strata_reshape_synthetic_code (StrataCallTree *tree,
                               const char     *prefix)
{
  guint32 code = strata_reshape_find_synthetic (tree, prefix);

  if (code != STRATA_CALL_TREE_NONE)
    return code;
  if (tree->synthetic == NULL)
    tree->synthetic = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (tree->synthetic, g_strconcat (prefix, "*", NULL));
  return SYNTHETIC_NODE | (tree->synthetic->len - 1);
}

/* ---- Time leaving a subtree ----
 *
 * Under DROP_FUNCTION, the calls dropped take their time out of every
 * caller above them; under COLLAPSE_RECURSION, an inner call takes its
 * time out of the frames between it and the call of the method above it,
 * that call included, and feeds the outermost call's node itself. */



/* Whether @node's subtree leaves where it is. */
static inline gboolean
leaves (const Reshape *reshape,
        guint32        node)
{
  if (reshape->under != NULL)
    return strata_reshape_is_inner (reshape, reshape->source->parent[node], node);
  return strata_reshape_is_call_of (reshape, node);
}

/* Whether time leaving below @node stops there: a call of the method
 * (under RECURSION, an inner call gives its time to the nearest call
 * above it; under DROP, a call dropped within one dropped goes with
 * it), or the root. */
static inline gboolean
stops_leaving (const Reshape *reshape,
               guint32        node)
{
  return node == STRATA_CALL_TREE_ROOT || strata_reshape_is_call_of (reshape, node);
}


/* Every node's leaving time summed from its children's, children first:
 * one pass over the whole tree. */
static void
sum_leaving (Reshape *reshape)
{
  const StrataCallTree *source = reshape->source;

  for (guint c = 0; c < source->n_clocks; c++)
    memset (reshape->leaving[c], 0, sizeof (gint64) * source->n_nodes);
  for (guint32 v = source->n_nodes; v-- > 1;)
    {
      gboolean gone = leaves (reshape, v);

      if (!gone && stops_leaving (reshape, v))
        continue;
      for (guint c = 0; c < source->n_clocks; c++)
        reshape->leaving[c][source->parent[v]] += gone ? source->total[c][v] : reshape->leaving[c][v];
    }
  reshape->all_leaving = TRUE;
}

/* The nodes that leave: the calls of the method (DROP), or the inner
 * ones (RECURSION), found while marking what is under a call. */
static guint32 *
find_leavers (Reshape *reshape,
              gsize   *n_leavers)
{
  const StrataCallTree *source = reshape->source;
  guint32 *leavers = NULL;
  gsize n = 0, n_alloc = 0;

  if (reshape->under != NULL)
    reshape->under[STRATA_CALL_TREE_ROOT] = FALSE;
  for (guint32 v = 1; v < source->n_nodes; v++)
    {
      gboolean here = strata_reshape_is_call_of (reshape, v), gone = here;

      if (reshape->under != NULL)
        {
          gone = here && reshape->under[source->parent[v]];
          reshape->under[v] = here || reshape->under[source->parent[v]];
        }
      if (gone)
        {
          leavers = strata_memory_reserve_large (leavers, n, n + 1, &n_alloc, sizeof (guint32));
          leavers[n++] = v;
        }
    }
  *n_leavers = n;
  return leavers;
}

/* The first of the @n inner calls whose node (or, @by_outermost, whose
 * outermost call) is @key or after it, in their order by that. */
static gsize
first_inner (const Inner *inner,
             gsize        n,
             guint32      key,
             gboolean     by_outermost)
{
  gsize lo = 0, hi = n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if ((by_outermost ? inner[mid].outermost : inner[mid].node) < key)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Each inner call's outermost call: that of the call of the method it
 * gives its time to, found among the inner calls before it (breadth
 * first, a call above comes before), or that call itself. */
static guint32
outermost_of (const Reshape *reshape,
              guint32        above,
              gsize          n_found)
{
  if (!reshape->under[reshape->source->parent[above]])
    return above;
  return reshape->inner[first_inner (reshape->inner, n_found, above, FALSE)].outermost;
}

/* Each inner call's outermost call found from the top, with a node's
 * for every node: when walking up from each inner call costs too much. */
static void
find_outermost_all (Reshape *reshape)
{
  const StrataCallTree *source = reshape->source;
  g_autofree guint32 *outermost = strata_memory_new_large (MAX (source->n_nodes, 1), sizeof (guint32));

  outermost[STRATA_CALL_TREE_ROOT] = NO_NODE;
  for (guint32 v = 1; v < source->n_nodes; v++)
    {
      guint32 above = outermost[source->parent[v]];

      outermost[v] = above != NO_NODE ? above : strata_reshape_is_call_of (reshape, v) ? v : NO_NODE;
    }
  for (gsize i = 0; i < reshape->n_inner; i++)
    reshape->inner[i].outermost = outermost[source->parent[reshape->inner[i].node]];
}

static int
compare_inner (gconstpointer a,
               gconstpointer b)
{
  const Inner *x = a, *y = b;

  if (x->outermost != y->outermost)
    return x->outermost < y->outermost ? -1 : 1;
  return x->node < y->node ? -1 : x->node > y->node;
}

/* Each node's time leaving its subtree (and under RECURSION each inner
 * call's outermost call). Each call that leaves adds its time to the
 * frames above it, up to where leaving stops; those walks are short
 * where the method is rare, as it mostly is. Past as many steps as
 * there are nodes, passes over the whole tree do it instead. */
void
strata_reshape_find_leaving (Reshape *reshape)
{
  const StrataCallTree *source = reshape->source;
  gsize n = MAX (source->n_nodes, 1), n_leavers;
  g_autofree guint32 *leavers = NULL;
  guint64 steps = 0;

  reshape->has_leaving = g_new0 (guint64, n / 64 + 1);
  for (guint c = 0; c < source->n_clocks; c++)
    reshape->leaving[c] = g_new0 (gint64, n);
  if (reshape->transform->kind == STRATA_CALL_TRANSFORM_COLLAPSE_RECURSION)
    reshape->under = g_new (guint8, n);
  leavers = find_leavers (reshape, &n_leavers);
  if (reshape->under != NULL)
    reshape->inner = g_new (Inner, MAX (n_leavers, 1));
  for (gsize i = 0; i < n_leavers && steps <= source->n_nodes; i++)
    {
      guint32 v = leavers[i], up = v;

      do
        {
          up = source->parent[up];
          reshape->has_leaving[up / 64] |= G_GUINT64_CONSTANT (1) << (up % 64);
          for (guint c = 0; c < source->n_clocks; c++)
            reshape->leaving[c][up] += source->total[c][v];
          steps++;
        }
      while (!stops_leaving (reshape, up));
      if (reshape->under != NULL)
        {
          guint32 outermost = outermost_of (reshape, up, reshape->n_inner);

          reshape->inner[reshape->n_inner++] = (Inner) { outermost, v };
        }
    }
  if (steps > source->n_nodes)
    {
      sum_leaving (reshape);
      if (reshape->under != NULL)
        {
          for (gsize i = 0; i < n_leavers; i++)
            reshape->inner[i].node = leavers[i];
          reshape->n_inner = n_leavers;
          find_outermost_all (reshape);
        }
    }
  if (reshape->inner != NULL)
    qsort (reshape->inner, reshape->n_inner, sizeof (Inner), compare_inner);
}


/* The inner calls @node, an outermost call, takes up: @n_inner of them. */
const Inner *
strata_reshape_inner_calls (const Reshape *reshape,
                            guint32        node,
                            gsize         *n_inner)
{
  gsize first = first_inner (reshape->inner, reshape->n_inner, node, TRUE), lo = first;

  while (lo < reshape->n_inner && reshape->inner[lo].outermost == node)
    lo++;
  *n_inner = lo - first;
  return reshape->inner + first;
}
