/* strata-v8-text.h: V8 profile arrays read straight from the text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-json-scan.h"
#include "strata-v8-profile.h"

G_BEGIN_DECLS

StrataJsonStatus strata_v8_read_integer  (const char  *p,
                                          const char  *end,
                                          gint64       fallback,
                                          gint64      *value,
                                          const char **value_end);
typedef gboolean (*StrataV8IntegersFunc) (const gint64 *values,
                                          guint         n,
                                          const char   *at,
                                          gpointer      data);

StrataJsonStatus strata_v8_read_integers_with (const char          *p,
                                               const char          *end,
                                               gint64               fallback,
                                               StrataV8IntegersFunc func,
                                               gpointer             data,
                                               const char         **array_end);
StrataJsonStatus strata_v8_read_integers (const char  *p,
                                          const char  *end,
                                          GArray      *out,
                                          gint64       fallback,
                                          const char **array_end);
gboolean         strata_v8_profile_add_nodes_text (StrataV8Profile *profile,
                                                   const char      *p,
                                                   const char      *end);

G_END_DECLS
