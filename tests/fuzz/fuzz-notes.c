/* fuzz-notes.c: any bytes as a store of notes, read as if written on a
 * file of the stamp it names, then drawn on both clocks of a trace
 *
 * Built as a libFuzzer target with -Dfuzzing=true (fuzz-notes), and as a
 * plain program (fuzz-main.c) that replays the stores in
 * tests/fuzz/notes and mutations of them in tests.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "strata-loader.h"
#include "strata-notes.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static const char trace_json[] =
  "[{\"ph\":\"X\",\"name\":\"work\",\"pid\":1,\"tid\":2,\"ts\":1,\"dur\":9,\"tts\":1,\"tdur\":5},"
  "{\"ph\":\"X\",\"name\":\"inner\",\"pid\":1,\"tid\":2,\"ts\":2,\"dur\":3,\"tts\":2,\"tdur\":1}]";

static StrataTrace *
fuzz_trace (void)
{
  static StrataTrace *trace;

  if (trace == NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_path ("/nonexistent/strata-fuzz/noted.json");
      g_autoptr(StrataLoader) loader = strata_loader_new (file);
      g_autoptr(GBytes) bytes = g_bytes_new_static (trace_json, strlen (trace_json));

      trace = strata_loader_load_bytes (loader, bytes, NULL, NULL);
      g_assert (trace != NULL);
    }
  return trace;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  /* The seeds' stamp: size 1, modified 2. */
  g_autoptr(GArray) notes = strata_notes_parse ((const char *) data, size, 1, 2, NULL);
  StrataTrace *trace = fuzz_trace ();

  for (guint i = 0; i < notes->len; i++)
    {
      const StrataNote *note = &g_array_index (notes, StrataNote, i);
      StrataSliceRef call;

      g_assert (note->start <= note->end);
      g_assert (g_utf8_validate (note->text, -1, NULL));
      g_assert (strlen (note->text) <= STRATA_NOTE_MAX_TEXT);
      if (strata_note_find_call (note, trace, &call))
        g_assert (call.depth == note->depth && call.index == note->index);
    }
  for (guint clock = 0; clock < strata_trace_get_n_clocks (trace); clock++)
    {
      g_autoptr(GArray) marks = strata_notes_marks (notes, trace, clock);

      for (guint i = 1; i < marks->len; i++)
        g_assert (g_array_index (marks, StrataNoteMark, i - 1).start <= g_array_index (marks, StrataNoteMark, i).start);
    }
  return 0;
}
