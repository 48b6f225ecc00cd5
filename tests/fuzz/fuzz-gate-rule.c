/* fuzz-gate-rule.c: any bytes as a --fail-if rule, read and checked on
 * every row of a small comparison
 *
 * Built as a libFuzzer target with -Dfuzzing=true (fuzz-gate-rule), and
 * as a plain program (fuzz-main.c) that replays the rules in
 * tests/fuzz/rules and mutations of them in tests.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "strata-gate-rule.h"
#include "strata-loader.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

#define MAX_RULE 4096

static const char baseline_json[] =
  "{\"traceEvents\":[{\"name\":\"main\",\"ph\":\"X\",\"ts\":0,\"dur\":1000,\"pid\":1,\"tid\":1},"
  "{\"name\":\"work\",\"ph\":\"X\",\"ts\":10,\"dur\":100,\"pid\":1,\"tid\":1},"
  "{\"name\":\"load\",\"ph\":\"X\",\"ts\":400,\"dur\":20,\"pid\":1,\"tid\":1}]}";
static const char current_json[] =
  "{\"traceEvents\":[{\"name\":\"main\",\"ph\":\"X\",\"ts\":0,\"dur\":1000,\"pid\":1,\"tid\":1},"
  "{\"name\":\"work\",\"ph\":\"X\",\"ts\":10,\"dur\":150,\"pid\":1,\"tid\":1},"
  "{\"name\":\"parse\",\"ph\":\"X\",\"ts\":400,\"dur\":20,\"pid\":1,\"tid\":1}]}";

static StrataProfile *
profile_of (const char *json)
{
  g_autoptr(GFile) file = g_file_new_for_path ("fuzz.json");
  g_autoptr(StrataLoader) loader = strata_loader_new (file);
  g_autoptr(GBytes) bytes = g_bytes_new_static (json, strlen (json));
  g_autoptr(StrataTrace) trace = strata_loader_load_bytes (loader, bytes, NULL, NULL);

  g_assert (trace != NULL);
  return strata_profile_new (trace, -1, NULL, NULL);
}

static StrataComparison *
comparison_once (void)
{
  static StrataComparison *comparison;

  if (comparison == NULL)
    {
      g_autoptr(StrataProfile) baseline = profile_of (baseline_json);
      g_autoptr(StrataProfile) current = profile_of (current_json);

      comparison = strata_comparison_new (baseline, current, STRATA_MATCH_SIGNATURE, NULL);
      g_assert (comparison != NULL);
    }
  return comparison;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  StrataComparison *comparison = comparison_once ();
  /* Empty input may come as NULL. */
  g_autofree char *text = size > 0 ? g_strndup ((const char *) data, MIN (size, MAX_RULE)) : g_strdup ("");
  g_autoptr(StrataGateRule) rule = strata_gate_rule_parse (text, NULL);

  if (rule == NULL || !strata_gate_rule_applies_to (rule, comparison, 0, NULL))
    return 0;
  g_assert (strata_gate_rule_get_figure (rule) < STRATA_N_FIGURES);
  for (guint r = 0; r < strata_comparison_get_n_rows (comparison); r++)
    (void) strata_gate_rule_is_broken_by (rule, comparison, 0, r);
  return 0;
}
