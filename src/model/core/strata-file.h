/* strata-file.h: one way in for every file Strata reads, and no way to
 * write over one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <sys/stat.h>
#include <gio/gio.h>

G_BEGIN_DECLS

int      strata_file_open_regular          (GFile        *file,
                                            const char   *path,
                                            struct stat  *info,
                                            GError      **error);
gboolean strata_file_check_output          (GFile              *file,
                                            const char * const *inputs,
                                            GError            **error);
void     strata_file_error_from            (GError       *local_error,
                                            GError      **error);
void     strata_file_set_not_regular_error (GFile        *file,
                                            GError      **error);

G_END_DECLS
