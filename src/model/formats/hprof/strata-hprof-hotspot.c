/* strata-hprof-hotspot.c: an instance's size in HotSpot (JDK 17), beyond
 * what a heap dump lists
 *
 * A dump lists the fields a class declares. The VM adds fields of its own
 * (javaClasses.hpp) and, for the JDK's classes annotated @Contended,
 * padding of ContendedPaddingWidth (128) bytes: around the whole class
 * when the class is annotated, before a group of annotated fields, and
 * after the last (fieldLayoutBuilder.cpp). VisualVM and MAT leave both
 * out; jcmd GC.class_histogram counts them, and so does Strata. The
 * classes and groups are JDK 17's, found by their annotation in java.base;
 * each has at most one group. Fields of a padded region start where the
 * padding ends, aligned to the largest of them, and fill no hole before.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-hprof-hotspot.h"

#define CONTENDED_PADDING 128

typedef struct
{
  const char *klass;
  gboolean    whole_class;    /* @Contended on the class */
  const char *group[4];       /* the fields of its one @Contended("…") group */
} ContendedClass;

static const ContendedClass contended[] = {
  { "java.lang.Thread", FALSE,
    { "threadLocalRandomSeed", "threadLocalRandomProbe", "threadLocalRandomSecondarySeed" } },
  { "java.util.concurrent.ForkJoinPool", FALSE, { "ctl" } },
  { "java.util.concurrent.ForkJoinPool$WorkQueue", FALSE, { "top", "source", "nsteals" } },
  { "java.util.concurrent.SubmissionPublisher$BufferedSubscription", TRUE, { "demand", "waiting" } },
  { "java.util.concurrent.atomic.Striped64$Cell", TRUE, { NULL } },
  { "java.util.concurrent.ConcurrentHashMap$CounterCell", TRUE, { NULL } },
  { "java.util.concurrent.Exchanger$Node", TRUE, { NULL } },
};

static const ContendedClass *
find_contended (const char *klass)
{
  for (guint i = 0; i < G_N_ELEMENTS (contended); i++)
    if (strcmp (klass, contended[i].klass) == 0)
      return &contended[i];
  return NULL;
}

/**
 * hprof_hotspot_hidden_bytes:
 *
 * Returns: the bytes the VM adds to instances of @klass in fields of its
 *   own (javaClasses.hpp)
 */
guint
hprof_hotspot_hidden_bytes (const char *klass,
                            guint       ref_size)
{
  static const struct { const char *name; guint bytes; guint refs; } hidden[] = {
    { "java.lang.Class", 8 + 8 + 4 + 4, 3 },   /* klass, array_klass, oop_size, static_oop_field_count; protection_domain, signers, source_file */
    { "java.lang.ClassLoader", 8, 0 },          /* loader_data */
    { "java.lang.Module", 8, 0 },               /* module_entry */
    { "java.lang.Throwable", 4, 0 },            /* depth */
    { "java.lang.invoke.MemberName", 8, 0 },    /* vmindex */
    { "java.lang.invoke.ResolvedMethodName", 8, 1 },  /* vmtarget; vmholder */
    { "java.lang.invoke.MethodHandleNatives$CallSiteContext", 16, 0 },  /* vmdependencies, last_cleanup */
  };

  for (guint i = 0; i < G_N_ELEMENTS (hidden); i++)
    if (strcmp (klass, hidden[i].name) == 0)
      return hidden[i].bytes + hidden[i].refs * ref_size;
  return 0;
}

/* Whether @field of @klass is in the class's @Contended group. */
gboolean
hprof_hotspot_field_contended (const char *klass,
                               const char *field)
{
  const ContendedClass *c = find_contended (klass);

  for (guint i = 0; c != NULL && i < G_N_ELEMENTS (c->group) && c->group[i] != NULL; i++)
    if (strcmp (field, c->group[i]) == 0)
      return TRUE;
  return FALSE;
}

static guint64
align_up (guint64 offset,
          guint   alignment)
{
  alignment = MAX (alignment, 1);
  return (offset + alignment - 1) / alignment * alignment;
}

/**
 * hprof_hotspot_instance_size:
 * @chain: the instance's class first, then its superclasses
 *
 * Returns: the instance's size: its fields from @header on, each class's
 *   after its superclass's, padded where the JDK asks
 */
guint64
hprof_hotspot_instance_size (const HprofHotspotClass *chain,
                             guint                    n,
                             guint                    header)
{
  guint64 end = header;
  gboolean after_padding = FALSE;

  for (guint k = n; k-- > 0;)
    {
      const HprofHotspotClass *c = &chain[k];
      const ContendedClass *padded = find_contended (c->name);

      /* Fields after a padded class fill none of its holes. */
      if (after_padding)
        end = align_up (end, 8);
      after_padding = padded != NULL;
      if (padded == NULL)
        {
          end += c->root_bytes + c->group_bytes;
          continue;
        }
      if (padded->whole_class)
        end = align_up (end + CONTENDED_PADDING, c->root_max) + c->root_bytes;
      else
        end += c->root_bytes;
      if (c->group_bytes > 0)
        end = align_up (end + CONTENDED_PADDING, c->group_max) + c->group_bytes;
      end += CONTENDED_PADDING;
    }
  return align_up (end, 8);
}
