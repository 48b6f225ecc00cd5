/* strata-test-gtk.h: helpers shared by the GTK test programs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-application.h"
#include "strata-window.h"

G_BEGIN_DECLS

gboolean           strata_test_init_gtk      (void);
void               strata_test_iterate_until (gboolean (*done) (gpointer),
                                              gpointer   data);
void               strata_test_wait_for_window (StrataWindow *window);
StrataApplication *strata_test_new_app       (void);
void               strata_test_skip_no_display (void);
StrataWindow      *strata_test_only_window   (StrataApplication  *app);
void               strata_test_destroy_windows (StrataApplication *app);
void               strata_test_finish_app    (StrataApplication  *app);
void               strata_test_assert_label_contains (GtkLabel  *label,
                                              const char         *part);
gboolean           strata_test_can_drive_pointer (const char     *xdotool);
void               strata_test_run_xdotool   (const char *const  *args);
GtkWidget         *strata_test_find_widget   (GtkWidget          *widget,
                                              GType               type,
                                              const char         *name);
char              *strata_test_write_events  (const char         *name,
                                              int                 work_us,
                                              const char         *extra);
gboolean           strata_test_compared      (gpointer            session);
void               strata_test_click_widget  (const char         *xdotool,
                                              StrataWindow       *window,
                                              GtkWidget          *widget,
                                              double              x,
                                              double              y,
                                              const char         *button);
GtkWidget         *strata_test_find_mapped   (GtkWidget          *widget,
                                              GType               type);
StrataWindow      *strata_test_open_call_tree_sample (StrataApplication *app);
gboolean           strata_test_call_tree_ready (gpointer           view);

/* The first bytes of a PNG image: a file that is no trace. */
G_GNUC_UNUSED static const char strata_test_png_bytes[] =
  "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0";

G_END_DECLS
