/* strata-report-groups.c: a heap dump's classes by class loader and by
 * package, for `strata -r`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-heap.h"
#include "strata-heap-groups.h"
#include "strata-report-private.h"

/* Packages past this many are left out of the text (not of the JSON). */
#define MAX_PACKAGES 20

/* Both groupings are summed in one walk down the dominator tree. */
static const StrataHeapGroupBy both[] = { STRATA_HEAP_GROUP_BY_LOADER, STRATA_HEAP_GROUP_BY_PACKAGE };

static void
print_groups (GArray     *groups,
              const char *heading,
              const char *column,
              guint       max)
{
  g_print ("\n%s\n", heading);
  g_print ("%8s %14s %16s %16s  %s\n", _("Classes"), _("Instances"), _("Shallow bytes"), _("Retained bytes"), column);
  for (guint g = 0; g < MIN (groups->len, max); g++)
    {
      const StrataHeapGroup *group = &g_array_index (groups, StrataHeapGroup, g);

      g_print ("%8u %14" G_GUINT64_FORMAT " %16" G_GUINT64_FORMAT " %16" G_GUINT64_FORMAT "  %s\n", group->n_classes,
               group->instances, group->shallow_bytes, group->retained_bytes, group->name);
    }
  if (groups->len > max)
    {
      /* Translators: %u is how many more packages there are than are shown */
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "… and %u more package", "… and %u more packages",
                                                            groups->len - max), groups->len - max);

      g_print ("  %s\n", more);
    }
}

/**
 * strata_report_print_groups:
 *
 * A binary dump's classes summed by class loader, then by package (the
 * most retained first); each group retains its instances' bytes once.
 */
void
strata_report_print_groups (StrataTrace *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  GArray *groups[G_N_ELEMENTS (both)];

  if (heap == NULL || strata_heap_get_graph (heap) == NULL || strata_heap_get_index (heap) == NULL)
    return;
  strata_heap_group_classes_by (trace, both, G_N_ELEMENTS (both), -1, groups);
  print_groups (groups[0], _("Classes by class loader"), _("Class loader"), G_MAXUINT);
  print_groups (groups[1], _("Classes by package"), _("Package"), MAX_PACKAGES);
  g_array_unref (groups[0]);
  g_array_unref (groups[1]);
}

static void
write_json_groups (StrataJsonWriter *json,
                   GArray           *groups,
                   const char       *member)
{
  strata_json_writer_member (json, member);
  strata_json_writer_begin_array (json);
  for (guint g = 0; g < groups->len; g++)
    {
      const StrataHeapGroup *group = &g_array_index (groups, StrataHeapGroup, g);

      strata_json_writer_begin_object (json);
      strata_json_writer_member (json, "name");
      strata_json_writer_string (json, group->name);
      strata_json_writer_member (json, "classes");
      strata_json_writer_uint (json, group->n_classes);
      strata_json_writer_member (json, "instances");
      strata_json_writer_uint (json, group->instances);
      strata_json_writer_member (json, "shallow_bytes");
      strata_json_writer_uint (json, group->shallow_bytes);
      strata_json_writer_member (json, "retained_bytes");
      strata_json_writer_uint (json, group->retained_bytes);
      strata_json_writer_end_object (json);
    }
  strata_json_writer_end_array (json);
}

/**
 * strata_report_write_json_groups:
 *
 * "class_loaders" and "packages" of a binary dump.
 */
void
strata_report_write_json_groups (StrataJsonWriter *json,
                                 StrataTrace      *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  GArray *groups[G_N_ELEMENTS (both)];

  if (heap == NULL || strata_heap_get_graph (heap) == NULL || strata_heap_get_index (heap) == NULL)
    return;
  strata_heap_group_classes_by (trace, both, G_N_ELEMENTS (both), -1, groups);
  write_json_groups (json, groups[0], "class_loaders");
  write_json_groups (json, groups[1], "packages");
  g_array_unref (groups[0]);
  g_array_unref (groups[1]);
}
