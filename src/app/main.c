/* main.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <glib/gi18n.h>

#include "strata-application.h"
#include "strata-memory.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(StrataApplication) app = NULL;
  int status;

  strata_memory_tune_allocator ();
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  g_set_application_name (_("Strata"));

  app = strata_application_new ();
  status = g_application_run (G_APPLICATION (app), argc, argv);

  return status != 0 ? status : strata_application_get_exit_status (app);
}
