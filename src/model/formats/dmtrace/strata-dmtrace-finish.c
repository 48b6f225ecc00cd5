/* strata-dmtrace-finish.c: after the passes: methods the key does not name, and what was repaired
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-dmtrace-private.h"
#include "strata-error.h"

/* ---- Diagnostics ---- */


void
dmtrace_report_diagnostics (DmtraceLoader *self)
{
  dmtrace_v2_report_diagnostics (self);
  if (self->overflow)
    strata_trace_add_diagnostic (self->trace,
                                 _("The recording buffer overflowed (data-file-overflow=true): calls after that point are missing."));
  if (self->truncated)
    {
      g_autofree char *at = g_strdup_printf ("%'" G_GSIZE_FORMAT, self->truncated_at);
      g_autofree char *bytes = g_strdup_printf ("%'" G_GSIZE_FORMAT, self->truncated_bytes);

      /* Translators: both %s are numbers of bytes */
      strata_trace_add_diagnosticf (self->trace,
                                    _("The trace is cut mid-record at byte %s of its data; the last %s bytes were ignored."),
                                    at, bytes);
    }
  if (self->zero_tail_bytes > 0)
    {
      g_autofree char *at = g_strdup_printf ("%'" G_GSIZE_FORMAT, self->zero_tail_at);
      g_autofree char *bytes = g_strdup_printf ("%'" G_GSIZE_FORMAT, self->zero_tail_bytes);

      /* Translators: both %s are numbers of bytes */
      strata_trace_add_diagnosticf (self->trace,
                                    _("From byte %s of its data on, the trace holds only zero bytes (%s of them): no records were written there, and the trace ends where they start."),
                                    at, bytes);
    }
  strata_trace_add_count_diagnostic (self->trace, self->n_unknown_method_calls,
                                    ngettext ("%s call to a method id missing from the key is shown as “unknown method”.",
                                              "%s calls to method ids missing from the key are shown as “unknown method”.",
                                              self->n_unknown_method_calls));
  /* Tracing starts inside running methods and stops inside others: in
   * every trace, said quietly (the Summary, the report's notes). */
  strata_trace_add_count_note (self->trace, self->n_unmatched_exits,
                                    ngettext ("%s exit without a matching entry (a method running when tracing began) was given an entry at its thread’s first timestamp.",
                                              "%s exits without a matching entry (methods running when tracing began) were given an entry at their thread’s first timestamp.",
                                              self->n_unmatched_exits));
  strata_trace_add_count_diagnostic (self->trace, self->n_mismatched_exits,
                                    ngettext ("%s exit did not match the innermost call; the calls above it were closed with it.",
                                              "%s exits did not match the innermost call; the calls above them were closed with them.",
                                              self->n_mismatched_exits));
  strata_trace_add_count_note (self->trace, self->n_open_at_end,
                                    ngettext ("%s call still running when tracing stopped was closed at its thread’s last timestamp.",
                                              "%s calls still running when tracing stopped were closed at their thread’s last timestamp.",
                                              self->n_open_at_end));
  strata_trace_add_count_diagnostic (self->trace, self->n_unknown_threads,
                                    ngettext ("%s thread missing from the key is named by its id.",
                                              "%s threads missing from the key are named by their ids.",
                                              self->n_unknown_threads));
  strata_trace_add_count_diagnostic (self->trace, self->n_bad_actions,
                                    ngettext ("%s record with an invalid action was skipped.",
                                              "%s records with an invalid action were skipped.",
                                              self->n_bad_actions));
  strata_trace_add_count_diagnostic (self->trace, self->n_backwards,
                                    ngettext ("%s timestamp went backwards and was held at the previous one.",
                                              "%s timestamps went backwards and were held at the previous one.",
                                              self->n_backwards));
  strata_trace_add_count_diagnostic (self->trace, self->n_wraps,
                                    ngettext ("%s wrap of the 32-bit microsecond clock was undone.",
                                              "%s wraps of the 32-bit microsecond clock were undone.",
                                              self->n_wraps));
  strata_trace_add_count_diagnostic (self->trace, self->n_bad_key_lines,
                                    ngettext ("%s line of the key could not be read and was skipped.",
                                              "%s lines of the key could not be read and were skipped.",
                                              self->n_bad_key_lines));
  strata_trace_add_count_diagnostic (self->trace, self->n_duplicate_methods,
                                    ngettext ("%s method id appears twice in the key; the first line was kept.",
                                              "%s method ids appear twice in the key; the first lines were kept.",
                                              self->n_duplicate_methods));
}

void
dmtrace_describe_format (DmtraceLoader *self)
{
  const char *clock_names[] = { "thread-cpu", "thread-cpu", "wall", "dual" };
  g_autofree char *detail = NULL;

  detail = g_strdup_printf ("%s v%u, %s, %s clock%s%s",
                            self->v2_ticks ? "ART format V2 (timestamp counter variant)" : self->v2 ? "ART format V2" : "dmtrace",
                            self->version,
                            self->streaming ? "streaming" : "regular",
                            clock_names[self->clock],
                            self->vm ? ", " : "", self->vm ? self->vm : "");
  strata_trace_set_format_detail (self->trace, detail);
}


/* ---- Methods the key does not name ---- */


static int
compare_by_first_pos (gconstpointer a,
                      gconstpointer b)
{
  const DmtraceUnknown *x = a;
  const DmtraceUnknown *y = b;

  if (x->first_pos != y->first_pos)
    return x->first_pos < y->first_pos ? -1 : 1;
  return x->raw < y->raw ? -1 : x->raw > y->raw;
}

static guint32
add_unknown_method (DmtraceLoader *self,
                    guint32        raw)
{
  /* Translators: a call whose exit was seen but not its entry, in a
   * trace whose exits do not name their method */
  g_autofree char *name = raw == DMTRACE_INNERMOST ? g_strdup (_("(a call running when tracing began)"))
                                                   : g_strdup_printf (_("unknown method 0x%x"), raw);
  StrataMethod method = { .raw_id = raw, .line = -1 };
  guint32 index;

  method.name = strata_string_pool_intern (strata_trace_get_pool (self->trace), name);
  method.display_name = method.name;
  index = strata_trace_add_method (self->trace, &method);
  strata_id_map_insert (&self->method_ids, raw, index);
  return index;
}

static void
patch_unknown_calls (DmtraceThread *state,
                     const guint32 *index_of_local)
{
  StrataSpanTable *table = state->table;

  for (guint d = 0; table != NULL && d < table->n_depths; d++)
    for (guint32 i = 0; i < table->n_spans[d]; i++)
      if (table->calls[d][i].method & UNKNOWN_METHOD_BIT)
        table->calls[d][i].method = index_of_local[table->calls[d][i].method & ~UNKNOWN_METHOD_BIT];
}

/* Ids missing from the key become "unknown method 0x…" methods, in the
 * order the file first uses them (whichever thread did), and the calls
 * that held a thread's own number for them get the method. */
void
dmtrace_add_unknown_methods (DmtraceLoader *self)
{
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (DmtraceUnknown));

  for (guint i = 0; i < self->threads->len; i++)
    {
      DmtraceThread *state = &g_array_index (self->threads, DmtraceThread, i);

      if (state->unknown_first != NULL)
        g_array_append_vals (all, state->unknown_first->data, state->unknown_first->len);
    }
  if (all->len == 0)
    return;

  g_array_sort (all, compare_by_first_pos);
  for (guint i = 0; i < all->len; i++)
    {
      guint32 raw = g_array_index (all, DmtraceUnknown, i).raw;

      if (strata_id_map_lookup (&self->method_ids, raw) == STRATA_ID_MAP_MISSING)
        add_unknown_method (self, raw);
    }

  for (guint i = 0; i < self->threads->len; i++)
    {
      DmtraceThread *state = &g_array_index (self->threads, DmtraceThread, i);
      g_autofree guint32 *index_of_local = NULL;

      if (state->unknown_first == NULL)
        continue;
      index_of_local = g_new (guint32, state->unknown_first->len);
      for (guint k = 0; k < state->unknown_first->len; k++)
        index_of_local[k] = strata_id_map_lookup (&self->method_ids,
                                                  g_array_index (state->unknown_first, DmtraceUnknown, k).raw);
      patch_unknown_calls (state, index_of_local);
    }
}

void
dmtrace_sum_thread_diagnostics (DmtraceLoader *self)
{
  for (guint i = 0; i < self->threads->len; i++)
    {
      const DmtraceThread *state = &g_array_index (self->threads, DmtraceThread, i);

      self->n_wraps += state->n_wraps;
      self->n_backwards += state->n_backwards;
      self->n_unknown_method_calls += state->n_unknown_calls;
    }
}
