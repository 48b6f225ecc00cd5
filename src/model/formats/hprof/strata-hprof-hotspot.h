/* strata-hprof-hotspot.h: an instance's size in HotSpot (JDK 8 to 17, 32-
 * and 64-bit), beyond what a heap dump lists
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The VM that wrote a dump, as far as its sizes go. */
typedef struct
{
  guint    ref_size;     /* a reference field: 4 compressed or on 32-bit, else 8 */
  guint    word_size;    /* a VM pointer the VM hides in an object: 4 on 32-bit, else 8 */
  guint    jdk;          /* 7 (or older), 8 or 17 (9 on): what the VM hides and pads */
} HprofHotspotVm;

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

guint    hprof_hotspot_hidden_bytes     (const HprofHotspotVm    *vm,
                                         const char              *klass);
gboolean hprof_hotspot_field_contended  (const HprofHotspotVm    *vm,
                                         const char              *klass,
                                         const char              *field);
guint64  hprof_hotspot_instance_size    (const HprofHotspotVm    *vm,
                                         const HprofHotspotClass *chain,
                                         guint                    n,
                                         guint                    header);

G_END_DECLS
