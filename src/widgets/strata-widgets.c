/* strata-widgets.c: the widget floor's resource bundle
 *
 * The templates and list-item factories live in a bundle of their own,
 * compiled with --manual-register: a static library drops an object that
 * nothing names, so a bundle that registered itself from a constructor
 * would silently be missing. Every widget with a template calls this from
 * its class_init.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-widgets.h"
#include "strata-widgets-resources.h"

void
strata_widgets_register_resources (void)
{
  static gsize registered = 0;

  if (g_once_init_enter (&registered))
    {
      strata_widgets_register_resource ();
      g_once_init_leave (&registered, 1);
    }
}
