/* strata-object-inspector.c: one heap object: its sizes, the shortest
 * path from a GC root, its fields and its referrers
 *
 * Every object named is a link that shows that object here; Back returns
 * to the one before, as in a browser. Long lists stop at MAX_LISTED.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-heap-labels.h"
#include "strata-hprof-index.h"
#include "strata-accessible.h"
#include "strata-field-grid.h"
#include "strata-heap-object-row.h"
#include "strata-object-inspector.h"
#include "strata-units.h"

#define MAX_LISTED 200

struct _StrataObjectInspector
{
  GtkWidget    parent_instance;

  StrataTrace *trace;
  GtkWidget   *scroller;
  GtkWidget   *box;        /* rebuilt per object */
  GArray      *history;    /* guint32: objects shown before */
  guint32      object;
  /* An array's elements are listed a page at a time: */
  GtkWidget   *elements;   /* where they go */
  GtkWidget   *more;       /* the button that lists the next page */
  guint32      n_listed;
};

G_DEFINE_FINAL_TYPE (StrataObjectInspector, strata_object_inspector, GTK_TYPE_WIDGET)

static StrataHeapGraph *
graph_of (StrataObjectInspector *self)
{
  return strata_heap_get_graph (strata_trace_get_heap (self->trace));
}

static GtkWidget *
add_label (StrataObjectInspector *self,
           const char            *text,
           const char            *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  gtk_box_append (GTK_BOX (self->box), label);
  return label;
}

static void show_object (StrataObjectInspector *self,
                         guint32                object,
                         gboolean               remember);

static void
link_clicked_cb (GtkButton             *button,
                 StrataObjectInspector *self)
{
  show_object (self, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "object")), TRUE);
}

/* "PREFIX java.util.HashMap 0x7f3a10", a button that shows that object. */
static void
add_link (StrataObjectInspector *self,
          const char            *prefix,
          guint32                object)
{
  g_autofree char *name = strata_heap_describe_object (self->trace, object);
  g_autofree char *text = prefix != NULL ? g_strdup_printf ("%s %s", prefix, name) : g_steal_pointer (&name);
  GtkWidget *button = gtk_button_new_with_label (text);
  GtkWidget *label = gtk_button_get_child (GTK_BUTTON (button));

  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_set_halign (button, GTK_ALIGN_FILL);
  gtk_widget_add_css_class (button, "flat");
  g_object_set_data (G_OBJECT (button), "object", GUINT_TO_POINTER (object));
  g_signal_connect (button, "clicked", G_CALLBACK (link_clicked_cb), self);
  gtk_box_append (GTK_BOX (self->box), button);
}

static void
add_more (StrataObjectInspector *self,
          guint32                n_more)
{
  g_autofree char *count = strata_units_format_count (n_more);
  /* Translators: %s is a number of entries not listed */
  g_autofree char *text = g_strdup_printf (ngettext ("and %s more", "and %s more", n_more), count);

  add_label (self, text, "dim-label");
}

static void
show_facts (StrataObjectInspector *self,
            guint32                object)
{
  StrataHeapGraph *graph = graph_of (self);
  g_autofree char *title = strata_heap_describe_object (self->trace, object);
  g_autofree char *shallow = strata_units_format_count (strata_heap_graph_get_shallow (graph, object));
  g_autofree char *retained = strata_units_format_count (strata_heap_graph_get_retained (graph, object));
  GtkWidget *grid = gtk_grid_new ();
  guint32 dominator = strata_heap_graph_get_dominator (graph, object);
  int root_kind = strata_heap_graph_get_root_kind (graph, object);
  int row = 0;
  guint64 size, capacity;

  gtk_label_set_selectable (GTK_LABEL (add_label (self, title, "title-4")), TRUE);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
  strata_field_grid_add (GTK_GRID (grid), row++, _("Shallow bytes"), shallow, TRUE);
  strata_field_grid_add (GTK_GRID (grid), row++, _("Retained bytes"), retained, TRUE);
  if (root_kind >= 0)
    strata_field_grid_add (GTK_GRID (grid), row++, _("GC root"), strata_root_kind_get_name (root_kind), FALSE);
  if (strata_heap_collection_fill (self->trace, object, &size, &capacity))
    {
      g_autofree char *n = strata_units_format_count (size), *slots = strata_units_format_count (capacity);
      /* Translators: entries a collection holds, the slots its array has, and the share used */
      g_autofree char *fill = g_strdup_printf (_("%s entries in %s slots (%.0f%% full)"), n, slots,
                                               capacity > 0 ? 100.0 * size / capacity : 0.0);

      strata_field_grid_add (GTK_GRID (grid), row++, _("Fill"), fill, FALSE);
    }
  if (!strata_heap_graph_is_reachable (graph, object))
    strata_field_grid_add (GTK_GRID (grid), row++, _("Reachable"),
                           _("No: only weak, soft or phantom references lead here, or none"), FALSE);
  gtk_box_append (GTK_BOX (self->box), grid);
  if (dominator != STRATA_HEAP_NO_OBJECT)
    {
      /* Translators: before the object that alone keeps this one alive */
      add_link (self, _("Kept alive by"), dominator);
    }
}

/* From a GC root to the object, field by field. */
static void
show_path (StrataObjectInspector *self,
           guint32                object)
{
  StrataHeapGraph *graph = graph_of (self);
  StrataHprofIndex *index = strata_heap_get_index (strata_trace_get_heap (self->trace));
  guint32 n;
  g_autofree guint32 *path = strata_heap_graph_path_from_root (graph, object, &n);

  if (path == NULL)
    return;
  add_label (self, _("Shortest path from a GC root"), "heading");
  add_link (self, strata_root_kind_get_name (strata_heap_graph_get_root_kind (graph, path[0])), path[0]);
  for (guint32 i = 1; i < n; i++)
    {
      g_autofree char *field = strata_hprof_index_name_reference (index, self->trace, path[i - 1], path[i]);
      /* "↳ .next", or "↳ [12]" for an array element. */
      g_autofree char *step = g_strdup_printf (field[0] == '[' ? "↳ %s" : "↳ .%s", field);

      if (i == MAX_LISTED / 2 && n > MAX_LISTED)
        {
          add_more (self, n - MAX_LISTED);
          i = n - MAX_LISTED / 2;
          continue;
        }
      add_link (self, step, path[i]);
    }
}

static void
show_fields (StrataObjectInspector *self,
             guint32                object)
{
  StrataHeapGraph *graph = graph_of (self);
  g_autoptr(GArray) fields = strata_hprof_index_get_fields (strata_heap_get_index (strata_trace_get_heap (self->trace)),
                                                            self->trace, object);
  GtkWidget *grid = gtk_grid_new ();
  int row = 0;

  if (fields->len == 0)
    return;
  add_label (self, _("Fields"), "heading");
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
  gtk_box_append (GTK_BOX (self->box), grid);
  for (guint i = 0; i < fields->len && i < MAX_LISTED; i++)
    {
      const StrataHeapField *field = &g_array_index (fields, StrataHeapField, i);
      g_autofree char *name = field->is_static ? g_strdup_printf ("static %s", field->name) : g_strdup (field->name);
      guint32 target = field->type == STRATA_HEAP_TYPE_OBJECT && field->value != 0
                       ? strata_heap_graph_lookup (graph, field->value) : STRATA_HEAP_NO_OBJECT;

      if (target != STRATA_HEAP_NO_OBJECT)
        {
          g_autofree char *prefix = g_strdup_printf ("%s =", name);

          add_link (self, prefix, target);
        }
      else
        {
          g_autofree char *value = strata_heap_field_format_value (field);

          strata_field_grid_add (GTK_GRID (grid), row++, name, value, TRUE);
        }
    }
  if (fields->len > MAX_LISTED)
    add_more (self, fields->len - MAX_LISTED);
}

static void
show_list (StrataObjectInspector *self,
           const char            *heading,
           const guint32         *objects,
           guint32                n)
{
  if (n == 0)
    return;
  add_label (self, heading, "heading");
  for (guint32 i = 0; i < n && i < MAX_LISTED; i++)
    add_link (self, NULL, objects[i]);
  if (n > MAX_LISTED)
    add_more (self, n - MAX_LISTED);
}

/* ---- Arrays ---- */

static void list_elements (StrataObjectInspector *self);

static void
more_clicked_cb (StrataObjectInspector *self)
{
  list_elements (self);
}

/* The next MAX_LISTED elements: values, or links for references. */
static void
list_elements (StrataObjectInspector *self)
{
  StrataHprofIndex *index = strata_heap_get_index (strata_trace_get_heap (self->trace));
  StrataHeapGraph *graph = graph_of (self);
  guint type, element_size;
  guint32 length, end;
  const guint8 *data = strata_hprof_index_get_array (index, self->object, &type, &length, &element_size);

  if (data == NULL)
    return;
  end = MIN (length, self->n_listed + MAX_LISTED);
  for (guint32 i = self->n_listed; i < end; i++)
    {
      StrataHeapField element = strata_heap_array_element (data, type, element_size, i);
      g_autofree char *name = g_strdup_printf ("[%u]", i);
      guint32 target = type == STRATA_HEAP_TYPE_OBJECT && element.value != 0
                       ? strata_heap_graph_lookup (graph, element.value) : STRATA_HEAP_NO_OBJECT;
      GtkWidget *row;

      if (target != STRATA_HEAP_NO_OBJECT)
        {
          g_autofree char *text = strata_heap_describe_object (self->trace, target);
          g_autofree char *label = g_strdup_printf ("%s = %s", name, text);

          row = gtk_button_new_with_label (label);
          gtk_label_set_ellipsize (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (row))), PANGO_ELLIPSIZE_END);
          gtk_label_set_xalign (GTK_LABEL (gtk_button_get_child (GTK_BUTTON (row))), 0);
          gtk_widget_add_css_class (row, "flat");
          g_object_set_data (G_OBJECT (row), "object", GUINT_TO_POINTER (target));
          g_signal_connect (row, "clicked", G_CALLBACK (link_clicked_cb), self);
        }
      else
        {
          g_autofree char *value = strata_heap_field_format_value (&element);
          g_autofree char *label = g_strdup_printf ("%s = %s", name, value);

          row = gtk_label_new (label);
          gtk_label_set_xalign (GTK_LABEL (row), 0);
          gtk_label_set_selectable (GTK_LABEL (row), TRUE);
        }
      gtk_box_append (GTK_BOX (self->elements), row);
    }
  self->n_listed = end;
  gtk_widget_set_visible (self->more, end < length);
}

static gboolean
show_elements (StrataObjectInspector *self)
{
  StrataHprofIndex *index = strata_heap_get_index (strata_trace_get_heap (self->trace));
  guint type, element_size;
  guint32 length;
  g_autofree char *count = NULL, *heading = NULL;

  if (!strata_hprof_index_get_array (index, self->object, &type, &length, &element_size))
    return FALSE;
  count = strata_units_format_count (length);
  /* Translators: %s is an array's length */
  heading = g_strdup_printf (_("Elements (%s)"), count);
  add_label (self, heading, "heading");
  self->elements = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_box_append (GTK_BOX (self->box), self->elements);
  self->more = gtk_button_new_with_mnemonic (_("Show _More"));
  gtk_widget_set_halign (self->more, GTK_ALIGN_START);
  g_signal_connect_swapped (self->more, "clicked", G_CALLBACK (more_clicked_cb), self);
  gtk_box_append (GTK_BOX (self->box), self->more);
  self->n_listed = 0;
  list_elements (self);
  return TRUE;
}

static void
back_clicked_cb (StrataObjectInspector *self)
{
  guint32 previous;

  if (self->history->len == 0)
    return;
  previous = g_array_index (self->history, guint32, self->history->len - 1);
  g_array_set_size (self->history, self->history->len - 1);
  show_object (self, previous, FALSE);
}

static void
show_object (StrataObjectInspector *self,
             guint32                object,
             gboolean               remember)
{
  StrataHeapGraph *graph = graph_of (self);
  const guint32 *list;
  guint32 n;

  if (remember && self->object != STRATA_HEAP_NO_OBJECT && self->object != object)
    g_array_append_val (self->history, self->object);
  self->object = object;
  self->elements = self->more = NULL;
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_margin_start (self->box, 12);
  gtk_widget_set_margin_end (self->box, 12);
  gtk_widget_set_margin_top (self->box, 12);
  gtk_widget_set_margin_bottom (self->box, 12);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), self->box);
  if (self->history->len > 0)
    {
      GtkWidget *back = gtk_button_new_with_mnemonic (_("_Back"));

      gtk_widget_set_halign (back, GTK_ALIGN_START);
      g_signal_connect_swapped (back, "clicked", G_CALLBACK (back_clicked_cb), self);
      gtk_box_append (GTK_BOX (self->box), back);
    }
  show_facts (self, object);
  show_path (self, object);
  show_fields (self, object);
  /* An array's references are its elements, listed by index. */
  if (!show_elements (self))
    {
      list = strata_heap_graph_get_references (graph, object, &n);
      show_list (self, _("References"), list, n);
    }
  list = strata_heap_graph_get_referrers (graph, object, &n);
  show_list (self, _("Referrers"), list, n);
}

void
strata_object_inspector_show (StrataObjectInspector *self,
                              guint32                object)
{
  g_return_if_fail (STRATA_IS_OBJECT_INSPECTOR (self));

  g_array_set_size (self->history, 0);
  self->object = STRATA_HEAP_NO_OBJECT;
  show_object (self, object, FALSE);
}

guint32
strata_object_inspector_get_object (StrataObjectInspector *self)
{
  return self->object;
}

/* Every line shown, in order; for tests and screen readers. */
char *
strata_object_inspector_dup_text (StrataObjectInspector *self)
{
  return strata_accessible_dup_text (self->box);
}

GtkWidget *
strata_object_inspector_new (StrataTrace *trace)
{
  StrataObjectInspector *self = g_object_new (STRATA_TYPE_OBJECT_INSPECTOR, NULL);
  GtkWidget *hint;

  self->trace = g_object_ref (trace);
  hint = gtk_label_new (_("Select an object to see its fields, its referrers and how it is reached from a GC root."));
  gtk_label_set_wrap (GTK_LABEL (hint), TRUE);
  gtk_widget_add_css_class (hint, "dim-label");
  gtk_widget_set_margin_start (hint, 12);
  gtk_widget_set_margin_end (hint, 12);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), hint);
  return GTK_WIDGET (self);
}

static void
strata_object_inspector_dispose (GObject *object)
{
  StrataObjectInspector *self = STRATA_OBJECT_INSPECTOR (object);

  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  self->box = NULL;
  g_clear_object (&self->trace);
  g_clear_pointer (&self->history, g_array_unref);

  G_OBJECT_CLASS (strata_object_inspector_parent_class)->dispose (object);
}

static void
strata_object_inspector_class_init (StrataObjectInspectorClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = strata_object_inspector_dispose;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "objectinspector");
}

static void
strata_object_inspector_init (StrataObjectInspector *self)
{
  self->object = STRATA_HEAP_NO_OBJECT;
  self->history = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
}
