/* strata-import-banner.c
 *
 * A partial load is not an error: the window shows what was loaded and
 * this strip says what the loader repaired or dropped, with a button to
 * the Summary page that lists it all. Never a dialog. It also says when
 * the file changed on disk after it was opened.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-import-banner-private.h"
#include "strata-widgets.h"

struct _StrataImportBanner
{
  GtkWidget      parent_instance;

  StrataSession *session;
  GtkWidget     *revealer;
  GtkWidget     *icon;
  GtkWidget     *label;
  GtkWidget     *details;
};

enum {
  SIGNAL_SHOW_DETAILS,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (StrataImportBanner, strata_import_banner, GTK_TYPE_WIDGET)

static void
details_clicked_cb (StrataImportBanner *self)
{
  g_signal_emit (self, signals[SIGNAL_SHOW_DETAILS], 0);
}

static void
close_clicked_cb (StrataImportBanner *self)
{
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->revealer), FALSE);
}

/**
 * set_trace:
 *
 * Shows the first of @trace's load diagnostics and how many more there
 * are, or hides the banner when the file loaded without any.
 */
static void
set_trace (StrataImportBanner *self,
           StrataTrace        *trace)
{
  guint n = trace != NULL ? strata_trace_get_n_diagnostics (trace) : 0;
  g_autofree char *text = NULL;

  g_return_if_fail (STRATA_IS_IMPORT_BANNER (self));

  if (n == 1)
    text = g_strdup (strata_trace_get_diagnostic (trace, 0));
  else if (n > 1)
    /* Translators: the first repair made while loading, then how many more */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s (and %u more)", "%s (and %u more)", n - 1),
                            strata_trace_get_diagnostic (trace, 0), n - 1);
  gtk_image_set_from_icon_name (GTK_IMAGE (self->icon), "dialog-information-symbolic");
  gtk_widget_set_visible (self->details, TRUE);
  gtk_label_set_label (GTK_LABEL (self->label), text != NULL ? text : "");
  gtk_widget_set_tooltip_text (self->label, text);
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->revealer), n > 0);
  gtk_widget_set_visible (GTK_WIDGET (self), n > 0);
}

/**
 * strata_import_banner_show_warning:
 *
 * Shows @text in place of the repairs, without a way to them: for what
 * happened to the file after it loaded. It stays until a trace is loaded.
 */
void
strata_import_banner_show_warning (StrataImportBanner *self,
                                   const char         *text)
{
  g_return_if_fail (STRATA_IS_IMPORT_BANNER (self));

  gtk_image_set_from_icon_name (GTK_IMAGE (self->icon), "dialog-warning-symbolic");
  gtk_widget_set_visible (self->details, FALSE);
  gtk_label_set_label (GTK_LABEL (self->label), text);
  gtk_widget_set_tooltip_text (self->label, text);
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->revealer), TRUE);
}

static void
trace_changed_cb (StrataImportBanner *self)
{
  set_trace (self, strata_session_get_trace (self->session));
}

/* What the banner says, or NULL when it is hidden. */
const char *
strata_import_banner_get_text (StrataImportBanner *self)
{
  g_return_val_if_fail (STRATA_IS_IMPORT_BANNER (self), NULL);

  if (!gtk_revealer_get_reveal_child (GTK_REVEALER (self->revealer)))
    return NULL;
  return gtk_label_get_label (GTK_LABEL (self->label));
}

static void
strata_import_banner_dispose (GObject *object)
{
  StrataImportBanner *self = STRATA_IMPORT_BANNER (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), STRATA_TYPE_IMPORT_BANNER);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (strata_import_banner_parent_class)->dispose (object);
}

static void
strata_import_banner_class_init (StrataImportBannerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = strata_import_banner_dispose;

  /**
   * StrataImportBanner::show-details:
   *
   * The user asked for the full list of repairs.
   */
  signals[SIGNAL_SHOW_DETAILS] = g_signal_new ("show-details", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                               0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  strata_widgets_register_resources ();
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/stratatrace/Strata/strata-import-banner.ui");
  gtk_widget_class_bind_template_child (widget_class, StrataImportBanner, revealer);
  gtk_widget_class_bind_template_child (widget_class, StrataImportBanner, icon);
  gtk_widget_class_bind_template_child (widget_class, StrataImportBanner, label);
  gtk_widget_class_bind_template_child (widget_class, StrataImportBanner, details);
  gtk_widget_class_bind_template_callback (widget_class, details_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, close_clicked_cb);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_STATUS);
  gtk_widget_class_set_css_name (widget_class, "strataimportbanner");
}

static void
strata_import_banner_init (StrataImportBanner *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
strata_import_banner_new (StrataSession *session)
{
  StrataImportBanner *self;

  g_return_val_if_fail (STRATA_IS_SESSION (session), NULL);

  self = g_object_new (STRATA_TYPE_IMPORT_BANNER, NULL);
  self->session = g_object_ref (session);
  g_signal_connect_object (session, "notify::trace", G_CALLBACK (trace_changed_cb), self, G_CONNECT_SWAPPED);
  trace_changed_cb (self);
  return GTK_WIDGET (self);
}
