/* strata-duplicates-view.c: strings and primitive arrays a heap dump holds
 * more than once, the most wasteful first
 *
 * Finding them reads every string of the dump: it runs off the main
 * thread once the page exists, and fills the page when done. Each row's
 * Holders button finds what refers to its copies, off the main thread
 * too, and asks for them to be shown ("show-objects").
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
  GArray       *strings;        /* StrataHeapDuplicate, as shown */
  GArray       *arrays;
  gboolean      ready;
};

G_DEFINE_FINAL_TYPE (StrataDuplicatesView, strata_duplicates_view, GTK_TYPE_WIDGET)

enum { SHOW_OBJECTS, N_SIGNALS };
static guint signals[N_SIGNALS];

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

typedef struct
{
  StrataTrace         *trace;
  StrataHeapDuplicate  duplicate;   /* its text borrowed from the view's array */
  char                *title;
} HoldersJob;

static void
holders_job_free (gpointer data)
{
  HoldersJob *job = data;

  g_object_unref (job->trace);
  g_free (job->title);
  g_free (job);
}

typedef struct
{
  guint32 *objects;
  guint32  n;
} Holders;

static void
holders_free (gpointer data)
{
  Holders *holders = data;

  g_free (holders->objects);
  g_free (holders);
}

static void
holders_thread (GTask        *task,
                gpointer      source,
                gpointer      data,
                GCancellable *cancellable)
{
  HoldersJob *job = data;
  Holders *holders = g_new0 (Holders, 1);

  holders->objects = strata_heap_duplicate_holders (job->trace, &job->duplicate, &holders->n, cancellable);
  g_task_return_pointer (task, holders, holders_free);
}

static void
holders_found_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      data)
{
  StrataDuplicatesView *self = STRATA_DUPLICATES_VIEW (object);
  HoldersJob *job = g_task_get_task_data (G_TASK (result));
  Holders *holders = g_task_propagate_pointer (G_TASK (result), NULL);

  if (holders != NULL && !g_cancellable_is_cancelled (self->cancellable))
    g_signal_emit (self, signals[SHOW_OBJECTS], 0, job->title, holders->objects, holders->n);
  g_clear_pointer (&holders, holders_free);
}

static void
holders_clicked_cb (GtkButton            *button,
                    StrataDuplicatesView *self)
{
  GArray *duplicates = g_object_get_data (G_OBJECT (button), "strings") != NULL ? self->strings : self->arrays;
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "index"));
  const StrataHeapDuplicate *duplicate = &g_array_index (duplicates, StrataHeapDuplicate, index);
  HoldersJob *job = g_new0 (HoldersJob, 1);
  g_autoptr(GTask) task = g_task_new (self, self->cancellable, holders_found_cb, NULL);
  g_autofree char *clipped = NULL;
  g_autofree char *what = duplicate->text != NULL
                          ? g_strdup_printf ("“%s”", strata_units_clip_to (duplicate->text, 60, &clipped))
                          : strata_heap_describe_array_copies (self->trace, duplicate);

  job->trace = g_object_ref (self->trace);
  job->duplicate = *duplicate;
  /* Translators: the heading of the objects that hold copies of a string or array; %s is it */
  job->title = g_strdup_printf (_("Holders of the copies of %s"), what);
  g_task_set_task_data (task, job, holders_job_free);
  g_task_run_in_thread (task, holders_thread);
}

static GtkWidget *
holders_button (StrataDuplicatesView *self,
                gboolean              strings,
                guint                 index)
{
  GtkWidget *button = gtk_button_new_with_label (_("Holders"));

  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_tooltip_text (button, _("Show the objects that hold these copies"));
  gtk_widget_set_name (button, "holders");
  g_object_set_data (G_OBJECT (button), "strings", GINT_TO_POINTER (strings));
  g_object_set_data (G_OBJECT (button), "index", GUINT_TO_POINTER (index));
  g_signal_connect (button, "clicked", G_CALLBACK (holders_clicked_cb), self);
  return button;
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
      gtk_grid_attach (GTK_GRID (grid), holders_button (self, strings, i), 3, i + 1, 1, 1);
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
  self->strings = g_steal_pointer (&found->strings);
  self->arrays = g_steal_pointer (&found->arrays);
  add_table (self, _("Duplicate strings"), self->strings, TRUE);
  add_table (self, _("Duplicate primitive arrays"), self->arrays, FALSE);
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
  g_clear_pointer (&self->strings, g_array_unref);
  g_clear_pointer (&self->arrays, g_array_unref);

  G_OBJECT_CLASS (strata_duplicates_view_parent_class)->dispose (object);
}

static void
strata_duplicates_view_class_init (StrataDuplicatesViewClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = strata_duplicates_view_dispose;

  /**
   * StrataDuplicatesView::show-objects:
   * @title: what the objects are
   * @objects: (array length=n_objects): the objects, valid during the emission
   *
   * The holders of a row's copies were found and are to be shown.
   */
  signals[SHOW_OBJECTS] = g_signal_new ("show-objects", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                        G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_POINTER, G_TYPE_UINT);
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
