/* strata-cli-options.h: the one table of command-line options
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "strata-trace.h"

G_BEGIN_DECLS

/* Exit statuses of every command (documented in --help and the README). */
#define STRATA_EXIT_OK          0
#define STRATA_EXIT_UNREADABLE  1   /* a file could not be read */
#define STRATA_EXIT_USAGE       2   /* the command asks for what cannot be */
#define STRATA_EXIT_GATE_BROKEN 3   /* a --fail-if rule was broken */

typedef enum
{
  STRATA_CLI_WINDOW,
  STRATA_CLI_REPORT,
  STRATA_CLI_EXPORT,
} StrataCliMode;

/* Every option of `strata`, whatever it runs: a window, a report or an
 * export. Unset strings are NULL, unset numbers -1. */
typedef struct
{
  gboolean   version;
  gboolean   help;
  /* Viewing */
  char      *view;
  char      *range;
  char      *select;
  gboolean   details;
  char      *find;
  char      *compare;
  char      *mapping;
  char      *screenshot;
  char      *size;
  /* Reports */
  gboolean   report;
  char      *format;
  char      *tree;
  int        depth;
  char      *clock;
  int        top;
  gboolean   follow_weak;
  gboolean   strict_mapping;
  /* Comparing */
  char      *diff;
  char     **fail_if;
  char      *baseline_mapping;
  char      *match;
  /* Exporting */
  char      *export_path;
  char      *theme;

  char     **files;
} StrataCliOptions;

void           strata_cli_options_init        (StrataCliOptions  *self);
void           strata_cli_options_clear       (StrataCliOptions  *self);
gboolean       strata_cli_options_parse       (StrataCliOptions  *self,
                                               char             **argv,
                                               GError           **error);
StrataCliMode  strata_cli_options_get_mode    (const StrataCliOptions *self);
gboolean       strata_cli_options_check       (const StrataCliOptions *self,
                                               GError           **error);
guint          strata_cli_choose_clock        (StrataTrace      *trace,
                                               const char       *name);
gboolean       strata_cli_options_wants_help  (char             **argv);
char          *strata_cli_options_help        (void);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (StrataCliOptions, strata_cli_options_clear)

G_END_DECLS
