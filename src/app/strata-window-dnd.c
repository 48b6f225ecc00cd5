/* strata-window-dnd.c: opening files dropped on the window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-window-private.h"

static GdkDragAction
drop_enter_cb (StrataWindow  *self,
               double         x,
               double         y,
               GtkDropTarget *target)
{
  gtk_widget_set_visible (self->drop_overlay, TRUE);
  return GDK_ACTION_COPY;
}

static void
drop_leave_cb (StrataWindow  *self,
               GtkDropTarget *target)
{
  gtk_widget_set_visible (self->drop_overlay, FALSE);
}

/* Returns the dropped files, whichever type the drag offered. */
static GPtrArray *
files_from_value (const GValue *value)
{
  GPtrArray *files = g_ptr_array_new_with_free_func (g_object_unref);

  if (G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    {
      for (GSList *l = g_value_get_boxed (value); l != NULL; l = l->next)
        g_ptr_array_add (files, g_object_ref (l->data));
    }
  else if (G_VALUE_HOLDS (value, G_TYPE_FILE) && g_value_get_object (value) != NULL)
    {
      g_ptr_array_add (files, g_value_dup_object (value));
    }

  return files;
}

/* A drop's event carries no modifiers on X11 (the source's pointer
 * grab has them): the keyboard is asked too. */
static gboolean
control_held (StrataWindow  *self,
              GtkDropTarget *target)
{
  GdkSeat *seat = gdk_display_get_default_seat (gtk_widget_get_display (GTK_WIDGET (self)));
  GdkDevice *keyboard = seat != NULL ? gdk_seat_get_keyboard (seat) : NULL;
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (target));

  if (keyboard != NULL)
    state |= gdk_device_get_modifier_state (keyboard);
  return (state & GDK_CONTROL_MASK) != 0;
}

static gboolean
drop_cb (StrataWindow  *self,
         const GValue  *value,
         double         x,
         double         y,
         GtkDropTarget *target)
{
  g_autoptr(GPtrArray) files = files_from_value (value);
  GApplication *application;

  gtk_widget_set_visible (self->drop_overlay, FALSE);

  if (files->len == 0)
    return FALSE;

  /* Ctrl held: the file is a baseline for the trace on show. */
  if (control_held (self, target) && strata_session_get_trace (self->session) != NULL)
    {
      strata_window_compare_with (self, g_ptr_array_index (files, 0));
      return TRUE;
    }

  strata_window_open_or_new (self, g_ptr_array_index (files, 0));

  /* The rest get a window each, as when opened from the file manager. */
  application = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
  if (files->len > 1 && application != NULL)
    g_application_open (application, (GFile **) files->pdata + 1, files->len - 1, "");

  return TRUE;
}

void
_strata_window_init_dnd (StrataWindow *self)
{
  GType types[] = { GDK_TYPE_FILE_LIST, G_TYPE_FILE };
  GtkDropTarget *target = gtk_drop_target_new (G_TYPE_INVALID, GDK_ACTION_COPY);

  gtk_drop_target_set_gtypes (target, types, G_N_ELEMENTS (types));
  g_signal_connect_object (target, "enter", G_CALLBACK (drop_enter_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (target, "leave", G_CALLBACK (drop_leave_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (target, "drop", G_CALLBACK (drop_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (self->overlay, GTK_EVENT_CONTROLLER (target));
  self->drop_target = target;
}
