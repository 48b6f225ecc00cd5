/* strata-description.c: one description of a call, event or counter value
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-counter-render.h"
#include "strata-description.h"
#include "strata-event-args.h"
#include "strata-event-index.h"
#include "strata-units.h"

static void
clear_field (gpointer data)
{
  StrataDescriptionField *field = data;

  g_free (field->label);
  g_free (field->value);
}

static StrataDescription *
description_new (const char *title)
{
  StrataDescription *self = g_new0 (StrataDescription, 1);

  self->title = g_strdup (title);
  self->fields = g_array_new (FALSE, FALSE, sizeof (StrataDescriptionField));
  g_array_set_clear_func (self->fields, clear_field);
  return self;
}

/* Takes @value. */
static void
add_field (StrataDescription *self,
           const char        *label,
           char              *value)
{
  StrataDescriptionField field = { g_strdup (label), value };

  g_array_append_val (self->fields, field);
}

void
strata_description_free (StrataDescription *self)
{
  if (self == NULL)
    return;
  g_free (self->title);
  g_array_unref (self->fields);
  g_free (self);
}

/**
 * strata_description_to_text:
 *
 * Each part is clipped for display (strata_units_clip_for_display()).
 *
 * Returns: (transfer full): the title, then a "Label: value" line per field
 */
char *
strata_description_to_text (const StrataDescription *self)
{
  g_autofree char *clipped_title = NULL;
  GString *text = g_string_new (strata_units_clip_for_display (self->title, &clipped_title));

  for (guint i = 0; i < self->fields->len; i++)
    {
      const StrataDescriptionField *field = &g_array_index (self->fields, StrataDescriptionField, i);
      g_autofree char *clipped = NULL;

      /* Translators: one line of a call's or event's description: a label and its value */
      g_string_append_printf (text, _("\n%s: %s"), field->label, strata_units_clip_for_display (field->value, &clipped));
    }
  return g_string_free (text, FALSE);
}

/**
 * strata_describe_thread_short:
 *
 * Returns: (transfer full): a thread as lists name it: "main (13705)",
 *   or a named thread with no id (0) by its name alone
 */
char *
strata_describe_thread_short (StrataTrace *trace,
                              guint        index)
{
  const StrataThread *thread = strata_trace_get_thread (trace, index);
  const char *name = strata_trace_get_string (trace, thread->name);
  g_autofree char *tid = g_strdup_printf ("%" G_GINT64_FORMAT, thread->tid);

  if (thread->tid == 0 && *name != '\0')
    return g_strdup (name);
  /* Translators: a thread's name and id in the thread selector */
  return g_strdup_printf (_("%s (%s)"), name, tid);
}

/**
 * strata_describe_process_short:
 *
 * Returns: (transfer full): a process as lists name it: "Browser
 *   (4120)", or "Process 4120" without a name
 */
char *
strata_describe_process_short (StrataTrace *trace,
                               guint        index)
{
  const StrataProcess *process = strata_trace_get_process (trace, index);
  const char *name = strata_trace_get_string (trace, process->name);
  g_autofree char *pid = g_strdup_printf ("%" G_GINT64_FORMAT, process->pid);

  if (*name == '\0')
    /* Translators: a process without a name, by its id */
    return g_strdup_printf (_("Process %s"), pid);
  if (process->pid == 0)
    return g_strdup (name);
  /* Translators: a thread's name and id in the thread selector */
  return g_strdup_printf (_("%s (%s)"), name, pid);
}

/**
 * strata_describe_thread:
 *
 * Returns: (transfer full): a thread's name and id, and its process's
 */
char *
strata_describe_thread (StrataTrace *trace,
                        guint        index)
{
  const StrataThread *thread = strata_trace_get_thread (trace, index);
  const StrataProcess *process = strata_trace_get_process (trace, thread->process);
  g_autofree char *tid = g_strdup_printf ("%" G_GINT64_FORMAT, thread->tid);
  g_autofree char *pid = g_strdup_printf ("%" G_GINT64_FORMAT, process->pid);

  const char *thread_name = strata_trace_get_string (trace, thread->name);
  const char *process_name = strata_trace_get_string (trace, process->name);

  /* Ids of 0 are none (a .cpuprofile's thread and process). */
  if (thread->tid == 0 && process->pid == 0 && *thread_name && *process_name)
    /* Translators: a thread's name, then its process's name */
    return g_strdup_printf (_("%s in %s"), thread_name, process_name);
  /* Translators: a thread's name and id, then its process's name and pid */
  return g_strdup_printf (_("%s (%s) in %s (%s)"),
                          *thread_name ? thread_name : _("Thread"), tid,
                          *process_name ? process_name : _("Process"), pid);
}

static gint64
call_exclusive (const StrataSpanTable *table,
                guint                  clock,
                guint                  depth,
                guint32                index)
{
  gint64 time = strata_span_table_get_end (table, clock, depth, index) -
                strata_span_table_get_start (table, clock, depth, index);
  guint32 first, last;

  strata_span_table_get_children (table, depth, index, &first, &last);
  for (guint32 c = first; c < last; c++)
    time -= strata_span_table_get_end (table, clock, depth + 1, c) -
            strata_span_table_get_start (table, clock, depth + 1, c);
  return time;
}

/* One clock's inclusive, exclusive and start times, with the digits the
 * tables show: reports and exports carry every digit. */
static char *
call_times (StrataTrace           *trace,
            const StrataSpanTable *table,
            guint                  clock,
            const StrataSliceRef  *call)
{
  gint64 start = strata_span_table_get_start (table, clock, call->depth, call->index);
  gint64 end = strata_span_table_get_end (table, clock, call->depth, call->index);
  gint64 origin = strata_trace_get_clock_origin (trace, clock);
  /* Samples are counts, never seconds. */
  gboolean samples = strata_trace_get_clock_kind (trace, clock) == STRATA_CLOCK_SAMPLES;
  char *(*format) (gint64) = samples ? strata_units_format_samples : strata_units_format_duration;
  g_autofree char *incl = format (end - start);
  g_autofree char *excl = format (call_exclusive (table, clock, call->depth, call->index));
  g_autofree char *at = NULL;

  at = format (start - origin);
  /* Translators: one clock's times for a call */
  return g_strdup_printf (_("inclusive %s, exclusive %s, from %s"), incl, excl, at);
}

StrataDescription *
strata_describe_call (StrataTrace          *trace,
                      const StrataSliceRef *call)
{
  const StrataThread *thread = strata_trace_get_thread (trace, call->thread);
  const StrataSpanTable *table = thread->spans;
  const StrataMethod *method = strata_trace_get_method (trace, table->calls[call->depth][call->index].method);
  StrataDescription *self = description_new (strata_trace_get_string (trace, method->display_name));

  add_field (self, _("Kind"), g_strdup (_("Call")));
  if (method->class_name != 0)
    add_field (self, _("Category"), g_strdup (strata_trace_get_string (trace, method->class_name)));
  if (method->source_file != 0)
    add_field (self, _("Source"), g_strdup (strata_trace_get_string (trace, method->source_file)));
  for (guint c = 0; c < strata_trace_get_n_clocks (trace); c++)
    {
      /* A call made from samples was measured on the wall clock only;
       * its place on another clock is its caller's, not a measure. */
      if (c > 0 && strata_span_table_has_sources (table) &&
          strata_span_table_get_source (table, call->depth, call->index) == STRATA_NO_SOURCE)
        break;
      add_field (self, strata_trace_get_clock_name (trace, c), call_times (trace, table, c, call));
    }
  add_field (self, _("Thread"), strata_describe_thread (trace, call->thread));
  add_field (self, _("Depth"), g_strdup_printf ("%u", call->depth));
  if (call->depth < thread->n_entered_before && call->index == 0)
    add_field (self, _("Note"), g_strdup (_("Already running when tracing began")));
  return self;
}

StrataDescription *
strata_describe_event (StrataTrace *trace,
                       guint        index)
{
  const StrataEvent *event = strata_trace_get_event (trace, index);
  StrataDescription *self = description_new (strata_trace_get_string (trace, event->name));

  add_field (self, _("Kind"), g_strdup (strata_event_phase_describe (event->phase)));
  if (event->category != 0)
    add_field (self, _("Category"), g_strdup (strata_trace_get_string (trace, event->category)));
  add_field (self, _("Start"), strata_units_format_duration (event->start - strata_trace_get_start (trace)));
  if (event->end > event->start)
    add_field (self, _("Duration"), strata_units_format_duration (event->end - event->start));
  if (event->id != 0)
    add_field (self, _("Id"), g_strdup (strata_trace_get_string (trace, event->id)));
  if (event->thread != STRATA_NO_THREAD)
    add_field (self, _("Thread"), strata_describe_thread (trace, event->thread));
  else
    add_field (self, _("Process"), g_strdup (strata_trace_get_string (trace, strata_trace_get_process (trace, event->process)->name)));
  return self;
}

/* The values every series of a counter holds at @time, and their sum. */
StrataDescription *
strata_describe_counter_value (StrataTrace *trace,
                               guint        counter_index,
                               gint64       time)
{
  const StrataCounter *counter = strata_trace_get_counter (trace, counter_index);
  gsize at = strata_counter_sample_at (counter, time + 1);
  StrataDescription *self = description_new (strata_trace_get_string (trace, counter->name));
  double total = 0;

  add_field (self, _("Start"), strata_units_format_duration (time - strata_trace_get_start (trace)));
  if (at == 0)
    {
      add_field (self, _("Value"), g_strdup (_("No value yet")));
      return self;
    }
  for (guint s = 0; s < counter->n_series; s++)
    {
      double value = counter->values[s][at - 1];

      total += value;
      add_field (self, strata_trace_get_string (trace, counter->series_names[s]),
                 strata_units_format_quantity (value, strata_counter_in_bytes (trace, counter, s)));
    }
  if (counter->n_series > 1)
    /* Translators: the sum of a counter's series */
    add_field (self, _("Total"), strata_units_format_quantity (total, strata_counter_in_bytes (trace, counter, -1)));
  return self;
}
