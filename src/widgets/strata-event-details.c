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

struct _StrataEventDetails
{
  GtkWidget      parent_instance;

  StrataSession *session;
  GtkWidget     *scroller;
  GtkWidget     *box;           /* everything, rebuilt per selection */
  GtkWidget     *args_box;
  GtkWidget     *args_status;
  GCancellable  *reading;
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
  const char *method = strata_trace_get_method_name (trace, table->spans[other->depth][other->index].method);
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

/* ---- The selected item ---- */

/* The title and fields every view of the item shares. */
static void
show_description (StrataEventDetails      *self,
                  const StrataDescription *description)
{
  GtkWidget *grid = gtk_grid_new ();

  gtk_label_set_selectable (GTK_LABEL (add_label (self->box, description->title, "title-4")), FALSE);
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
  if (table->sources != NULL)
    start_reading_args (self, trace, table->sources[call->depth][call->index]);
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

static void
collect_text (GtkWidget *widget,
              GString   *text)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget))
    g_string_append_printf (text, "%s\n", gtk_label_get_text (GTK_LABEL (widget)));
  if (GTK_IS_EXPANDER (widget))
    g_string_append_printf (text, "%s\n", gtk_expander_get_label (GTK_EXPANDER (widget)));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    if (!GTK_IS_EXPANDER (widget) || child == gtk_expander_get_child (GTK_EXPANDER (widget)))
      collect_text (child, text);
}

/**
 * strata_event_details_dup_text:
 *
 * Returns: (transfer full): every line the pane shows, in order
 */
char *
strata_event_details_dup_text (StrataEventDetails *self)
{
  GString *text = g_string_new (NULL);

  g_return_val_if_fail (STRATA_IS_EVENT_DETAILS (self), NULL);

  collect_text (self->box, text);
  return g_string_free (text, FALSE);
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
