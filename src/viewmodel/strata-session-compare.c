/* strata-session-compare.c: the session's trace against a baseline
 *
 * Compare With: the baseline's whole profile, compared with this trace's
 * own once it is ready; the baseline's methods take the colours of the
 * methods they match here.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-palette.h"
#include "strata-session-private.h"

/* A baseline method takes the colour of the method of the same name here,
 * so both timelines speak alike; one only the baseline has gets its own. */
static guint8 *
match_baseline_colors (StrataSession *self)
{
  StrataTrace *baseline = strata_profile_get_trace (self->baseline);
  guint8 *colors = strata_palette_assign (self->baseline, 0);

  for (guint32 m = 0; m < strata_trace_get_n_methods (baseline); m++)
    {
      guint row = strata_comparison_find_row (self->comparison, STRATA_SIDE_BASELINE, m);
      guint32 current = row == STRATA_COMPARISON_ABSENT ? STRATA_COMPARISON_ABSENT
                        : strata_comparison_get_row (self->comparison, row)->index[STRATA_SIDE_CURRENT];

      if (current != STRATA_COMPARISON_ABSENT)
        colors[m] = self->colors[current];
    }
  return colors;
}

/* strata_session_set_baseline() checked that the two compare. */
void
strata_session_compare_with_baseline (StrataSession *self)
{
  g_clear_object (&self->comparison);
  g_clear_pointer (&self->baseline_colors, g_free);
  if (self->baseline != NULL && self->profile != NULL)
    {
      self->comparison = strata_comparison_new (self->baseline, self->profile, self->match, NULL);
      if (self->comparison != NULL && strata_comparison_get_kind (self->comparison) == STRATA_COMPARISON_PROFILE)
        self->baseline_colors = match_baseline_colors (self);
    }
  g_object_notify (G_OBJECT (self), "comparison");
}

/**
 * strata_session_set_baseline:
 * @baseline: (nullable): the whole profile of the file to compare with,
 *   or %NULL to stop comparing
 *
 * The trace on show is compared with @baseline as soon as its own profile
 * is ready; "comparison" says when.
 *
 * Returns: %FALSE with @error set when the two cannot be compared (a
 *   heap dump and a method trace, no clock in common)
 */
gboolean
strata_session_set_baseline (StrataSession  *self,
                             StrataProfile  *baseline,
                             GError        **error)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), FALSE);
  g_return_val_if_fail (!baseline || STRATA_IS_PROFILE (baseline), FALSE);

  if (baseline != NULL && (self->trace == NULL ||
                           !strata_comparison_check (strata_profile_get_trace (baseline), self->trace, error)))
    return FALSE;
  g_set_object (&self->baseline, baseline);
  strata_session_compare_with_baseline (self);
  return TRUE;
}

/**
 * strata_session_get_baseline:
 *
 * Returns: (transfer none) (nullable): the trace compared with, if any
 */
StrataTrace *
strata_session_get_baseline (StrataSession *self)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), NULL);

  return self->baseline != NULL ? strata_profile_get_trace (self->baseline) : NULL;
}

/**
 * strata_session_get_comparison:
 *
 * Returns: (transfer none) (nullable): the trace against its baseline
 */
StrataComparison *
strata_session_get_comparison (StrataSession *self)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), NULL);

  return self->comparison;
}

/**
 * strata_session_get_baseline_colors:
 *
 * Returns: (nullable): a palette index per method of the baseline trace,
 *   the same as this trace's for methods of the same name
 */
const guint8 *
strata_session_get_baseline_colors (StrataSession *self)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), NULL);

  return self->baseline_colors;
}

StrataMatchMode
strata_session_get_match (StrataSession *self)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), STRATA_MATCH_SIGNATURE);

  return self->match;
}

/* Methods matched by full signature, or by name with overloads summed. */
void
strata_session_set_match (StrataSession   *self,
                          StrataMatchMode  match)
{
  g_return_if_fail (STRATA_IS_SESSION (self));

  if (self->match == match)
    return;
  self->match = match;
  strata_session_compare_with_baseline (self);
}
