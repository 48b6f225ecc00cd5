/* strata-cell-text.c: one line of text in a table cell, cheap to refill
 *
 * A profile table keeps a couple of hundred rows of a dozen cells alive
 * and refills them all on every sort or filter. A GtkLabel re-measures
 * itself, and with it the whole row, each time its text changes; this
 * cell has the height of one line whatever it shows, so new text only
 * needs drawing. Numbers use tabular figures and, by default, sit at the
 * right.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-cell-text.h"
#include "strata-units.h"
#include "strata-widget-color.h"

struct _StrataCellText
{
  GtkWidget    parent_instance;

  char               *text;
  PangoLayout        *layout;   /* made when first needed; dropped when the style changes */
  float               xalign;
  PangoEllipsizeMode  ellipsize;
};

G_DEFINE_FINAL_TYPE (StrataCellText, strata_cell_text, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_XALIGN,
  PROP_ELLIPSIZE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static PangoLayout *
ensure_layout (StrataCellText *self)
{
  if (self->layout == NULL)
    {
      PangoAttrList *attrs = pango_attr_list_new ();

      pango_attr_list_insert (attrs, pango_attr_font_features_new ("tnum"));
      self->layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), self->text);
      pango_layout_set_attributes (self->layout, attrs);
      pango_layout_set_ellipsize (self->layout, self->ellipsize);
      pango_attr_list_unref (attrs);
    }
  return self->layout;
}

/* The height of a line in @widget's font; the answer for the last font
 * asked about is kept, as every cell of a table has the same one. */
static int
line_height (GtkWidget *widget)
{
  static PangoFontDescription *last_font;
  static int last_height;
  PangoContext *context = gtk_widget_get_pango_context (widget);
  const PangoFontDescription *font = pango_context_get_font_description (context);

  if (last_font == NULL || !pango_font_description_equal (font, last_font))
    {
      PangoFontMetrics *metrics = pango_context_get_metrics (context, font, NULL);

      g_clear_pointer (&last_font, pango_font_description_free);
      last_font = pango_font_description_copy (font);
      last_height = PANGO_PIXELS_CEIL (pango_font_metrics_get_height (metrics));
      pango_font_metrics_unref (metrics);
    }
  return last_height;
}

/* The height of one line whatever the text, and no width of its own (the
 * table's columns have theirs): new text never re-measures the row, and
 * nothing is laid out until it is drawn. */
static void
strata_cell_text_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = 0;
  else
    *minimum = *natural = line_height (widget);
}

static void
strata_cell_text_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  StrataCellText *self = STRATA_CELL_TEXT (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  PangoLayout *layout = ensure_layout (self);
  PangoRectangle logical;
  GdkRGBA color;

  if (self->text == NULL || *self->text == '\0' || width <= 0)
    return;

  pango_layout_set_width (layout, width * PANGO_SCALE);
  pango_layout_get_pixel_extents (layout, NULL, &logical);
  strata_widget_get_color (widget, &color);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (MAX (0, width - logical.width) * self->xalign - logical.x,
                                                          (height - logical.height) / 2));
  gtk_snapshot_append_layout (snapshot, layout, &color);
  gtk_snapshot_restore (snapshot);
}

static void
strata_cell_text_css_changed (GtkWidget         *widget,
                              GtkCssStyleChange *change)
{
  StrataCellText *self = STRATA_CELL_TEXT (widget);

  GTK_WIDGET_CLASS (strata_cell_text_parent_class)->css_changed (widget, change);
  /* Fonts may have changed: make the layout again when next needed. */
  g_clear_object (&self->layout);
  gtk_widget_queue_resize (widget);
}

static void
strata_cell_text_finalize (GObject *object)
{
  StrataCellText *self = (StrataCellText *)object;

  g_clear_object (&self->layout);
  g_clear_pointer (&self->text, g_free);

  G_OBJECT_CLASS (strata_cell_text_parent_class)->finalize (object);
}

static void
strata_cell_text_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  StrataCellText *self = STRATA_CELL_TEXT (object);

  switch (prop_id)
    {
    case PROP_XALIGN:
      g_value_set_float (value, self->xalign);
      break;
    case PROP_ELLIPSIZE:
      g_value_set_enum (value, self->ellipsize);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strata_cell_text_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  StrataCellText *self = STRATA_CELL_TEXT (object);

  switch (prop_id)
    {
    case PROP_XALIGN:
      strata_cell_text_set_xalign (self, g_value_get_float (value));
      break;
    case PROP_ELLIPSIZE:
      strata_cell_text_set_ellipsize (self, g_value_get_enum (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strata_cell_text_class_init (StrataCellTextClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = strata_cell_text_finalize;
  object_class->get_property = strata_cell_text_get_property;
  object_class->set_property = strata_cell_text_set_property;

  properties[PROP_XALIGN] = g_param_spec_float ("xalign", NULL, NULL, 0, 1, 1,
                                                G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ELLIPSIZE] = g_param_spec_enum ("ellipsize", NULL, NULL,
                                                  PANGO_TYPE_ELLIPSIZE_MODE, PANGO_ELLIPSIZE_END,
                                                  G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  widget_class->measure = strata_cell_text_measure;
  widget_class->snapshot = strata_cell_text_snapshot;
  widget_class->css_changed = strata_cell_text_css_changed;

  gtk_widget_class_set_css_name (widget_class, "celltext");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_LABEL);
}

static void
strata_cell_text_init (StrataCellText *self)
{
  self->xalign = 1.0;
  self->ellipsize = PANGO_ELLIPSIZE_END;
}

/* 0 puts the text at the start, 1 (the default) at the end. */
void
strata_cell_text_set_xalign (StrataCellText *self,
                             float           xalign)
{
  g_return_if_fail (STRATA_IS_CELL_TEXT (self));

  xalign = CLAMP (xalign, 0, 1);
  if (self->xalign == xalign)
    return;
  self->xalign = xalign;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_XALIGN]);
}

void
strata_cell_text_set_ellipsize (StrataCellText     *self,
                                PangoEllipsizeMode  ellipsize)
{
  g_return_if_fail (STRATA_IS_CELL_TEXT (self));

  if (self->ellipsize == ellipsize)
    return;
  self->ellipsize = ellipsize;
  if (self->layout != NULL)
    pango_layout_set_ellipsize (self->layout, ellipsize);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ELLIPSIZE]);
}

GtkWidget *
strata_cell_text_new (void)
{
  return g_object_new (STRATA_TYPE_CELL_TEXT, NULL);
}

const char *
strata_cell_text_get_text (StrataCellText *self)
{
  g_return_val_if_fail (STRATA_IS_CELL_TEXT (self), NULL);

  return self->text ? self->text : "";
}

void
strata_cell_text_set_text (StrataCellText *self,
                           const char     *text)
{
  g_autofree char *clipped = NULL;

  g_return_if_fail (STRATA_IS_CELL_TEXT (self));

  /* Clipped once: the layout, the tooltip and screen readers all get it. */
  text = strata_units_clip_for_display (text, &clipped);
  if (g_strcmp0 (self->text, text) == 0)
    return;
  g_free (self->text);
  self->text = g_strdup (text);
  if (self->layout != NULL)
    pango_layout_set_text (self->layout, self->text ? self->text : "", -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, self->text ? self->text : "", -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
