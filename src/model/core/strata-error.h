/* strata-error.h: why a file could not be loaded
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define STRATA_LOAD_ERROR (strata_load_error_quark ())

/* File-system failures (not found, permission, folder) are reported with
 * G_IO_ERROR codes; these cover what the content itself is. */
typedef enum
{
  STRATA_LOAD_ERROR_EMPTY,
  STRATA_LOAD_ERROR_NOT_REGULAR,
  STRATA_LOAD_ERROR_UNKNOWN_FORMAT,
  STRATA_LOAD_ERROR_NOT_A_TRACE,
  STRATA_LOAD_ERROR_UNSUPPORTED,
  STRATA_LOAD_ERROR_TRUNCATED,
  STRATA_LOAD_ERROR_CORRUPT,
  STRATA_LOAD_ERROR_TOO_LARGE,
} StrataLoadError;

GQuark strata_load_error_quark (void);

G_END_DECLS
