/* strata-loader.h: opening a file as a trace, in a worker thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "strata-trace.h"

G_BEGIN_DECLS

#define STRATA_TYPE_LOADER (strata_loader_get_type ())

G_DECLARE_FINAL_TYPE (StrataLoader, strata_loader, STRATA, LOADER, GObject)

StrataLoader *strata_loader_new          (GFile                *file);
GFile        *strata_loader_get_file     (StrataLoader         *self);
double        strata_loader_get_fraction (StrataLoader         *self);
void          strata_loader_set_follow_weak (StrataLoader      *self,
                                          gboolean              follow);
char         *strata_loader_dup_message  (StrataLoader         *self);
void          strata_loader_load_async   (StrataLoader         *self,
                                          GCancellable         *cancellable,
                                          GAsyncReadyCallback   callback,
                                          gpointer              user_data);
StrataTrace  *strata_loader_load_finish  (StrataLoader         *self,
                                          GAsyncResult         *result,
                                          GError              **error);
StrataTrace  *strata_loader_load         (StrataLoader         *self,
                                          GCancellable         *cancellable,
                                          GError              **error);

StrataTrace  *strata_loader_load_bytes   (StrataLoader         *self,
                                          GBytes               *bytes,
                                          GCancellable         *cancellable,
                                          GError              **error);

G_END_DECLS
