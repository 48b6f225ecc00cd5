/* strata-screenshot.h: --screenshot, and saving a widget as PNG
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-application.h"
#include "strata-cli-options.h"
#include "strata-window.h"

G_BEGIN_DECLS

typedef struct _StrataScreenshotHarness StrataScreenshotHarness;

gboolean                 strata_screenshot_save                     (GtkWidget               *widget,
                                                                     const char              *path,
                                                                     GError                 **error);

StrataScreenshotHarness *strata_screenshot_harness_new              (StrataApplication       *application,
                                                                     const StrataCliOptions  *options,
                                                                     int                     *exit_status);
void                     strata_screenshot_harness_free             (StrataScreenshotHarness *self);
void                     strata_screenshot_harness_watch            (StrataScreenshotHarness *self,
                                                                     StrataWindow            *window);
void                     strata_screenshot_harness_window_ready     (StrataScreenshotHarness *self,
                                                                     StrataWindow            *window);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrataScreenshotHarness, strata_screenshot_harness_free)

G_END_DECLS
