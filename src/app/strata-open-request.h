/* strata-open-request.h: what a command line asks of the window a file opens in
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "strata-cli-options.h"
#include "strata-window.h"

G_BEGIN_DECLS

typedef struct _StrataOpenRequest StrataOpenRequest;

typedef void (*StrataOpenRequestDone) (StrataWindow *window,
                                       gpointer      user_data);

StrataOpenRequest *strata_open_request_new   (const StrataCliOptions  *options,
                                              GApplicationCommandLine *command_line);
void               strata_open_request_apply (StrataOpenRequest       *self,
                                              StrataWindow            *window,
                                              StrataOpenRequestDone    done,
                                              gpointer                 user_data);

G_END_DECLS
