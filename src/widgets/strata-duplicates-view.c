/* strata-duplicates-view.c: strings and primitive arrays a heap dump holds
 * more than once, the most wasteful first
 *
 * Finding them reads every string of the dump: it runs off the main
 * thread once the page exists, and fills the page when done.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-heap-labels.h"
#include "strata-accessible.h"
#include "strata-duplicates-view.h"
#include "strata-heap-duplicates.h"
#include "strata-heap-object-row.h"
#include "strata-units.h"

#define MAX_SHOWN 50
#define TEXT_SHOWN 200

struct _StrataDuplicatesView
{
  GtkWidget     parent_instance;

  StrataTrace  *trace;
  GtkWidget    *scroller;
  GtkWidget    *box;
  GCancellable *cancellable;
  gboolean      ready;
};

G_DEFINE_FINAL_TYPE (StrataDuplicatesView, strata_duplicates_view, GTK_TYPE_WIDGET)

typedef struct
{
  GArray *strings;
  GArray *arrays;
} Found;

static void
found_free (gpointer data)
{
  Found *found = data;

  g_clear_pointer (&found->strings, g_array_unref);
  g_clear_pointer (&found->arrays, g_array_unref);
  g_free (found);
}

static void
find_thread (GTask        *task,
             gpointer      source,
             gpointer      data,
             GCancellable *cancellable)
{
  Found *found = g_new0 (Found, 1);

  found->strings = strata_heap_find_duplicates (data, TRUE, MAX_SHOWN, cancellable);
  found->arrays = strata_heap_find_duplicates (data, FALSE, MAX_SHOWN, cancellable);
  g_task_return_pointer (task, found, found_free);
}

static GtkWidget *
cell (const char *text,
      gboolean    number)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), number ? 1 : 0);
  gtk_label_set_selectable (GTK_LABEL (label), !number);
  gtk_label_set_ellipsize (GTK_LABEL (label), number ? PANGO_ELLIPSIZE_NONE : PANGO_ELLIPSIZE_END);
  if (number)
    gtk_widget_add_css_class (label, "numeric");
  else
    gtk_widget_set_hexpand (label, TRUE);
  return label;
}

static void
add_table (StrataDuplicatesView *self,
           const char           *heading,
           GArray               *duplicates,
           gboolean              strings)
{
  GtkWidget *title = gtk_label_new (heading);
  GtkWidget *grid = gtk_grid_new ();

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_widget_add_css_class (title, "heading");
  gtk_box_append (GTK_BOX (self->box), title);
  if (duplicates->len == 0)
    {
      GtkWidget *none = gtk_label_new (_("None"));

      gtk_label_set_xalign (GTK_LABEL (none), 0);
      gtk_widget_add_css_class (none, "dim-label");
      gtk_box_append (GTK_BOX (self->box), none);
      return;
    }
  gtk_grid_set_column_spacing (GTK_GRID (grid), 18);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
  gtk_grid_attach (GTK_GRID (grid), cell (_("Wasted bytes"), TRUE), 0, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), cell (_("Copies"), TRUE), 1, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), cell (strings ? _("Text") : _("Array"), FALSE), 2, 0, 1, 1);
  for (guint i = 0; i < duplicates->len; i++)
    {
      const StrataHeapDuplicate *duplicate = &g_array_index (duplicates, StrataHeapDuplicate, i);
      g_autofree char *wasted = strata_units_format_count (duplicate->wasted);
      g_autofree char *copies = strata_units_format_count (duplicate->count);
      g_autofree char *clipped = NULL;
      g_autofree char *quoted = strings ? g_strdup_printf ("“%s”", strata_units_clip_to (duplicate->text, TEXT_SHOWN, &clipped))
                                        : strata_heap_describe_array_copies (self->trace, duplicate);

      gtk_grid_attach (GTK_GRID (grid), cell (wasted, TRUE), 0, i + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), cell (copies, TRUE), 1, i + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), cell (quoted, FALSE), 2, i + 1, 1, 1);
    }
  gtk_box_append (GTK_BOX (self->box), grid);
}

static void
found_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      data)
{
  g_autoptr(StrataDuplicatesView) self = data;
  Found *found = g_task_propagate_pointer (G_TASK (result), NULL);

  if (found == NULL || g_cancellable_is_cancelled (self->cancellable))
    {
      g_clear_pointer (&found, found_free);
      return;
    }
  while (gtk_widget_get_first_child (self->box) != NULL)
    gtk_box_remove (GTK_BOX (self->box), gtk_widget_get_first_child (self->box));
  add_table (self, _("Duplicate strings"), found->strings, TRUE);
  add_table (self, _("Duplicate primitive arrays"), found->arrays, FALSE);
  self->ready = TRUE;
  found_free (found);
}

GtkWidget *
strata_duplicates_view_new (StrataTrace *trace)
{
  StrataDuplicatesView *self = g_object_new (STRATA_TYPE_DUPLICATES_VIEW, NULL);
  g_autoptr(GTask) task = NULL;
  GtkWidget *waiting = gtk_label_new (_("Looking for duplicates…"));

  self->trace = g_object_ref (trace);
  gtk_widget_add_css_class (waiting, "dim-label");
  gtk_box_append (GTK_BOX (self->box), waiting);
  task = g_task_new (NULL, self->cancellable, found_cb, g_object_ref (self));
  g_task_set_task_data (task, g_object_ref (trace), g_object_unref);
  g_task_set_source_tag (task, strata_duplicates_view_new);
  g_task_run_in_thread (task, find_thread);
  return GTK_WIDGET (self);
}

gboolean
strata_duplicates_view_is_ready (StrataDuplicatesView *self)
{
  return self->ready;
}

/* Every cell shown, in order; for tests and screen readers. */
char *
strata_duplicates_view_dup_text (StrataDuplicatesView *self)
{
  return strata_accessible_dup_text (self->box);
}

static void
strata_duplicates_view_dispose (GObject *object)
{
  StrataDuplicatesView *self = STRATA_DUPLICATES_VIEW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  self->box = NULL;
  g_clear_object (&self->trace);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (strata_duplicates_view_parent_class)->dispose (object);
}

static void
strata_duplicates_view_class_init (StrataDuplicatesViewClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = strata_duplicates_view_dispose;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static void
strata_duplicates_view_init (StrataDuplicatesView *self)
{
  self->cancellable = g_cancellable_new ();
  self->scroller = gtk_scrolled_window_new ();
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  g_object_set (self->box, "margin-start", 18, "margin-end", 18, "margin-top", 12, "margin-bottom", 12, NULL);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), self->box);
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
}
