/* strata-timeline-actions.c: keyboard commands of the timeline
 *
 * Zoom, pan and selection are the session's commands (the window's "view"
 * actions); the keys here are bound to them. What is the timeline's own is
 * walking between calls with the arrow keys.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-note-editor.h"
#include "strata-timeline-private.h"

/* The first call on the first thread whose depth-0 call is visible. */
static gboolean
first_visible_call (StrataTimeline *self)
{
  gint64 start, end;

  strata_session_get_visible_range (self->session, &start, &end);
  for (guint i = 0; self->tracks && i < self->tracks->len; i++)
    {
      const StrataTrack *track = &g_array_index (self->tracks, StrataTrack, i);
      const StrataSpanTable *table;
      guint32 index;

      if (track->kind != STRATA_TRACK_THREAD)
        continue;
      table = strata_timeline_thread_spans (self, track->index);
      if (table == NULL)
        continue;
      index = strata_span_table_search_clock (table, strata_session_get_clock (self->session), 0, start);
      if (index < table->n_spans[0])
        {
          strata_timeline_select_call (self, track->index, 0, index);
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
find_parent (const StrataSpanTable *table,
             guint                  depth,
             guint32                index,
             guint32               *parent)
{
  guint32 lo = 0, hi;

  if (depth == 0)
    return FALSE;

  /* The last call one level up whose children start at or before us. */
  hi = table->n_spans[depth - 1];
  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (table->calls[depth - 1][mid].first_child <= index)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return FALSE;
  *parent = lo - 1;
  return TRUE;
}

static void
move_focus_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  StrataTimeline *self = STRATA_TIMELINE (widget);
  const StrataSpanTable *table;
  StrataSliceRef call;
  guint depth;
  guint32 index, first, last;

  if (strata_session_get_trace (self->session) == NULL)
    return;
  if (!strata_timeline_get_selected_call (self, &call))
    {
      first_visible_call (self);
      return;
    }

  table = strata_timeline_thread_spans (self, call.thread);
  depth = call.depth;
  index = call.index;

  if (g_str_equal (action_name, "timeline.next-call") && index + 1 < table->n_spans[depth])
    index++;
  else if (g_str_equal (action_name, "timeline.previous-call") && index > 0)
    index--;
  else if (g_str_equal (action_name, "timeline.parent-call") && find_parent (table, depth, index, &index))
    depth--;
  else if (g_str_equal (action_name, "timeline.child-call"))
    {
      strata_span_table_get_children (table, depth, index, &first, &last);
      if (first < last)
        depth++, index = first;
    }

  strata_timeline_select_call (self, call.thread, depth, index);
}

/* ---- Notes ---- */

static void
note_written_cb (const char *text,
                 gpointer    data)
{
  StrataTimeline *self = data;

  /* A note that could not be kept says why on the Notes page. */
  strata_session_add_note (self->session, text, NULL);
}

/* N: a note on the selected call, or else on the selected range, written
 * in a popover under the ruler where it starts. */
static void
add_note_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *param)
{
  StrataTimeline *self = STRATA_TIMELINE (widget);
  g_autofree char *title = strata_note_editor_describe_target (self->session);
  StrataTimelineView view;
  StrataTimelineTheme theme;
  StrataSelectedKind kind;
  StrataSliceRef call;
  gint64 start, end, visible_start, visible_end;
  double x;

  if (title == NULL)
    {
      gtk_widget_error_bell (widget);
      return;
    }
  strata_session_get_note_target (self->session, &kind, &call, &start, &end);
  strata_session_get_visible_range (self->session, &visible_start, &visible_end);
  strata_timeline_fill_view (self, &view, &theme);
  x = view.label_width + (view.width - view.label_width) *
      (double) (CLAMP (start, visible_start, visible_end) - visible_start) / MAX (1, visible_end - visible_start);
  strata_note_editor_popup (widget, &(GdkRectangle) { (int) x, (int) STRATA_TIMELINE_HEADER_TOTAL, 1, 1 },
                            title, NULL, note_written_cb, self);
}

static void
add_binding (GtkWidgetClass *widget_class,
             guint           keyval,
             const char     *action)
{
  gtk_widget_class_add_binding_action (widget_class, keyval, 0, action, NULL);
}

void
strata_timeline_class_init_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "timeline.next-call", NULL, move_focus_action);
  gtk_widget_class_install_action (widget_class, "timeline.add-note", NULL, add_note_action);
  gtk_widget_class_install_action (widget_class, "timeline.previous-call", NULL, move_focus_action);
  gtk_widget_class_install_action (widget_class, "timeline.parent-call", NULL, move_focus_action);
  gtk_widget_class_install_action (widget_class, "timeline.child-call", NULL, move_focus_action);

  add_binding (widget_class, GDK_KEY_w, "view.zoom-in");
  add_binding (widget_class, GDK_KEY_plus, "view.zoom-in");
  add_binding (widget_class, GDK_KEY_equal, "view.zoom-in");
  add_binding (widget_class, GDK_KEY_s, "view.zoom-out");
  add_binding (widget_class, GDK_KEY_minus, "view.zoom-out");
  add_binding (widget_class, GDK_KEY_a, "view.pan-left");
  add_binding (widget_class, GDK_KEY_d, "view.pan-right");
  add_binding (widget_class, GDK_KEY_0, "view.zoom-fit");
  add_binding (widget_class, GDK_KEY_Home, "view.zoom-fit");
  add_binding (widget_class, GDK_KEY_f, "view.zoom-selection");
  add_binding (widget_class, GDK_KEY_Escape, "view.clear-selection");
  add_binding (widget_class, GDK_KEY_Right, "timeline.next-call");
  add_binding (widget_class, GDK_KEY_Left, "timeline.previous-call");
  add_binding (widget_class, GDK_KEY_Up, "timeline.parent-call");
  add_binding (widget_class, GDK_KEY_Down, "timeline.child-call");
  add_binding (widget_class, GDK_KEY_c, "view.compact");
  add_binding (widget_class, GDK_KEY_n, "timeline.add-note");
}
