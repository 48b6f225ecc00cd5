/* strata-gate-rule.h: a --fail-if rule, checked on each row of a comparison
 *
 * A rule is one or more conditions joined by "&", all of which must hold
 * for a row to break it:
 *
 *   FIGURE OP VALUE [:PATTERN]
 *
 * FIGURE is incl, excl or calls (profiles), instances, shallow or
 * retained (heap dumps). OP is > or <. A VALUE with a sign is a change
 * from the baseline: "+10%" (relative), "+5ms", "-1MB", "+100"; one
 * without a sign is the current value itself: "20MB", "1%" (of the
 * current total). Times take ns, us, ms or s; sizes B, KB, MB, GB (1000)
 * or KiB, MiB, GiB (1024); on a sampled clock times are sample counts.
 * PATTERN is a glob on the method or class name: "com.example.*".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-comparison.h"

G_BEGIN_DECLS

typedef struct _StrataGateRule StrataGateRule;

StrataGateRule *strata_gate_rule_parse       (const char        *text,
                                              GError           **error);
void            strata_gate_rule_free        (StrataGateRule    *self);
const char     *strata_gate_rule_get_text    (StrataGateRule    *self);
gboolean        strata_gate_rule_applies_to  (StrataGateRule    *self,
                                              StrataComparison  *comparison,
                                              guint              clock,
                                              GError           **error);
gboolean        strata_gate_rule_is_broken_by (StrataGateRule   *self,
                                              StrataComparison  *comparison,
                                              guint              clock,
                                              guint              row);
StrataFigure    strata_gate_rule_get_figure  (StrataGateRule    *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrataGateRule, strata_gate_rule_free)

G_END_DECLS
