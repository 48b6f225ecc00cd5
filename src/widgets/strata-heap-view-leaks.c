/* strata-heap-view-leaks.c: an Android dump's leaks on the Leak Suspects
 * page
 *
 * Each leak (strata-heap-android-leaks.h) as a card: what leaks and why
 * in a sentence, then its path from the GC root a row a step, as
 * LeakCanary draws it: the reference that leads to the step (struck
 * through with a wavy line where it may be the bug), the object as a
 * link into the inspector, and its status and why.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-heap.h"
#include "strata-heap-android-leaks.h"
#include "strata-heap-labels.h"
#include "strata-heap-view-private.h"

/* "↓ mListeners", a suspect reference underlined as an error is. */
static GtkWidget *
reference_label (const StrataLeakStep *step)
{
  g_autofree char *escaped = g_markup_escape_text (step->reference, -1);
  g_autofree char *markup = step->suspect
                            ? g_strdup_printf ("↓ <span underline=\"error\">%s</span>", escaped)
                            : g_strdup_printf ("↓ %s", escaped);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "monospace");
  gtk_widget_set_margin_start (label, 12);
  if (step->suspect)
    gtk_widget_set_tooltip_text (label, _("This reference may be the bug: it is held by an object not known to be leaking"));
  return label;
}

static const char *
status_css_class (StrataLeakStatus status)
{
  switch (status)
    {
    case STRATA_LEAK_STATUS_LEAKING: return "error";
    case STRATA_LEAK_STATUS_NOT_LEAKING: return "success";
    case STRATA_LEAK_STATUS_UNKNOWN:
    default: return "dim-label";
    }
}

/* The object as a link, then "leaking (Activity.mDestroyed is true)". */
static GtkWidget *
step_row (StrataHeapView       *self,
          StrataTrace          *trace,
          const StrataLeakStep *step)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  const char *klass = strata_heap_class_object_name (trace, step->object);
  g_autofree char *label = klass != NULL ? g_strdup_printf ("class %s", klass) : strata_heap_describe_object (trace, step->object);
  GtkWidget *link = strata_heap_view_new_inspect_button (self, label, step->object);
  /* Translators: a leak's step: its status ("not leaking"), then why */
  g_autofree char *status = step->reason != NULL ? g_strdup_printf (_("%s (%s)"), strata_leak_status_get_name (step->status),
                                                                     step->reason)
                                                 : g_strdup (strata_leak_status_get_name (step->status));

  gtk_widget_add_css_class (link, "flat");
  gtk_widget_set_tooltip_text (link, _("Inspect this object"));
  gtk_box_append (GTK_BOX (row), link);
  gtk_box_append (GTK_BOX (row), strata_heap_view_wrapped_label (status, status_css_class (step->status)));
  gtk_widget_set_hexpand (gtk_widget_get_last_child (row), TRUE);
  return row;
}

static GtkWidget *
leak_card (StrataHeapView          *self,
           StrataTrace             *trace,
           const StrataAndroidLeak *leak,
           guint                    number)
{
  StrataHeapGraph *graph = strata_heap_get_graph (strata_trace_get_heap (trace));
  GtkWidget *card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  g_autofree char *text = strata_android_leak_describe (trace, leak);
  g_autofree char *heading = g_strdup_printf ("%u. %s", number, text);
  guint32 root = g_array_index (leak->steps, StrataLeakStep, 0).object;
  /* Translators: the first line of a leak's path: the kind of GC root */
  g_autofree char *kind = g_strdup_printf (_("GC root: %s"), strata_root_kind_get_name (strata_heap_graph_get_root_kind (graph, root)));

  gtk_widget_add_css_class (card, "strata-suspect");
  gtk_widget_set_name (card, "android-leak");
  gtk_box_append (GTK_BOX (card), strata_heap_view_wrapped_label (heading, "heading"));
  gtk_box_append (GTK_BOX (card), strata_heap_view_wrapped_label (kind, "dim-label"));
  for (guint i = 0; i < leak->steps->len; i++)
    {
      const StrataLeakStep *step = &g_array_index (leak->steps, StrataLeakStep, i);

      if (step->reference != NULL)
        gtk_box_append (GTK_BOX (card), reference_label (step));
      gtk_box_append (GTK_BOX (card), step_row (self, trace, step));
    }
  if (leak->objects->len > 1)
    {
      /* Translators: %u is how many other objects leak along a path of the same shape */
      g_autofree char *others = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u more leaks the same way.",
                                                              "%u more leak the same way.", leak->objects->len - 1),
                                                 leak->objects->len - 1);

      gtk_box_append (GTK_BOX (card), strata_heap_view_wrapped_label (others, "dim-label"));
    }
  return card;
}

/**
 * strata_heap_view_build_android_leaks:
 *
 * Returns: (nullable): the Android leaks' heading and cards, or a sentence
 *   saying there is none; %NULL for a dump without Android's classes
 */
GtkWidget *
strata_heap_view_build_android_leaks (StrataHeapView *self,
                                      StrataTrace    *trace)
{
  GtkWidget *box;
  g_autoptr(GPtrArray) leaks = NULL;

  if (!strata_heap_has_android_classes (trace))
    return NULL;
  leaks = strata_heap_find_android_leaks (trace);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_box_append (GTK_BOX (box), strata_heap_view_wrapped_label (_("Android Leaks"), "title-4"));
  gtk_box_append (GTK_BOX (box), strata_heap_view_wrapped_label (_("Objects the app is done with that a strong path still reaches, found as "
                                                "LeakCanary finds them: each step of the path is marked as leaking or not, "
                                                "and the references where the leak may start are underlined."), "dim-label"));
  for (guint i = 0; i < leaks->len; i++)
    gtk_box_append (GTK_BOX (box), leak_card (self, trace, g_ptr_array_index (leaks, i), i + 1));
  if (leaks->len == 0)
    gtk_box_append (GTK_BOX (box), strata_heap_view_wrapped_label (_("None: no destroyed activity, fragment, window or view, and no quit "
                                                  "message queue, is still reachable."), NULL));
  gtk_box_append (GTK_BOX (box), strata_heap_view_wrapped_label (_("Leak Suspects"), "title-4"));
  return box;
}
