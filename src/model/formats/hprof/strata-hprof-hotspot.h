/* strata-hprof-hotspot.h: an instance's size in HotSpot (JDK 17), beyond
 * what a heap dump lists
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One class of an instance's chain, its fields summed as the VM holds
 * them. */
typedef struct
{
  const char *name;
  guint64     root_bytes;    /* fields outside a @Contended group, and the VM's hidden ones */
  guint       root_max;      /* the largest of them */
  guint64     group_bytes;   /* the fields of its @Contended group */
  guint       group_max;
} HprofHotspotClass;

guint    hprof_hotspot_hidden_bytes     (const char              *klass,
                                         guint                    ref_size);
gboolean hprof_hotspot_field_contended  (const char              *klass,
                                         const char              *field);
guint64  hprof_hotspot_instance_size    (const HprofHotspotClass *chain,
                                         guint                    n,
                                         guint                    header);

G_END_DECLS
