/* strata-heap-view-suspects.c: the heap view's Leak Suspects page
 *
 * Each suspect (strata-heap-suspects.h) as a card: what it is and where
 * its memory accumulates in a sentence, the shortest path to it from a
 * GC root, the way down to the accumulation point, the keywords to search
 * for, and buttons that open the suspect and the accumulation point in
 * the inspector (a group: its instances).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-heap-labels.h"
#include "strata-heap-suspects.h"
#include "strata-heap-view-private.h"

static void
instances_clicked_cb (GtkButton      *button,
                      StrataHeapView *self)
{
  strata_heap_view_show_instances (self, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "class")));
}

/**
 * strata_heap_view_wrapped_label:
 *
 * Returns: a selectable label that wraps, left-aligned, with @css_class
 *   (nullable): the text of the heap view's pages of cards
 */
GtkWidget *
strata_heap_view_wrapped_label (const char *text,
                                const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

/* "Path from a GC root: …" and the like: a heading word, then text. */
static GtkWidget *
captioned (const char *caption,
           const char *text)
{
  /* Translators: a caption ("Keywords"), then what it captions */
  g_autofree char *line = g_strdup_printf (_("%s: %s"), caption, text);

  return strata_heap_view_wrapped_label (line, "dim-label");
}

/* A button named @name for tests, its mnemonic @text, that inspects @object. */
static GtkWidget *
inspect_button (StrataHeapView *self,
                const char     *name,
                const char     *text,
                guint32         object)
{
  GtkWidget *button = strata_heap_view_new_inspect_button (self, text, object);

  gtk_button_set_use_underline (GTK_BUTTON (button), TRUE);
  gtk_widget_set_name (button, name);
  return button;
}

static GtkWidget *
suspect_buttons (StrataHeapView          *self,
                 const StrataHeapSuspect *suspect)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gboolean group = suspect->group_class != G_MAXUINT;

  if (group)
    {
      GtkWidget *instances = gtk_button_new_with_mnemonic (_("Show _Instances"));

      gtk_widget_set_name (instances, "instances");
      g_object_set_data (G_OBJECT (instances), "class", GUINT_TO_POINTER (suspect->group_class));
      g_signal_connect (instances, "clicked", G_CALLBACK (instances_clicked_cb), self);
      gtk_box_append (GTK_BOX (row), instances);
    }
  gtk_box_append (GTK_BOX (row), inspect_button (self, "suspect", group ? _("Inspect the _Largest") : _("Inspect the _Suspect"),
                                                 suspect->object));
  if (suspect->accumulation != suspect->object)
    gtk_box_append (GTK_BOX (row), inspect_button (self, "accumulation-point", _("Inspect the _Accumulation Point"),
                                                   suspect->accumulation));
  return row;
}

static GtkWidget *
suspect_card (StrataHeapView          *self,
              StrataTrace             *trace,
              const StrataHeapSuspect *suspect,
              guint                    number)
{
  StrataHeapGraph *graph = strata_heap_get_graph (strata_trace_get_heap (trace));
  GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  g_autofree char *text = strata_heap_suspect_describe (trace, suspect);
  g_autofree char *heading = g_strdup_printf ("%u. %s", number, text);
  g_auto(GStrv) keywords = strata_heap_suspect_keywords (trace, suspect);
  g_autofree char *joined = g_strjoinv (", ", keywords);
  guint32 n_root, n_down;
  g_autofree guint32 *from_root = strata_heap_graph_path_from_root (graph, suspect->object, &n_root);
  g_autofree guint32 *down = strata_heap_suspect_accumulation_path (trace, suspect, &n_down);

  gtk_widget_add_css_class (card, "strata-suspect");
  g_object_set (card, "margin-start", 2, "margin-end", 2, NULL);
  gtk_box_append (GTK_BOX (card), strata_heap_view_wrapped_label (heading, "heading"));
  gtk_widget_set_name (gtk_widget_get_last_child (card), "suspect-text");
  if (from_root != NULL)
    {
      g_autofree char *path = strata_heap_describe_path (trace, from_root, n_root, TRUE);

      gtk_box_append (GTK_BOX (card), captioned (_("Path from a GC root"), path));
    }
  if (n_down > 1)
    {
      g_autofree char *path = strata_heap_describe_path (trace, down, n_down, FALSE);

      gtk_box_append (GTK_BOX (card), captioned (_("Accumulates in"), path));
    }
  gtk_box_append (GTK_BOX (card), captioned (_("Keywords"), joined));
  gtk_box_append (GTK_BOX (card), suspect_buttons (self, suspect));
  return card;
}

/**
 * strata_heap_view_build_suspects:
 *
 * Returns: the Leak Suspects page: a card per suspect, the most retained
 *   first, or a sentence saying there is none
 */
GtkWidget *
strata_heap_view_build_suspects (StrataHeapView *self,
                                 StrataTrace    *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  g_autofree char *weak = strata_heap_describe_weak_referents (heap);
  /* Translators: the second sentence says how weak references are counted */
  g_autofree char *intro = g_strdup_printf (_("What retains more than a tenth of the reachable heap, followed down the "
                                              "dominator tree to where its memory accumulates. %s"), weak);
  g_autoptr(GArray) suspects = strata_heap_find_leak_suspects (trace);
  GtkWidget *android = strata_heap_view_build_android_leaks (self, trace);

  g_object_set (box, "margin-start", 18, "margin-end", 18, "margin-top", 12, "margin-bottom", 12, NULL);
  if (android != NULL)
    gtk_box_append (GTK_BOX (box), android);
  gtk_box_append (GTK_BOX (box), strata_heap_view_wrapped_label (intro, "dim-label"));
  for (guint i = 0; i < suspects->len; i++)
    gtk_box_append (GTK_BOX (box), suspect_card (self, trace, &g_array_index (suspects, StrataHeapSuspect, i), i + 1));
  if (suspects->len == 0)
    gtk_box_append (GTK_BOX (box), strata_heap_view_wrapped_label (_("None: no object or class retains more than a tenth of the heap."), NULL));
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), box);
  gtk_widget_set_vexpand (scroller, TRUE);
  return scroller;
}
