/* strata-trace-summary.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-field-grid.h"
#include "strata-trace-summary.h"
#include "strata-units.h"
#include "strata-widgets.h"

struct _StrataTraceSummary
{
  GtkWidget      parent_instance;

  StrataSession *session;
  GtkWidget     *scroller;
  GtkGrid       *grid;
  int        n_rows;
};

G_DEFINE_FINAL_TYPE (StrataTraceSummary, strata_trace_summary, GTK_TYPE_WIDGET)

static void
add_row (StrataTraceSummary *self,
         const char         *key,
         const char         *value)
{
  strata_field_grid_add (self->grid, self->n_rows++, key, value, FALSE);
}

/* Trace Event JSON: how many events of each phase the file held. */
static void
add_event_rows (StrataTraceSummary *self,
                StrataTrace        *trace)
{
  g_autoptr(GString) phases = g_string_new (NULL);
  g_autofree char *counters = strata_units_format_count (strata_trace_get_n_counters (trace));
  g_autofree char *flows = strata_units_format_count (strata_trace_get_n_flows (trace));
  g_autofree char *events = strata_units_format_count (strata_trace_get_n_events (trace));
  g_autofree char *others = NULL;

  for (int ph = 1; ph < 128; ph++)
    {
      guint64 n = strata_trace_get_phase_count (trace, ph);
      g_autofree char *count = NULL;

      if (n == 0)
        continue;
      count = strata_units_format_count (n);
      g_string_append_printf (phases, "%s%c %s", phases->len ? " · " : "", ph, count);
    }
  /* Translators: the three %s are counts */
  others = g_strdup_printf (_("%s counters, %s flows, %s other events"), counters, flows, events);
  add_row (self, _("Events by phase"), phases->len ? phases->str : _("none"));
  add_row (self, _("Beyond calls"), others);
}

static void
add_metadata_rows (StrataTraceSummary *self,
                   StrataTrace        *trace)
{
  for (guint p = 0; p < strata_trace_get_n_processes (trace); p++)
    {
      const StrataProcess *process = strata_trace_get_process (trace, p);
      g_autofree char *key = NULL;

      if (process->labels == 0)
        continue;
      /* Translators: the labels of a process; %s is its name */
      key = g_strdup_printf (_("Labels of %s"), strata_trace_get_string (trace, process->name));
      add_row (self, key, strata_trace_get_string (trace, process->labels));
    }
  for (guint i = 0; i < strata_trace_get_n_metadata (trace); i++)
    {
      const char *key, *value;

      strata_trace_get_metadata (trace, i, &key, &value);
      add_row (self, key, value);
    }
}

static void
add_heap_rows (StrataTraceSummary *self,
               StrataTrace        *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  StrataHeapGraph *graph = strata_heap_get_graph (heap);
  guint64 instances, bytes;
  g_autofree char *classes = strata_units_format_count (strata_heap_get_n_classes (heap));
  g_autofree char *objects = NULL, *shallow = NULL, *threads = NULL;
  g_autoptr(GString) roots = g_string_new (NULL);

  strata_heap_get_totals (heap, &instances, &bytes);
  objects = strata_units_format_count (instances);
  shallow = g_format_size_full (bytes, G_FORMAT_SIZE_LONG_FORMAT);
  threads = strata_units_format_count (strata_heap_get_n_threads (heap));
  add_row (self, _("Classes"), classes);
  add_row (self, _("Objects"), objects);
  add_row (self, _("Shallow size"), shallow);
  if (graph != NULL)
    {
      g_autofree char *reachable = g_format_size_full (strata_heap_graph_get_reachable_bytes (graph),
                                                       G_FORMAT_SIZE_LONG_FORMAT);
      g_autofree char *unreachable = strata_heap_describe_unreachable (heap);

      add_row (self, _("Reachable size"), reachable);
      /* Translators: objects no GC root reaches through strong references */
      add_row (self, _("Unreachable objects"), unreachable);
      {
        g_autofree char *weak = strata_heap_describe_weak_referents (heap);

        add_row (self, _("Weak references"), weak);
      }
    }
  for (guint kind = 0; kind < STRATA_N_ROOT_KINDS; kind++)
    if (strata_heap_get_root_count (heap, kind) > 0)
      {
        g_autofree char *count = strata_units_format_count (strata_heap_get_root_count (heap, kind));

        g_string_append_printf (roots, "%s%s %s", roots->len ? ", " : "", strata_root_kind_get_name (kind), count);
      }
  add_row (self, _("GC roots"), roots->str);
  add_row (self, _("Threads"), threads);
}

/* As many as the timeline draws, and the rest apart: "17 with calls, 70 in all". */
static char *
describe_threads (StrataTrace *trace)
{
  guint n_all = strata_trace_get_n_threads (trace);
  guint n_calls = strata_trace_count_threads_with_calls (trace);
  g_autofree char *all = strata_units_format_count (n_all);
  g_autofree char *calls = strata_units_format_count (n_calls);

  if (n_calls == n_all)
    return g_steal_pointer (&all);
  /* Translators: threads with calls, and all threads the trace names */
  return g_strdup_printf (_("%s with calls, %s in all"), calls, all);
}

static void
strata_trace_summary_fill (StrataTraceSummary *self,
                           StrataTrace        *trace)
{
  GFile *file = strata_trace_get_file (trace);
  g_autofree char *location = file ? g_file_get_parse_name (file) : g_strdup ("");
  g_autofree char *size = g_format_size_full (strata_trace_get_file_size (trace),
                                              G_FORMAT_SIZE_LONG_FORMAT);
  guint n_diagnostics = strata_trace_get_n_diagnostics (trace);
  const char *detail = strata_trace_get_format_detail (trace);
  g_autofree char *format = detail ? g_strdup_printf ("%s (%s)", strata_format_get_name (strata_trace_get_format (trace)), detail)
                                   : g_strdup (strata_format_get_name (strata_trace_get_format (trace)));
  g_autofree char *threads = describe_threads (trace);
  g_autofree char *methods = strata_units_format_count (strata_trace_get_n_methods (trace));
  g_autofree char *calls = strata_units_format_count (strata_trace_get_n_spans (trace));
  g_autofree char *duration = strata_units_format_duration (strata_trace_get_end (trace) - strata_trace_get_start (trace));
  g_autoptr(GString) clocks = g_string_new (NULL);

  for (guint c = 0; c < strata_trace_get_n_clocks (trace); c++)
    g_string_append_printf (clocks, "%s%s", c ? ", " : "", strata_trace_get_clock_name (trace, c));

  add_row (self, _("File"), location);
  add_row (self, _("Format"), format);
  add_row (self, _("Size"), size);
  /* A heap dump without calls: its heap's facts, not empty call counts. */
  if (strata_trace_is_heap_only (trace))
    add_heap_rows (self, trace);
  else
    {
      add_row (self, _("Threads"), threads);
      add_row (self, _("Methods"), methods);
      add_row (self, _("Calls"), calls);
      add_row (self, _("Clocks"), clocks->str);
      add_row (self, _("Duration"), duration);
    }
  if (strata_trace_get_format (trace) == STRATA_FORMAT_TRACE_EVENT)
    add_event_rows (self, trace);
  add_metadata_rows (self, trace);

  if (n_diagnostics == 0)
    add_row (self, _("Import"), _("Loaded without repairs."));
  for (guint i = 0; i < n_diagnostics; i++)
    add_row (self, i == 0 ? _("Import") : "", strata_trace_get_diagnostic (trace, i));
  for (guint i = 0; i < strata_trace_get_n_notes (trace); i++)
    add_row (self, i == 0 ? _("Notes") : "", strata_trace_get_note (trace, i));
}

static void
strata_trace_summary_dispose (GObject *object)
{
  StrataTraceSummary *self = (StrataTraceSummary *)object;

  gtk_widget_dispose_template (GTK_WIDGET (self), STRATA_TYPE_TRACE_SUMMARY);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (strata_trace_summary_parent_class)->dispose (object);
}

static void
strata_trace_summary_class_init (StrataTraceSummaryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strata_trace_summary_dispose;

  strata_widgets_register_resources ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/stratatrace/Strata/strata-trace-summary.ui");
  gtk_widget_class_bind_template_child (widget_class, StrataTraceSummary, scroller);
  gtk_widget_class_bind_template_child (widget_class, StrataTraceSummary, grid);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "tracesummary");
}

static void
strata_trace_summary_init (StrataTraceSummary *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/* The rows of the trace on show, or none. */
static void
trace_changed_cb (StrataTraceSummary *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->grid))) != NULL)
    gtk_grid_remove (self->grid, child);
  self->n_rows = 0;
  if (trace != NULL)
    strata_trace_summary_fill (self, trace);
}

GtkWidget *
strata_trace_summary_new (StrataSession *session)
{
  StrataTraceSummary *self;

  g_return_val_if_fail (STRATA_IS_SESSION (session), NULL);

  self = g_object_new (STRATA_TYPE_TRACE_SUMMARY, NULL);
  self->session = g_object_ref (session);
  g_signal_connect_object (session, "notify::trace", G_CALLBACK (trace_changed_cb), self, G_CONNECT_SWAPPED);
  trace_changed_cb (self);

  return GTK_WIDGET (self);
}
