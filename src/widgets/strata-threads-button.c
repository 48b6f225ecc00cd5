/* strata-threads-button.c: the threads the call tree merges, one or several
 *
 * A menu button whose popover lists the threads with calls (in a list
 * view: a trace may have 100,000), each with a check box: one checked is the session's profile thread (the profile
 * shows it too), several are merged in the call tree alone, none is all
 * of them. The button says which: "All Threads", the thread, or how many.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-description.h"
#include "strata-thread-picker.h"
#include "strata-threads-button.h"

struct _StrataThreadsButton
{
  GtkWidget      parent_instance;

  StrataSession *session;
  GtkWidget     *button;     /* GtkMenuButton */
  GtkStringList *names;      /* a row per thread with calls: a trace may have 100,000 */
  GArray        *indexes;    /* guint: each row's thread */
  GArray        *checked;    /* guint8: each row's box */
  GHashTable    *shown;      /* the check buttons bound to rows now */
  gboolean       syncing;    /* checks set from the session, not by the user */
};

G_DEFINE_FINAL_TYPE (StrataThreadsButton, strata_threads_button, GTK_TYPE_WIDGET)

/* The boxes on show, from @self->checked. */
static void
show_checks (StrataThreadsButton *self)
{
  GHashTableIter iter;
  gpointer check;

  self->syncing = TRUE;
  g_hash_table_iter_init (&iter, self->shown);
  while (g_hash_table_iter_next (&iter, &check, NULL))
    {
      guint row = GPOINTER_TO_UINT (g_object_get_data (check, "strata-row")) - 1;

      gtk_check_button_set_active (check, row < self->checked->len && g_array_index (self->checked, guint8, row));
    }
  self->syncing = FALSE;
}

/* The checks and the label from the session. */
static void
show_threads (StrataThreadsButton *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  const GArray *several = strata_session_get_call_tree_threads (self->session);
  int one = strata_session_get_profile_thread (self->session);
  g_autofree char *label = NULL;

  for (guint i = 0; i < self->indexes->len; i++)
    {
      guint thread = g_array_index (self->indexes, guint, i);
      gboolean checked = one == (int) thread;

      for (guint k = 0; several != NULL && k < several->len; k++)
        checked |= g_array_index (several, guint, k) == thread;
      g_array_index (self->checked, guint8, i) = checked;
    }
  show_checks (self);
  if (several != NULL && several->len > 1)
    /* Translators: how many threads the call tree merges */
    label = g_strdup_printf (ngettext ("%u Thread", "%u Threads", several->len), several->len);
  else if (one >= 0 && trace != NULL)
    label = strata_describe_thread_short (trace, (guint) one);
  else
    label = g_strdup (_("All Threads"));
  gtk_menu_button_set_label (GTK_MENU_BUTTON (self->button), label);
}

/* The checked rows' threads are the call tree's. */
static void
pick_checked (StrataThreadsButton *self)
{
  g_autoptr(GArray) threads = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < self->checked->len; i++)
    if (g_array_index (self->checked, guint8, i))
      g_array_append_val (threads, g_array_index (self->indexes, guint, i));
  strata_session_set_call_tree_threads (self->session, (const guint *) threads->data, threads->len);
  show_threads (self);
}

static void
check_toggled_cb (GtkCheckButton      *check,
                  StrataThreadsButton *self)
{
  guint row = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (check), "strata-row")) - 1;

  if (self->syncing || row >= self->checked->len)
    return;
  g_array_index (self->checked, guint8, row) = gtk_check_button_get_active (check);
  pick_checked (self);
}

static void
all_clicked_cb (StrataThreadsButton *self)
{
  strata_session_set_call_tree_threads (self->session, NULL, 0);
  show_threads (self);
  gtk_menu_button_popdown (GTK_MENU_BUTTON (self->button));
}

/* A row per thread with calls, anew for each trace. */
static void
fill (StrataThreadsButton *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);

  g_array_set_size (self->indexes, 0);
  for (guint t = 0; trace != NULL && t < strata_trace_get_n_threads (trace); t++)
    if (strata_trace_get_thread (trace, t)->spans != NULL)
      {
        g_ptr_array_add (labels, strata_describe_thread_short (trace, t));
        g_array_append_val (self->indexes, t);
      }
  g_ptr_array_add (labels, NULL);
  g_array_set_size (self->checked, self->indexes->len);
  gtk_string_list_splice (self->names, 0, g_list_model_get_n_items (G_LIST_MODEL (self->names)),
                          (const char * const *) labels->pdata);
  show_threads (self);
}

static void
setup_row (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           StrataThreadsButton      *self)
{
  GtkWidget *check = gtk_check_button_new ();

  g_signal_connect_object (check, "toggled", G_CALLBACK (check_toggled_cb), self, 0);
  gtk_list_item_set_child (item, check);
}

static void
bind_row (GtkSignalListItemFactory *factory,
          GtkListItem              *item,
          StrataThreadsButton      *self)
{
  GtkWidget *check = gtk_list_item_get_child (item);
  guint row = gtk_list_item_get_position (item);

  gtk_check_button_set_label (GTK_CHECK_BUTTON (check), gtk_string_object_get_string (gtk_list_item_get_item (item)));
  g_object_set_data (G_OBJECT (check), "strata-row", GUINT_TO_POINTER (row + 1));
  g_hash_table_add (self->shown, check);
  show_checks (self);
}

static void
unbind_row (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            StrataThreadsButton      *self)
{
  g_hash_table_remove (self->shown, gtk_list_item_get_child (item));
}

static GtkWidget *
build_popover (StrataThreadsButton *self)
{
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *all = gtk_button_new_with_mnemonic (_("_All Threads"));
  GtkWidget *hint = gtk_label_new (_("Check several threads to merge their calls."));
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkWidget *list;

  gtk_widget_add_css_class (hint, "dim-label");
  gtk_label_set_wrap (GTK_LABEL (hint), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (hint), 30);
  gtk_label_set_xalign (GTK_LABEL (hint), 0);
  g_signal_connect_object (all, "clicked", G_CALLBACK (all_clicked_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row), self);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_row), self);
  list = gtk_list_view_new (GTK_SELECTION_MODEL (gtk_no_selection_new (G_LIST_MODEL (g_object_ref (self->names)))), factory);
  gtk_accessible_update_property (GTK_ACCESSIBLE (list), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Threads"), -1);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), list);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 360);
  gtk_box_append (GTK_BOX (box), all);
  gtk_box_append (GTK_BOX (box), hint);
  gtk_box_append (GTK_BOX (box), scroller);
  gtk_popover_set_child (GTK_POPOVER (popover), box);
  return popover;
}

static void
strata_threads_button_dispose (GObject *object)
{
  StrataThreadsButton *self = STRATA_THREADS_BUTTON (object);

  g_clear_pointer (&self->button, gtk_widget_unparent);
  g_clear_pointer (&self->indexes, g_array_unref);
  g_clear_pointer (&self->checked, g_array_unref);
  g_clear_pointer (&self->shown, g_hash_table_unref);
  g_clear_object (&self->names);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (strata_threads_button_parent_class)->dispose (object);
}

static void
strata_threads_button_class_init (StrataThreadsButtonClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = strata_threads_button_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
strata_threads_button_init (StrataThreadsButton *self)
{
  self->indexes = g_array_new (FALSE, FALSE, sizeof (guint));
  self->checked = g_array_new (FALSE, TRUE, sizeof (guint8));
  self->shown = g_hash_table_new (NULL, NULL);
  self->names = gtk_string_list_new (NULL);
  self->button = gtk_menu_button_new ();
  gtk_widget_set_parent (self->button, GTK_WIDGET (self));
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (self->button), build_popover (self));
  gtk_widget_set_tooltip_text (self->button, _("The threads whose calls are merged: one, several or all"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->button), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Threads"), -1);
}

GtkWidget *
strata_threads_button_new (StrataSession *session)
{
  StrataThreadsButton *self;

  g_return_val_if_fail (STRATA_IS_SESSION (session), NULL);

  self = g_object_new (STRATA_TYPE_THREADS_BUTTON, NULL);
  gtk_widget_set_name (GTK_WIDGET (self), "threads-button");
  self->session = g_object_ref (session);
  g_signal_connect_object (session, "notify::trace", G_CALLBACK (fill), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::profile-thread", G_CALLBACK (show_threads), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "call-tree-threads-changed", G_CALLBACK (show_threads), self, G_CONNECT_SWAPPED);
  fill (self);
  return GTK_WIDGET (self);
}

/* What the button says. */
const char *
strata_threads_button_get_label (StrataThreadsButton *self)
{
  g_return_val_if_fail (STRATA_IS_THREADS_BUTTON (self), NULL);

  return gtk_menu_button_get_label (GTK_MENU_BUTTON (self->button));
}

/* As the user would check or uncheck @thread's box. */
void
strata_threads_button_set_checked (StrataThreadsButton *self,
                                   guint                thread,
                                   gboolean             checked)
{
  g_return_if_fail (STRATA_IS_THREADS_BUTTON (self));

  for (guint i = 0; i < self->indexes->len; i++)
    if (g_array_index (self->indexes, guint, i) == thread)
      {
        g_array_index (self->checked, guint8, i) = checked;
        pick_checked (self);
      }
}
