/* fuzz-loader.c: any bytes through sniffing, every loader and the profile
 *
 * Built as a libFuzzer target with -Dfuzzing=true (clang), and as a plain
 * program (fuzz-main.c) that replays seeds and mutations of them in tests.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>

#include "strata-loader.h"
#include "strata-palette.h"
#include "strata-profile.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static void
touch_trace (StrataTrace *trace)
{
  g_autoptr(StrataProfile) profile = strata_profile_new (trace, -1, NULL, NULL);
  g_autofree guint8 *colors = strata_palette_assign (profile, 0);

  for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
    {
      const StrataThread *thread = strata_trace_get_thread (trace, t);

      if (thread->spans == NULL)
        continue;
      for (guint d = 0; d < thread->spans->n_depths; d++)
        {
          guint32 first, last;

          g_assert (thread->spans->n_spans[d] > 0);
          strata_span_table_get_children (thread->spans, d, 0, &first, &last);
          g_assert (first <= last);
          strata_span_table_search (thread->spans, d, strata_trace_get_start (trace));
        }
    }
  for (guint32 m = 0; m < strata_trace_get_n_methods (trace); m++)
    g_assert (g_utf8_validate (strata_trace_get_method_name (trace, m), -1, NULL));
  (void) colors;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static GFile *file;
  g_autoptr(StrataLoader) loader = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(GError) error = NULL;

  /* No sibling of a split trace exists here. */
  if (file == NULL)
    file = g_file_new_for_path ("/nonexistent/strata-fuzz/input.trace");

  loader = strata_loader_new (file);
  bytes = g_bytes_new_static (data, size);
  trace = strata_loader_load_bytes (loader, bytes, NULL, &error);
  if (trace != NULL)
    touch_trace (trace);
  else
    g_assert (error != NULL && error->message != NULL && *error->message != '\0');

  return 0;
}
