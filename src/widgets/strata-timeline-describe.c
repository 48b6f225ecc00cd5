/* strata-timeline-describe.c: the timeline in words
 *
 * The selected call, event or counter value is the timeline's accessible
 * description and what Ctrl+C copies; the item under the pointer is its
 * tooltip. All of them are the one StrataDescription the details pane
 * shows too.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-timeline-private.h"
#include "strata-units.h"


/* The selected item in words, or NULL. */
static char *
describe_selection (StrataTimeline *self)
{
  g_autoptr(StrataDescription) description = strata_session_describe_selected_item (self->session);

  return description != NULL ? strata_description_to_text (description) : NULL;
}

void
strata_timeline_update_description (StrataTimeline *self)
{
  g_autofree char *description = describe_selection (self);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  description ? description : _("No call selected"),
                                  -1);
}

static void
copy_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  g_autofree char *text = describe_selection (STRATA_TIMELINE (widget));

  if (text != NULL)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
  else
    gtk_widget_error_bell (widget);
}

/* What lies under (x, y), described, or NULL. */
static StrataDescription *
describe_at (StrataTimeline *self,
             double          x,
             double          y)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  StrataTimelineHit hit;

  if (!strata_timeline_hit_at (self, x, y, &hit))
    return NULL;
  if (hit.kind == STRATA_HIT_SPAN)
    return strata_describe_call (trace, &(StrataSliceRef) { hit.thread, hit.depth, hit.index });
  if (hit.kind == STRATA_HIT_COUNTER)
    return strata_describe_counter_value (trace, hit.index, hit.time);
  if (hit.kind == STRATA_HIT_EVENT)
    return strata_describe_event (trace, hit.index);
  return NULL;
}

/* An Android frame: how it did against the budget, and its phases. */
static char *
describe_frame (const StrataAndroidFrame *frame,
                gint64                    budget)
{
  g_autofree char *length = strata_units_format_duration (frame->end - frame->start);
  g_autofree char *allowed = strata_units_format_duration (budget);
  GString *text = g_string_new (NULL);

  /* Translators: an Android frame's length against the display's refresh
   * interval: "Frame: 23.4 ms of a 16.7 ms budget" */
  g_string_printf (text, _("Frame: %s of a %s budget"), length, allowed);
  for (guint p = 0; p < STRATA_FRAME_N_PHASES; p++)
    if (frame->has_phase[p])
      {
        g_autofree char *time = strata_units_format_duration (frame->phase_time[p]);

        g_string_append_c (text, '\n');
        /* Translators: a phase of a frame and its time: "Draw 9.8 ms" */
        g_string_append_printf (text, _("%s %s"), strata_android_frame_phase_name (p), time);
      }
  g_string_append_c (text, '\n');
  g_string_append (text, _("Click to zoom to it"));
  return g_string_free (text, FALSE);
}

static gboolean
query_tooltip_cb (StrataTimeline *self,
                  int             x,
                  int             y,
                  gboolean        keyboard,
                  GtkTooltip     *tooltip)
{
  g_autoptr(StrataDescription) description = NULL;
  const StrataAndroidFrame *frame = keyboard ? NULL : strata_timeline_frame_at (self, x, y);
  g_autofree char *text = NULL;

  if (frame != NULL)
    {
      text = describe_frame (frame, self->frame_budget);
      gtk_tooltip_set_text (tooltip, text);
      return TRUE;
    }
  description = keyboard ? strata_session_describe_selected_item (self->session) : describe_at (self, x, y);
  if (description == NULL)
    return FALSE;
  text = strata_description_to_text (description);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

void
strata_timeline_class_init_describe (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "timeline.copy", NULL, copy_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "timeline.copy", NULL);
}

void
strata_timeline_init_describe (StrataTimeline *self)
{
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Timeline"),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, _("No call selected"),
                                  -1);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
}
