/* strata-event-details.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-accessible.h"
#include "strata-event-args.h"
#include "strata-event-details-private.h"
#include "strata-field-grid.h"
#include "strata-widgets.h"
#include "strata-event-index.h"
#include "strata-units.h"

/* A container shows this many members; the rest are counted. */
#define MAX_CHILDREN 500
#define MAX_VALUE_CHARS 2000
/* The whole-name window shows this much of a name: one wrapped paragraph
 * of it is laid out at once. Copying takes all of it. */
#define WHOLE_NAME_SHOWN (64 * 1024)
#define TITLE_SHOWN 300

struct _StrataEventDetails
{
  GtkWidget      parent_instance;

  StrataSession *session;
  GtkWidget     *scroller;
  GtkWidget     *box;           /* everything, rebuilt per selection */
  GtkWidget     *args_box;
  GtkWidget     *args_status;
  GCancellable  *reading;
  char          *whole_title;   /* the selected item's name, when clipped on screen */
};

G_DEFINE_FINAL_TYPE (StrataEventDetails, strata_event_details, GTK_TYPE_WIDGET)

/* ---- Building blocks ---- */

static GtkWidget *
add_label (GtkWidget  *box,
           const char *text,
           const char *css_class)
{
  g_autofree char *clipped = NULL;
  GtkWidget *label = gtk_label_new (strata_units_clip_for_display (text, &clipped));

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  gtk_box_append (GTK_BOX (box), label);
  return label;
}

/* ---- Args as a tree ---- */

static void add_json_node (GtkWidget  *box,
                           const char *key,
                           JsonNode   *node);

static char *
scalar_text (JsonNode *node)
{
  g_autofree char *text = NULL;

  if (JSON_NODE_HOLDS_NULL (node))
    return g_strdup ("null");
  if (json_node_get_value_type (node) == G_TYPE_STRING)
    text = g_strdup (json_node_get_string (node));
  else
    text = json_to_string (node, FALSE);
  if (g_utf8_strlen (text, -1) > MAX_VALUE_CHARS)
    {
      char *cut = g_utf8_offset_to_pointer (text, MAX_VALUE_CHARS);

      *cut = '\0';
      return g_strconcat (text, "…", NULL);
    }
  return g_steal_pointer (&text);
}

static void
fill_container (GtkWidget *box,
                JsonNode  *node)
{
  guint n = 0;

  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      json_object_iter_init (&iter, json_node_get_object (node));
      while (json_object_iter_next (&iter, &name, &member) && n++ < MAX_CHILDREN)
        add_json_node (box, name, member);
      n = json_object_get_size (json_node_get_object (node));
    }
  else
    {
      JsonArray *array = json_node_get_array (node);

      n = json_array_get_length (array);
      for (guint i = 0; i < MIN (n, MAX_CHILDREN); i++)
        {
          g_autofree char *key = g_strdup_printf ("[%u]", i);

          add_json_node (box, key, json_array_get_element (array, i));
        }
    }
  if (n > MAX_CHILDREN)
    {
      /* Translators: %u is a number of members not shown */
      g_autofree char *more = g_strdup_printf (_("… and %u more"), n - MAX_CHILDREN);

      add_label (box, more, "dim-label");
    }
}

/* Containers fill in when first opened: args can hold megabytes. */
static void
expander_opened_cb (GtkExpander *expander)
{
  GtkWidget *box;
  JsonNode *node;

  if (!gtk_expander_get_expanded (expander) || gtk_expander_get_child (expander) != NULL)
    return;
  node = g_object_get_data (G_OBJECT (expander), "node");
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_widget_set_margin_start (box, 18);
  fill_container (box, node);
  gtk_expander_set_child (expander, box);
}

static void
add_json_node (GtkWidget  *box,
               const char *key,
               JsonNode   *node)
{
  g_autofree char *text = NULL;
  GtkWidget *expander;

  if (!JSON_NODE_HOLDS_OBJECT (node) && !JSON_NODE_HOLDS_ARRAY (node))
    {
      g_autofree char *value = scalar_text (node);

      text = g_strdup_printf ("%s: %s", key, value);
      add_label (box, text, NULL);
      return;
    }
  if (JSON_NODE_HOLDS_OBJECT (node))
    text = g_strdup_printf ("%s {%u}", key, json_object_get_size (json_node_get_object (node)));
  else
    text = g_strdup_printf ("%s [%u]", key, json_array_get_length (json_node_get_array (node)));
  expander = strata_accessible_expander_new (text);
  g_object_set_data_full (G_OBJECT (expander), "node", json_node_ref (node), (GDestroyNotify) json_node_unref);
  g_signal_connect (expander, "notify::expanded", G_CALLBACK (expander_opened_cb), NULL);
  gtk_box_append (GTK_BOX (box), expander);
}

/* ---- Reading args ---- */

/* Every "id_ref" in the args: the objects they point at. */
static void
collect_id_refs (JsonNode  *node,
                 GPtrArray *refs)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      const char *name;
      JsonNode *member;

      json_object_iter_init (&iter, json_node_get_object (node));
      while (json_object_iter_next (&iter, &name, &member) && refs->len < MAX_CHILDREN)
        {
          if (g_str_equal (name, "id_ref") && JSON_NODE_HOLDS_VALUE (member) &&
              json_node_get_value_type (member) == G_TYPE_STRING)
            g_ptr_array_add (refs, g_ascii_strdown (json_node_get_string (member), -1));
          else
            collect_id_refs (member, refs);
        }
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array) && refs->len < MAX_CHILDREN; i++)
        collect_id_refs (json_array_get_element (array, i), refs);
    }
}

static void
object_clicked_cb (GtkButton          *button,
                   StrataEventDetails *self)
{
  strata_session_select_event (self->session, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "event")));
}

/* The object whose id is @id: its lifetime, else its first snapshot,
 * else its deletion. */
static guint
find_object (StrataTrace *trace,
             const char  *id)
{
  guint found = G_MAXUINT, rank = 3;

  for (guint i = 0; i < strata_trace_get_n_events (trace); i++)
    {
      const StrataEvent *event = strata_trace_get_event (trace, i);
      const char *kinds = "NOD";
      const char *kind = strchr (kinds, event->phase);

      if (event->phase == '\0' || kind == NULL || event->id == 0 || (guint) (kind - kinds) >= rank ||
          g_ascii_strcasecmp (strata_trace_get_string (trace, event->id), id) != 0)
        continue;
      found = i;
      rank = kind - kinds;
    }
  return found;
}

static void
add_object_links (StrataEventDetails *self,
                  JsonNode           *args)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  g_autoptr(GPtrArray) refs = g_ptr_array_new_with_free_func (g_free);
  gboolean heading = FALSE;

  collect_id_refs (args, refs);
  for (guint i = 0; trace != NULL && i < refs->len; i++)
    {
      guint event = find_object (trace, g_ptr_array_index (refs, i));
      g_autofree char *text = NULL;
      GtkWidget *button;

      if (event == G_MAXUINT)
        continue;
      if (!heading)
        add_label (self->box, _("Referenced objects"), "heading");
      heading = TRUE;
      /* Translators: a link to an object: its name and id */
      text = g_strdup_printf (_("%s %s"), strata_trace_get_string (trace, strata_trace_get_event (trace, event)->name),
                              (const char *) g_ptr_array_index (refs, i));
      button = gtk_button_new_with_label (text);
      gtk_widget_set_halign (button, GTK_ALIGN_START);
      gtk_widget_add_css_class (button, "flat");
      g_object_set_data (G_OBJECT (button), "event", GUINT_TO_POINTER (event));
      g_signal_connect (button, "clicked", G_CALLBACK (object_clicked_cb), self);
      gtk_box_append (GTK_BOX (self->box), button);
    }
}

static void
args_read_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) args = strata_event_args_read_finish (result, &error);
  g_autoptr(StrataEventDetails) self = user_data;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->args_box == NULL)
    return;
  g_clear_object (&self->reading);
  if (args == NULL)
    {
      gtk_label_set_text (GTK_LABEL (self->args_status), error->message);
      return;
    }
  if (json_object_get_size (json_node_get_object (args)) == 0)
    {
      gtk_label_set_text (GTK_LABEL (self->args_status), _("No arguments"));
      return;
    }
  gtk_widget_set_visible (self->args_status, FALSE);
  fill_container (self->args_box, args);
  add_object_links (self, args);
}

static void
start_reading_args (StrataEventDetails *self,
                    StrataTrace        *trace,
                    guint64             source)
{
  add_label (self->box, _("Arguments"), "heading");
  self->args_status = add_label (self->box, _("Reading arguments…"), "dim-label");
  self->args_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_box_append (GTK_BOX (self->box), self->args_box);

  self->reading = g_cancellable_new ();
  strata_event_args_read_async (trace, source, self->reading, args_read_cb, g_object_ref (self));
}

/* ---- Flows ---- */

static void
flow_clicked_cb (GtkButton          *button,
                 StrataEventDetails *self)
{
  const StrataSliceRef *call = g_object_get_data (G_OBJECT (button), "call");

  strata_session_select_call (self->session, call);
}

static void
add_flow_link (StrataEventDetails   *self,
               StrataTrace          *trace,
               const StrataFlow     *flow,
               gboolean              outgoing)
{
  const StrataSliceRef *other = outgoing ? &flow->to : &flow->from;
  const StrataSpanTable *table = strata_trace_get_thread (trace, other->thread)->spans;
  const char *method = strata_trace_get_method_name (trace, table->calls[other->depth][other->index].method);
  g_autofree char *thread = strata_describe_thread (trace, other->thread);
  g_autofree char *text = NULL;
  GtkWidget *button;

  text = outgoing
    /* Translators: a flow arrow to another call: its name and thread */
    ? g_strdup_printf (_("→ %s on %s"), method, thread)
    /* Translators: a flow arrow from another call: its name and thread */
    : g_strdup_printf (_("← %s on %s"), method, thread);
  button = gtk_button_new_with_label (text);
  gtk_widget_set_halign (button, GTK_ALIGN_START);
  gtk_widget_add_css_class (button, "flat");
  g_object_set_data_full (G_OBJECT (button), "call", g_memdup2 (other, sizeof *other), g_free);
  g_signal_connect (button, "clicked", G_CALLBACK (flow_clicked_cb), self);
  gtk_box_append (GTK_BOX (self->box), button);
}

static void
add_flows (StrataEventDetails   *self,
           StrataTrace          *trace,
           const StrataSliceRef *call)
{
  gboolean heading = FALSE;

  for (guint i = 0; i < strata_trace_get_n_flows (trace); i++)
    {
      const StrataFlow *flow = strata_trace_get_flow (trace, i);
      gboolean outgoing = memcmp (&flow->from, call, sizeof *call) == 0;

      if (!outgoing && memcmp (&flow->to, call, sizeof *call) != 0)
        continue;
      if (!heading)
        add_label (self->box, _("Flows"), "heading");
      heading = TRUE;
      add_flow_link (self, trace, flow, outgoing);
    }
}

/* ---- Names too long to show ---- */

/* Under a title clipped for display: how long it is, and the two actions
 * that reach the whole of it. */
static void
add_clipped_note (StrataEventDetails *self)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  g_autofree char *size = g_format_size (strlen (self->whole_title));
  g_autofree char *text = NULL;
  GtkWidget *copy, *show, *note;

  /* Translators: %s is a size such as “16.8 MB” */
  text = g_strdup_printf (_("The name is %s long; it is shortened here."), size);
  note = gtk_label_new (text);
  gtk_label_set_xalign (GTK_LABEL (note), 0);
  gtk_label_set_wrap (GTK_LABEL (note), TRUE);
  gtk_widget_set_hexpand (note, TRUE);
  gtk_widget_add_css_class (note, "dim-label");
  show = gtk_button_new_with_mnemonic (_("_Show Whole Name"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (show), "details.show-whole-name");
  copy = gtk_button_new_with_mnemonic (_("_Copy Whole Name"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (copy), "details.copy-whole-name");
  gtk_box_append (GTK_BOX (row), note);
  gtk_box_append (GTK_BOX (row), show);
  gtk_box_append (GTK_BOX (row), copy);
  gtk_box_append (GTK_BOX (self->box), row);
}

static void
copy_whole_name (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  StrataEventDetails *self = STRATA_EVENT_DETAILS (widget);

  if (self->whole_title != NULL)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), self->whole_title);
}

static GtkWidget *
whole_name_view (const char *name)
{
  gsize len = strlen (name);
  const char *end = len > WHOLE_NAME_SHOWN ? g_utf8_find_prev_char (name, name + WHOLE_NAME_SHOWN) : name + len;
  GtkWidget *view = gtk_text_view_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (view)), name, end - name);
  gtk_text_view_set_editable (GTK_TEXT_VIEW (view), FALSE);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (view), GTK_WRAP_WORD_CHAR);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (view), TRUE);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (view), 12);
  gtk_text_view_set_right_margin (GTK_TEXT_VIEW (view), 12);
  gtk_text_view_set_top_margin (GTK_TEXT_VIEW (view), 12);
  gtk_text_view_set_bottom_margin (GTK_TEXT_VIEW (view), 12);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), view);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (view), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Whole name"), -1);
  return scroller;
}

/* A window with the name as text to read and select; past the first
 * 64 KiB it says how much more there is. */
static void
show_whole_name (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  StrataEventDetails *self = STRATA_EVENT_DETAILS (widget);
  GtkWidget *window, *box;
  GtkEventController *shortcuts;
  GtkRoot *root = gtk_widget_get_root (widget);

  if (self->whole_title == NULL)
    return;
  window = gtk_window_new ();
  gtk_window_set_titlebar (GTK_WINDOW (window), gtk_header_bar_new ());
  gtk_window_set_title (GTK_WINDOW (window), _("Whole Name"));
  gtk_window_set_default_size (GTK_WINDOW (window), 720, 480);
  gtk_window_set_modal (GTK_WINDOW (window), TRUE);
  gtk_window_set_hide_on_close (GTK_WINDOW (window), FALSE);
  if (GTK_IS_WINDOW (root))
    gtk_window_set_transient_for (GTK_WINDOW (window), GTK_WINDOW (root));
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  if (strlen (self->whole_title) > WHOLE_NAME_SHOWN)
    {
      g_autofree char *size = g_format_size (strlen (self->whole_title));
      /* Translators: %s is a size such as “16.8 MB” */
      g_autofree char *text = g_strdup_printf (_("The first 64 KB of %s. Copy Whole Name in the details takes all of it."), size);
      GtkWidget *note = gtk_label_new (text);

      gtk_label_set_wrap (GTK_LABEL (note), TRUE);
      gtk_widget_set_margin_top (note, 8);
      gtk_widget_set_margin_bottom (note, 8);
      gtk_widget_add_css_class (note, "dim-label");
      gtk_box_append (GTK_BOX (box), note);
    }
  gtk_box_append (GTK_BOX (box), whole_name_view (self->whole_title));
  gtk_window_set_child (GTK_WINDOW (window), box);
  /* Escape closes it, as dialogs do. */
  shortcuts = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Escape, 0),
                                                          gtk_named_action_new ("window.close")));
  gtk_event_controller_set_propagation_phase (shortcuts, GTK_PHASE_CAPTURE);
  gtk_widget_add_controller (window, shortcuts);
  gtk_window_present (GTK_WINDOW (window));
}

/* ---- The selected item ---- */

/* The title and fields every view of the item shares. */
static void
show_description (StrataEventDetails *self,
                  StrataDescription  *description)
{
  GtkWidget *grid = gtk_grid_new ();

  g_autofree char *short_title = NULL;

  /* A few lines of a long name, so the note and the fields stay in view. */
  strata_units_clip_to (description->title, TITLE_SHOWN, &short_title);
  gtk_label_set_selectable (GTK_LABEL (add_label (self->box, short_title ? short_title : description->title, "title-4")),
                            FALSE);
  g_clear_pointer (&self->whole_title, g_free);
  if (short_title != NULL)
    {
      /* The description goes away after this: its copy is ours. */
      self->whole_title = g_steal_pointer (&description->title);
      add_clipped_note (self);
    }
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "details.show-whole-name", self->whole_title != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "details.copy-whole-name", self->whole_title != NULL);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
  for (guint i = 0; i < description->fields->len; i++)
    {
      const StrataDescriptionField *field = &g_array_index (description->fields, StrataDescriptionField, i);

      strata_field_grid_add (GTK_GRID (grid), i, field->label, field->value, TRUE);
    }
  gtk_box_append (GTK_BOX (self->box), grid);
}

static void
show_call (StrataEventDetails   *self,
           StrataTrace          *trace,
           const StrataSliceRef *call)
{
  const StrataSpanTable *table = strata_trace_get_thread (trace, call->thread)->spans;

  add_flows (self, trace, call);
  /* A call made from samples has no arguments to read. */
  if (strata_span_table_get_source (table, call->depth, call->index) != STRATA_NO_SOURCE)
    start_reading_args (self, trace, strata_span_table_get_source (table, call->depth, call->index));
}

static void
selected_item_changed_cb (StrataEventDetails *self)
{
  StrataTrace *trace = strata_session_get_trace (self->session);
  StrataSliceRef call;
  guint event;
  StrataSelectedKind kind = strata_session_get_selected_item (self->session, &call, &event);
  g_autoptr(StrataDescription) description = NULL;

  if (self->reading != NULL)
    g_cancellable_cancel (self->reading);
  g_clear_object (&self->reading);
  self->args_box = self->args_status = NULL;
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  gtk_widget_set_margin_start (self->box, 18);
  gtk_widget_set_margin_end (self->box, 18);
  gtk_widget_set_margin_top (self->box, 12);
  gtk_widget_set_margin_bottom (self->box, 12);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), self->box);

  description = strata_session_describe_selected_item (self->session);
  if (description == NULL)
    {
      add_label (self->box, _("Select a call or an event in the timeline to see its details."), "dim-label");
      return;
    }
  show_description (self, description);
  if (kind == STRATA_SELECTED_CALL)
    show_call (self, trace, &call);
  else if (kind == STRATA_SELECTED_EVENT)
    start_reading_args (self, trace, strata_trace_get_event (trace, event)->source);
}

/* ---- For tests and screen readers ---- */

/**
 * strata_event_details_dup_text:
 *
 * Returns: (transfer full): every line the pane shows, in order
 */
char *
strata_event_details_dup_text (StrataEventDetails *self)
{
  g_return_val_if_fail (STRATA_IS_EVENT_DETAILS (self), NULL);

  return strata_accessible_dup_text (self->box);
}

gboolean
strata_event_details_is_reading (StrataEventDetails *self)
{
  g_return_val_if_fail (STRATA_IS_EVENT_DETAILS (self), FALSE);

  return self->reading != NULL;
}

/* ---- GObject ---- */

static void
strata_event_details_dispose (GObject *object)
{
  StrataEventDetails *self = (StrataEventDetails *) object;

  if (self->reading != NULL)
    g_cancellable_cancel (self->reading);
  g_clear_object (&self->reading);
  gtk_widget_dispose_template (GTK_WIDGET (self), STRATA_TYPE_EVENT_DETAILS);
  self->box = self->args_box = self->args_status = NULL;
  g_clear_object (&self->session);
  g_clear_pointer (&self->whole_title, g_free);

  G_OBJECT_CLASS (strata_event_details_parent_class)->dispose (object);
}

static void
strata_event_details_class_init (StrataEventDetailsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strata_event_details_dispose;
  strata_widgets_register_resources ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/stratatrace/Strata/strata-event-details.ui");
  gtk_widget_class_bind_template_child (widget_class, StrataEventDetails, scroller);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "eventdetails");
  gtk_widget_class_install_action (widget_class, "details.show-whole-name", NULL, show_whole_name);
  gtk_widget_class_install_action (widget_class, "details.copy-whole-name", NULL, copy_whole_name);
}

static void
strata_event_details_init (StrataEventDetails *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
strata_event_details_new (StrataSession *session)
{
  StrataEventDetails *self = g_object_new (STRATA_TYPE_EVENT_DETAILS, NULL);

  self->session = g_object_ref (session);
  g_signal_connect_object (session, "selected-item-changed",
                           G_CALLBACK (selected_item_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::trace",
                           G_CALLBACK (selected_item_changed_cb), self, G_CONNECT_SWAPPED);
  selected_item_changed_cb (self);
  return GTK_WIDGET (self);
}
