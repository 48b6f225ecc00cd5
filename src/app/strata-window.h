/* strata-window.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "strata-session.h"

G_BEGIN_DECLS

#define STRATA_TYPE_WINDOW (strata_window_get_type ())

G_DECLARE_FINAL_TYPE (StrataWindow, strata_window, STRATA, WINDOW, GtkApplicationWindow)

StrataWindow  *strata_window_new            (GtkApplication *application);
void           strata_window_open           (StrataWindow   *self,
                                             GFile          *file);
void           strata_window_open_or_new    (StrataWindow   *self,
                                             GFile          *file);
gboolean       strata_window_get_busy       (StrataWindow   *self);
void           strata_window_compare_with   (StrataWindow   *self,
                                             GFile          *file);
gboolean       strata_window_get_comparing  (StrataWindow   *self);
void           strata_window_deobfuscate    (StrataWindow   *self,
                                             GFile          *mapping);
void           strata_window_remove_mapping (StrataWindow   *self);
gboolean       strata_window_get_mapping_busy (StrataWindow *self);
gboolean       strata_window_is_empty       (StrataWindow   *self);
const char    *strata_window_get_page       (StrataWindow   *self);
StrataSession *strata_window_get_session    (StrataWindow   *self);
gboolean       strata_window_show_call_tree (StrataWindow   *self,
                                             const char     *view);
void           strata_window_show_longest_call (StrataWindow *self);
void           strata_window_show_calls     (StrataWindow   *self);
gboolean       strata_window_find           (StrataWindow   *self,
                                             const char     *text);
gboolean       strata_window_select_method  (StrataWindow   *self,
                                             const char     *text);
void           strata_window_check_file_changed (StrataWindow *self);
void           strata_window_set_fixed_size (StrataWindow   *self,
                                             int             width,
                                             int             height);

G_END_DECLS
