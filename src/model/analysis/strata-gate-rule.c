/* strata-gate-rule.c: a --fail-if rule, checked on each row of a comparison
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "strata-gate-rule.h"

#define NS_PER_SAMPLE 1000000   /* a sample is drawn and summed as 1 ms */

typedef enum
{
  VALUE_CHANGE,          /* +5ms: the delta */
  VALUE_RELATIVE,        /* +10%: the delta over the baseline */
  VALUE_LEVEL,           /* 5ms: the current value */
  VALUE_SHARE,           /* 1%: the current value over the current total */
} ValueKind;

typedef enum
{
  GIVEN_NUMBER,
  GIVEN_TIME,
  GIVEN_BYTES,
} GivenUnit;

typedef struct
{
  StrataFigure  figure;
  gboolean      above;      /* > rather than < */
  ValueKind     kind;
  GivenUnit     unit;
  double        threshold;  /* a fraction for relative and share, else ns, bytes or a count */
  GPatternSpec *pattern;    /* NULL: every row */
} Condition;

struct _StrataGateRule
{
  char   *text;
  GArray *conditions;
};

typedef struct
{
  const char *suffix;
  GivenUnit   unit;
  double      scale;
} UnitSuffix;

/* Longest first, so "ms" is not read as "s". */
static const UnitSuffix unit_suffixes[] = {
  { "KiB", GIVEN_BYTES, 1024.0 },
  { "MiB", GIVEN_BYTES, 1024.0 * 1024 },
  { "GiB", GIVEN_BYTES, 1024.0 * 1024 * 1024 },
  { "KB", GIVEN_BYTES, 1e3 },
  { "kB", GIVEN_BYTES, 1e3 },
  { "MB", GIVEN_BYTES, 1e6 },
  { "GB", GIVEN_BYTES, 1e9 },
  { "ns", GIVEN_TIME, 1 },
  { "us", GIVEN_TIME, 1e3 },
  { "µs", GIVEN_TIME, 1e3 },
  { "ms", GIVEN_TIME, 1e6 },
  { "B", GIVEN_BYTES, 1 },
  { "s", GIVEN_TIME, 1e9 },
};

static void
clear_condition (gpointer data)
{
  Condition *condition = data;

  g_clear_pointer (&condition->pattern, g_pattern_spec_free);
}

void
strata_gate_rule_free (StrataGateRule *self)
{
  if (self == NULL)
    return;
  g_free (self->text);
  g_array_unref (self->conditions);
  g_free (self);
}

static gboolean
parse_unit (const char *text,
            Condition  *condition,
            double     *scale)
{
  *scale = 1;
  if (*text == '\0')
    {
      condition->unit = GIVEN_NUMBER;
      return TRUE;
    }
  if (g_str_equal (text, "%"))
    {
      condition->kind = condition->kind == VALUE_CHANGE ? VALUE_RELATIVE : VALUE_SHARE;
      condition->unit = GIVEN_NUMBER;
      *scale = 0.01;
      return TRUE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (unit_suffixes); i++)
    if (g_str_equal (text, unit_suffixes[i].suffix))
      {
        condition->unit = unit_suffixes[i].unit;
        *scale = unit_suffixes[i].scale;
        return TRUE;
      }
  return FALSE;
}

static gboolean
parse_value (const char *text,
             Condition  *condition)
{
  char *end;
  double number, scale;

  condition->kind = (*text == '+' || *text == '-') ? VALUE_CHANGE : VALUE_LEVEL;
  number = g_ascii_strtod (text, &end);
  if (end == text || !isfinite (number) || !parse_unit (end, condition, &scale))
    return FALSE;
  condition->threshold = number * scale;
  return TRUE;
}

static gboolean
parse_condition (const char  *text,
                 const char  *rule,
                 Condition   *condition,
                 GError     **error)
{
  g_autofree char *copy = g_strstrip (g_strdup (text));
  char *op = strpbrk (copy, "<>");
  char *colon;

  if (op == NULL)
    goto bad;
  condition->above = *op == '>';
  *op = '\0';
  if ((colon = strchr (op + 1, ':')) != NULL)
    {
      *colon = '\0';
      condition->pattern = g_pattern_spec_new (g_strstrip (colon + 1));
    }
  if (!strata_figure_from_id (g_strstrip (copy), &condition->figure) ||
      !parse_value (g_strstrip (op + 1), condition))
    goto bad;
  return TRUE;

bad:
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               _("cannot read the rule “%s”: write FIGURE>VALUE[:PATTERN], e.g. “incl>+10%%” or “retained>+20MB:com.example.*”"),
               rule);
  return FALSE;
}

/**
 * strata_gate_rule_parse:
 *
 * Returns: (transfer full): the rule, or %NULL with @error set
 */
StrataGateRule *
strata_gate_rule_parse (const char  *text,
                        GError     **error)
{
  g_autoptr(StrataGateRule) self = NULL;
  g_auto(GStrv) parts = NULL;

  g_return_val_if_fail (text != NULL, NULL);

  /* Patterns are matched as UTF-8, as names are kept. */
  if (!g_utf8_validate (text, -1, NULL))
    {
      g_autofree char *shown = g_utf8_make_valid (text, -1);

      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("the rule “%s” is not UTF-8 text"), shown);
      return NULL;
    }
  self = g_new0 (StrataGateRule, 1);
  /* "" splits into no parts at all, and is as unreadable as "&". */
  parts = g_strsplit (*text != '\0' ? text : "&", "&", -1);
  self->text = g_strdup (text);
  self->conditions = g_array_new (FALSE, TRUE, sizeof (Condition));
  g_array_set_clear_func (self->conditions, clear_condition);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      Condition condition = { 0 };

      if (!parse_condition (parts[i], text, &condition, error))
        {
          clear_condition (&condition);
          return NULL;
        }
      g_array_append_val (self->conditions, condition);
    }
  return g_steal_pointer (&self);
}

const char *
strata_gate_rule_get_text (StrataGateRule *self)
{
  return self->text;
}

/* The figure its rows are listed by: the first condition's. */
StrataFigure
strata_gate_rule_get_figure (StrataGateRule *self)
{
  return g_array_index (self->conditions, Condition, 0).figure;
}

static gboolean
is_sampled (StrataComparison *comparison,
            guint             clock)
{
  StrataTrace *trace = strata_comparison_get_trace (comparison, STRATA_SIDE_CURRENT);

  return strata_comparison_get_n_clocks (comparison) > 0 &&
         strata_trace_get_clock_kind (trace, strata_comparison_get_clock (comparison, STRATA_SIDE_CURRENT, clock)) ==
           STRATA_CLOCK_SAMPLES;
}

static gboolean
unit_fits (const Condition *condition,
           gboolean         sampled)
{
  StrataFigureUnit unit = strata_figure_get_unit (condition->figure);

  if (condition->kind == VALUE_RELATIVE || condition->kind == VALUE_SHARE)
    return TRUE;
  switch (unit)
    {
    case STRATA_UNIT_TIME:
      return sampled ? condition->unit == GIVEN_NUMBER : condition->unit == GIVEN_TIME;
    case STRATA_UNIT_BYTES:
      return condition->unit == GIVEN_BYTES || condition->unit == GIVEN_NUMBER;
    case STRATA_UNIT_COUNT:
    default:
      return condition->unit == GIVEN_NUMBER;
    }
}

static char *
describe_unit_misfit (const char   *rule,
                      StrataFigure  figure,
                      gboolean      sampled)
{
  const char *id = strata_figure_get_id (figure);

  switch (sampled ? STRATA_UNIT_COUNT : strata_figure_get_unit (figure))
    {
    case STRATA_UNIT_TIME:
      return g_strdup_printf (_("the rule “%s”: “%s” is a time; give it in ns, us, ms or s, or as a %%"), rule, id);
    case STRATA_UNIT_BYTES:
      return g_strdup_printf (_("the rule “%s”: “%s” is a size; give it in B, KB, MB, GB, KiB, MiB or GiB, or as a %%"), rule, id);
    case STRATA_UNIT_COUNT:
    default:
      return g_strdup_printf (sampled && strata_figure_get_unit (figure) == STRATA_UNIT_TIME
                                ? _("the rule “%s”: “%s” counts samples on this clock; give a plain number, or a %%")
                                : _("the rule “%s”: “%s” is a count; give a plain number, or a %%"),
                              rule, id);
    }
}

/**
 * strata_gate_rule_applies_to:
 *
 * Returns: whether every figure of the rule is in @comparison, with a
 *   unit that fits it; %FALSE with @error saying what does not
 */
gboolean
strata_gate_rule_applies_to (StrataGateRule    *self,
                             StrataComparison  *comparison,
                             guint              clock,
                             GError           **error)
{
  gboolean sampled = is_sampled (comparison, clock);

  for (guint i = 0; i < self->conditions->len; i++)
    {
      const Condition *condition = &g_array_index (self->conditions, Condition, i);
      const char *id = strata_figure_get_id (condition->figure);

      if (!strata_comparison_has_figure (comparison, condition->figure))
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("the rule “%s” asks for “%s”, which these files do not have"), self->text, id);
          return FALSE;
        }
      if (!unit_fits (condition, sampled))
        {
          g_autofree char *message = describe_unit_misfit (self->text, condition->figure, sampled);

          g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, message);
          return FALSE;
        }
    }
  return TRUE;
}

static double
measure (const Condition  *condition,
         StrataComparison *comparison,
         guint             clock,
         guint             row,
         gboolean          sampled)
{
  StrataFigure figure = condition->figure;
  gint64 after = strata_comparison_get_value (comparison, row, STRATA_SIDE_CURRENT, figure, clock);
  gint64 total = strata_comparison_get_total (comparison, STRATA_SIDE_CURRENT, figure, clock);
  double scale = sampled && strata_figure_get_unit (figure) == STRATA_UNIT_TIME ? NS_PER_SAMPLE : 1;

  switch (condition->kind)
    {
    case VALUE_RELATIVE:
      return strata_comparison_get_change (comparison, row, figure, clock);
    case VALUE_SHARE:
      return total > 0 ? (double) after / (double) total : NAN;
    case VALUE_LEVEL:
      return after / scale;
    case VALUE_CHANGE:
    default:
      return strata_comparison_get_delta (comparison, row, figure, clock) / scale;
    }
}

static gboolean
holds (const Condition  *condition,
       StrataComparison *comparison,
       guint             clock,
       guint             row,
       gboolean          sampled)
{
  const StrataComparisonRow *item = strata_comparison_get_row (comparison, row);
  double value;

  if (condition->pattern != NULL && !g_pattern_spec_match_string (condition->pattern, item->name))
    return FALSE;
  value = measure (condition, comparison, clock, row, sampled);
  if (isnan (value))
    return FALSE;
  return condition->above ? value > condition->threshold : value < condition->threshold;
}

/* A row missing from the baseline grew without bound: it breaks any
 * relative growth rule it matches, so a new hot method is never let by. */
gboolean
strata_gate_rule_is_broken_by (StrataGateRule   *self,
                               StrataComparison *comparison,
                               guint             clock,
                               guint             row)
{
  gboolean sampled = is_sampled (comparison, clock);

  for (guint i = 0; i < self->conditions->len; i++)
    if (!holds (&g_array_index (self->conditions, Condition, i), comparison, clock, row, sampled))
      return FALSE;
  return TRUE;
}
