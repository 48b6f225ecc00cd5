/* strata-session.h: what one window is looking at
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "strata-trace.h"

G_BEGIN_DECLS

#define STRATA_TYPE_SESSION (strata_session_get_type ())

G_DECLARE_FINAL_TYPE (StrataSession, strata_session, STRATA, SESSION, GObject)

StrataSession *strata_session_new       (void);
StrataTrace   *strata_session_get_trace (StrataSession *self);
void           strata_session_set_trace (StrataSession *self,
                                         StrataTrace   *trace);

G_END_DECLS
