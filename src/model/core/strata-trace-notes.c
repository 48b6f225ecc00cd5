/* strata-trace-notes.c: what a trace's reader says about the file
 *
 * Two kinds: diagnostics, repairs of damage that changes what is shown
 * (a cut file, calls without their ends), which the window puts in a
 * bar above the trace; and notes, what is normal for files of the kind
 * but worth knowing (references a dump never held, from its garbage),
 * which go quietly to the Summary. Reports print both, apart.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-trace-object-private.h"

/* @message, from ngettext() with one %s, filled with @n grouped. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static char *
format_count (guint64     n,
              const char *message)
{
  g_autofree char *count = g_strdup_printf ("%'" G_GUINT64_FORMAT, n);

  return g_strdup_printf (message, count);
}
#pragma GCC diagnostic pop

/**
 * strata_trace_add_count_diagnostic:
 * @message: from ngettext(), with one %s for the count
 *
 * Adds a repair that happened @n times; nothing when @n is 0.
 */
void
strata_trace_add_count_diagnostic (StrataTrace *self,
                                   guint64      n,
                                   const char  *message)
{
  if (n > 0)
    g_ptr_array_add (self->diagnostics, format_count (n, message));
}

guint
strata_trace_get_n_diagnostics (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), 0);

  return self->diagnostics->len;
}

const char *
strata_trace_get_diagnostic (StrataTrace *self,
                             guint        index)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), NULL);
  g_return_val_if_fail (index < self->diagnostics->len, NULL);

  return g_ptr_array_index (self->diagnostics, index);
}

void
strata_trace_add_diagnostic (StrataTrace *self,
                             const char  *message)
{
  g_return_if_fail (STRATA_IS_TRACE (self));
  g_return_if_fail (message != NULL);

  g_ptr_array_add (self->diagnostics, g_strdup (message));
}

void
strata_trace_add_diagnosticf (StrataTrace *self,
                              const char  *format,
                              ...)
{
  va_list args;

  g_return_if_fail (STRATA_IS_TRACE (self));

  va_start (args, format);
  g_ptr_array_add (self->diagnostics, g_strdup_vprintf (format, args));
  va_end (args);
}

/**
 * strata_trace_add_note:
 *
 * Adds something normal for files of the kind, said in plain words.
 */
void
strata_trace_add_note (StrataTrace *self,
                       const char  *message)
{
  g_return_if_fail (STRATA_IS_TRACE (self));
  g_return_if_fail (message != NULL);

  g_ptr_array_add (self->notes, g_strdup (message));
}

/**
 * strata_trace_add_count_note:
 * @message: from ngettext(), with one %s for the count
 *
 * As strata_trace_add_count_diagnostic(), a note; nothing when @n is 0.
 */
void
strata_trace_add_count_note (StrataTrace *self,
                             guint64      n,
                             const char  *message)
{
  if (n > 0)
    g_ptr_array_add (self->notes, format_count (n, message));
}

guint
strata_trace_get_n_notes (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), 0);

  return self->notes->len;
}

const char *
strata_trace_get_note (StrataTrace *self,
                       guint        index)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), NULL);
  g_return_val_if_fail (index < self->notes->len, NULL);

  return g_ptr_array_index (self->notes, index);
}
