/* fuzz-loader.c: any bytes through sniffing, every loader and the profile
 *
 * Built as a libFuzzer target with -Dfuzzing=true (clang), and as a plain
 * program (fuzz-main.c) that replays seeds and mutations of them in tests.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>

#include "strata-heap.h"
#include "strata-heap-android-leaks.h"
#include "strata-heap-bitmaps.h"
#include "strata-heap-suspects.h"
#include "strata-loader.h"
#include "strata-palette.h"
#include "strata-profile.h"

int strata_fuzz_loader (const uint8_t *data,
                        size_t         size);
#ifndef STRATA_FUZZ_NO_ENTRY
int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);
#endif

static void
check_slice_ref (StrataTrace          *trace,
                 const StrataSliceRef *ref)
{
  const StrataThread *thread;

  g_assert (ref->thread < strata_trace_get_n_threads (trace));
  thread = strata_trace_get_thread (trace, ref->thread);
  g_assert (thread->spans != NULL && ref->depth < thread->spans->n_depths);
  g_assert (ref->index < thread->spans->n_spans[ref->depth]);
}

/* Events, flows and counters of Trace Event files point only at what exists. */
static void
touch_events (StrataTrace *trace)
{
  for (guint i = 0; i < strata_trace_get_n_events (trace); i++)
    {
      const StrataEvent *event = strata_trace_get_event (trace, i);

      g_assert (event->end >= event->start);
      g_assert (event->process < strata_trace_get_n_processes (trace));
      g_assert (event->thread == STRATA_NO_THREAD || event->thread < strata_trace_get_n_threads (trace));
      g_assert (i == 0 || strata_trace_get_event (trace, i - 1)->start <= event->start);
    }
  for (guint i = 0; i < strata_trace_get_n_flows (trace); i++)
    {
      check_slice_ref (trace, &strata_trace_get_flow (trace, i)->from);
      check_slice_ref (trace, &strata_trace_get_flow (trace, i)->to);
    }
  for (guint i = 0; i < strata_trace_get_n_counters (trace); i++)
    {
      const StrataCounter *counter = strata_trace_get_counter (trace, i);

      for (gsize k = 1; k < counter->n_samples; k++)
        g_assert (counter->times[k - 1] <= counter->times[k]);
    }
}

/* A heap dump's analyses read fields and arrays the dump says exist. */
static void
touch_heap (StrataTrace *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  g_autoptr(GArray) suspects = NULL, bitmaps = NULL;
  g_autoptr(GPtrArray) leaks = NULL;

  if (heap == NULL || strata_heap_get_graph (heap) == NULL)
    return;
  suspects = strata_heap_find_leak_suspects (trace);
  leaks = strata_heap_find_android_leaks (trace);
  for (guint i = 0; i < leaks->len; i++)
    g_free (strata_android_leak_describe (trace, g_ptr_array_index (leaks, i)));
  bitmaps = strata_heap_find_bitmaps (trace);
  for (guint i = 0; i < bitmaps->len; i++)
    {
      const StrataHeapBitmap *bitmap = &g_array_index (bitmaps, StrataHeapBitmap, i);
      gsize n = 0;
      const guint8 *data = strata_heap_bitmap_get_data (trace, bitmap, &n);

      if (data != NULL && bitmap->format != STRATA_BITMAP_PNG && bitmap->format != STRATA_BITMAP_JPEG &&
          bitmap->format != STRATA_BITMAP_WEBP)
        g_assert ((guint64) bitmap->stride * bitmap->height <= n);
    }
}

/* The second clock as the views read it: each depth in order, each call
 * within its caller, found by a search (with samples among trace
 * events, most places are made when first asked for). */
static void
check_second_clock (const StrataSpanTable *table)
{
  for (guint d = 0; table->n_clocks > 1 && d < table->n_depths; d++)
    {
      gint64 last_end = G_MININT64;
      guint32 caller = 0;

      for (guint32 i = 0; i < table->n_spans[d]; i++)
        {
          gint64 start = strata_span_table_get_start (table, 1, d, i);
          gint64 end = strata_span_table_get_end (table, 1, d, i);

          g_assert (start <= end && end >= last_end);
          last_end = end;
          if (d == 0)
            continue;
          while (caller + 1 < table->n_spans[d - 1] && table->calls[d - 1][caller + 1].first_child <= i)
            caller++;
          g_assert (start >= strata_span_table_get_start (table, 1, d - 1, caller));
          g_assert (end <= strata_span_table_get_end (table, 1, d - 1, caller));
        }
      g_assert (strata_span_table_search_clock (table, 1, d, G_MININT64) == 0);
    }
}

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
      check_second_clock (thread->spans);
    }
  for (guint32 m = 0; m < strata_trace_get_n_methods (trace); m++)
    g_assert (g_utf8_validate (strata_trace_get_method_name (trace, m), -1, NULL));
  touch_events (trace);
  touch_heap (trace);
  (void) colors;
}

/* Any bytes through sniffing and the loaders; the HPROF harnesses call
 * this after putting a header in front. */
int
strata_fuzz_loader (const uint8_t *data,
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

#ifndef STRATA_FUZZ_NO_ENTRY
int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  return strata_fuzz_loader (data, size);
}
#endif
