/* strata-trace.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-trace.h"

struct _StrataTrace
{
  GObject       parent_instance;

  StrataFormat  format;
  GFile        *file;
  guint64       file_size;

  /* What the loader repaired or dropped, one sentence each. */
  GPtrArray    *diagnostics;
};

G_DEFINE_FINAL_TYPE (StrataTrace, strata_trace, G_TYPE_OBJECT)

static void
strata_trace_finalize (GObject *object)
{
  StrataTrace *self = (StrataTrace *)object;

  g_clear_object (&self->file);
  g_clear_pointer (&self->diagnostics, g_ptr_array_unref);

  G_OBJECT_CLASS (strata_trace_parent_class)->finalize (object);
}

static void
strata_trace_class_init (StrataTraceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = strata_trace_finalize;
}

static void
strata_trace_init (StrataTrace *self)
{
  self->diagnostics = g_ptr_array_new_with_free_func (g_free);
}

StrataTrace *
strata_trace_new (StrataFormat format)
{
  StrataTrace *self = g_object_new (STRATA_TYPE_TRACE, NULL);

  self->format = format;
  return self;
}

StrataFormat
strata_trace_get_format (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), STRATA_FORMAT_UNKNOWN);

  return self->format;
}

/**
 * strata_trace_get_file:
 *
 * Returns: (transfer none) (nullable): the file the trace was read from
 */
GFile *
strata_trace_get_file (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), NULL);

  return self->file;
}

guint64
strata_trace_get_file_size (StrataTrace *self)
{
  g_return_val_if_fail (STRATA_IS_TRACE (self), 0);

  return self->file_size;
}

void
strata_trace_set_source (StrataTrace *self,
                         GFile       *file,
                         guint64      file_size)
{
  g_return_if_fail (STRATA_IS_TRACE (self));
  g_return_if_fail (!file || G_IS_FILE (file));

  g_set_object (&self->file, file);
  self->file_size = file_size;
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
