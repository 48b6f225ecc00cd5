/* strata-heap-view-threads.c: the heap view's Threads page
 *
 * Each thread the dump names, with what its thread object retains and
 * what its frames hold in all (each a GC root, so their retained sizes
 * add up without overlap), then its thread object and its stack, each
 * frame followed by the objects it holds, as buttons that open them in
 * the inspector.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-accessible.h"
#include "strata-heap-labels.h"
#include "strata-heap-view-private.h"
#include "strata-units.h"

static GtkWidget *
held_button (StrataHeapView *self,
             StrataTrace    *trace,
             guint32         object)
{
  g_autofree char *text = strata_heap_describe_held (trace, object);
  GtkWidget *button = strata_heap_view_new_inspect_button (self, text, object);

  gtk_label_set_xalign (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (button))), 0);
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_halign (button, GTK_ALIGN_START);
  gtk_widget_set_margin_start (button, 24);
  gtk_widget_set_name (button, "held-object");
  return button;
}

static GtkWidget *
frame_label (StrataTrace *trace,
             guint32      frame)
{
  g_autofree char *clipped = NULL;
  GtkWidget *label = gtk_label_new (strata_units_clip_for_display (strata_trace_get_string (trace, frame), &clipped));

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  return label;
}

/* What the objects @held by a thread's frames retain: each a GC root,
 * so their retained sizes add up; an object two frames hold counts once. */
static guint64
frames_retain (StrataHeapGraph       *graph,
               const StrataFrameRoot *held,
               guint                  n_held)
{
  guint64 retained = 0;

  for (guint r = 0; r < n_held; r++)
    {
      gboolean again = FALSE;

      for (guint q = 0; q < r && !again; q++)
        again = held[q].object == held[r].object;
      if (!again)
        retained += strata_heap_graph_get_retained (graph, held[r].object);
    }
  return retained;
}

/* "12 · main · retains 2.1 MB · its frames hold 3.1 MB": the thread
 * object's retained size (its thread locals, say), then its frames'. */
static char *
thread_title (StrataTrace            *trace,
              const StrataHeapThread *thread,
              const StrataFrameRoot  *held,
              guint                   n_held)
{
  StrataHeapGraph *graph = strata_heap_get_graph (strata_trace_get_heap (trace));
  const char *name = strata_trace_get_string (trace, thread->name);
  GString *title = g_string_new (NULL);

  /* Translators: a thread's serial number and name */
  g_string_printf (title, _("%u · %s"), thread->serial, *name ? name : _("(unnamed)"));
  if (graph != NULL && thread->object != STRATA_HEAP_NO_OBJECT)
    {
      g_autofree char *size = g_format_size (strata_heap_graph_get_retained (graph, thread->object));

      /* Translators: what a thread object keeps alive, after its name */
      g_string_append_printf (title, _(" · retains %s"), size);
    }
  if (graph != NULL && n_held > 0)
    {
      g_autofree char *size = g_format_size (frames_retain (graph, held, n_held));

      /* Translators: what the objects a thread's frames hold retain, after its name */
      g_string_append_printf (title, _(" · its frames hold %s"), size);
    }
  return g_string_free (title, FALSE);
}

static GtkWidget *
thread_stack (StrataHeapView         *self,
              StrataTrace            *trace,
              const StrataHeapThread *thread,
              const StrataFrameRoot  *held,
              guint                   n_held)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  GtkWidget *stack = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  guint n;
  const guint32 *frames = strata_heap_get_stack (heap, thread->stack, &n);

  gtk_widget_set_margin_start (stack, 24);
  if (thread->object != STRATA_HEAP_NO_OBJECT && strata_heap_get_graph (heap) != NULL)
    gtk_box_append (GTK_BOX (stack), held_button (self, trace, thread->object));
  /* Each frame, then the objects it holds; those of no known frame last. */
  for (guint f = 0; f <= n; f++)
    {
      if (f < n)
        gtk_box_append (GTK_BOX (stack), frame_label (trace, frames[f]));
      for (guint r = 0; r < n_held; r++)
        if ((f < n && held[r].frame == (gint32) f) || (f == n && (held[r].frame < 0 || held[r].frame >= (gint32) n)))
          gtk_box_append (GTK_BOX (stack), held_button (self, trace, held[r].object));
    }
  if (n == 0)
    gtk_box_append (GTK_BOX (stack), gtk_label_new (_("No stack")));
  return stack;
}

/**
 * strata_heap_view_build_threads:
 *
 * Returns: the Threads page
 */
GtkWidget *
strata_heap_view_build_threads (StrataHeapView *self,
                                StrataTrace    *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);

  for (guint i = 0; i < strata_heap_get_n_threads (heap); i++)
    {
      const StrataHeapThread *thread = strata_heap_get_thread (heap, i);
      guint n_held;
      const StrataFrameRoot *held = strata_heap_get_frame_roots (heap, thread->serial, &n_held);
      g_autofree char *title = thread_title (trace, thread, held, n_held);
      GtkWidget *expander = strata_accessible_expander_new (title);

      gtk_expander_set_child (GTK_EXPANDER (expander), thread_stack (self, trace, thread, held, n_held));
      gtk_box_append (GTK_BOX (box), expander);
    }
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_top (box, 6);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), box);
  gtk_widget_set_vexpand (scroller, TRUE);
  return scroller;
}
