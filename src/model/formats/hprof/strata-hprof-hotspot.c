/* strata-hprof-hotspot.c: an instance's size in HotSpot (JDK 8 to 17, 32-
 * and 64-bit), beyond what a heap dump lists
 *
 * A dump lists the fields a class declares. The VM adds fields of its own
 * (javaClasses.hpp: pointers to its own structures, word-sized, and a few
 * ints and references) and, for the JDK's classes annotated @Contended,
 * padding of ContendedPaddingWidth (128) bytes: around the whole class
 * when the class is annotated, before a group of annotated fields, and
 * after the last (fieldLayoutBuilder.cpp; classFileParser.cpp in JDK 8).
 * VisualVM and MAT leave both out; jcmd GC.class_histogram counts them,
 * and so does Strata. Both differ between JDK 8 (sun.misc.Contended,
 * MemberName's vmtarget and vmloader, Class's init_lock) and JDK 9 on
 * (jdk.internal.vm.annotation.Contended, Module, Throwable's depth): the
 * tables below are JDK 8's and JDK 17's, found by the annotation in
 * rt.jar and java.base; JDK 7 and older had neither (the class mirror's
 * hidden fields lived in the permanent generation then). Each class has
 * at most one group. Fields of a
 * padded region start where the padding ends, aligned to the largest of
 * them, and fill no hole before.
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

static const ContendedClass contended_jdk17[] = {
  { "java.lang.Thread", FALSE,
    { "threadLocalRandomSeed", "threadLocalRandomProbe", "threadLocalRandomSecondarySeed" } },
  { "java.util.concurrent.ForkJoinPool", FALSE, { "ctl" } },
  { "java.util.concurrent.ForkJoinPool$WorkQueue", FALSE, { "top", "source", "nsteals" } },
  { "java.util.concurrent.SubmissionPublisher$BufferedSubscription", TRUE, { "demand", "waiting" } },
  { "java.util.concurrent.atomic.Striped64$Cell", TRUE, { NULL } },
  { "java.util.concurrent.ConcurrentHashMap$CounterCell", TRUE, { NULL } },
  { "java.util.concurrent.Exchanger$Node", TRUE, { NULL } },
  { NULL, FALSE, { NULL } },
};

static const ContendedClass contended_jdk8[] = {
  { "java.lang.Thread", FALSE,
    { "threadLocalRandomSeed", "threadLocalRandomProbe", "threadLocalRandomSecondarySeed" } },
  { "java.util.concurrent.ForkJoinPool", TRUE, { NULL } },
  { "java.util.concurrent.ForkJoinPool$WorkQueue", TRUE, { NULL } },
  { "java.util.concurrent.atomic.Striped64$Cell", TRUE, { NULL } },
  { "java.util.concurrent.ConcurrentHashMap$CounterCell", TRUE, { NULL } },
  { "java.util.concurrent.Exchanger$Node", TRUE, { NULL } },
  { NULL, FALSE, { NULL } },
};

static const ContendedClass *
find_contended (const HprofHotspotVm *vm,
                const char           *klass)
{
  if (vm->jdk < 8)
    return NULL;
  for (const ContendedClass *c = vm->jdk == 8 ? contended_jdk8 : contended_jdk17; c->klass != NULL; c++)
    if (strcmp (klass, c->klass) == 0)
      return c;
  return NULL;
}

/* The fields the VM injects into instances of a class: VM pointers
 * (intptr), ints, longs and references. */
typedef struct
{
  const char *klass;
  guint8      words, ints, longs, refs;
} HiddenFields;

static const HiddenFields hidden_jdk17[] = {
  /* klass, array_klass; oop_size, static_oop_field_count; protection_domain, signers, source_file */
  { "java.lang.Class", 2, 2, 0, 3 },
  { "java.lang.ClassLoader", 1, 0, 0, 0 },           /* loader_data */
  { "java.lang.Module", 1, 0, 0, 0 },                /* module_entry */
  { "java.lang.Throwable", 0, 1, 0, 0 },             /* depth */
  { "java.lang.invoke.MemberName", 1, 0, 0, 0 },     /* vmindex */
  { "java.lang.invoke.ResolvedMethodName", 1, 0, 0, 1 },  /* vmtarget; vmholder */
  { "java.lang.invoke.MethodHandleNatives$CallSiteContext", 1, 0, 1, 0 },  /* vmdependencies; last_cleanup */
  { NULL, 0, 0, 0, 0 },
};

static const HiddenFields hidden_jdk8[] = {
  /* klass, array_klass; oop_size, static_oop_field_count; protection_domain, init_lock, signers */
  { "java.lang.Class", 2, 2, 0, 3 },
  { "java.lang.ClassLoader", 1, 0, 0, 0 },           /* loader_data */
  { "java.lang.invoke.MemberName", 2, 0, 0, 1 },     /* vmindex, vmtarget; vmloader */
  { NULL, 0, 0, 0, 0 },
};

/**
 * hprof_hotspot_hidden_bytes:
 *
 * Returns: the bytes the VM adds to instances of @klass in fields of its
 *   own (javaClasses.hpp)
 */
guint
hprof_hotspot_hidden_bytes (const HprofHotspotVm *vm,
                            const char           *klass)
{
  if (vm->jdk < 8)
    return 0;
  for (const HiddenFields *h = vm->jdk == 8 ? hidden_jdk8 : hidden_jdk17; h->klass != NULL; h++)
    if (strcmp (klass, h->klass) == 0)
      return h->words * vm->word_size + h->ints * 4 + h->longs * 8 + h->refs * vm->ref_size;
  return 0;
}

/* Whether @field of @klass is in the class's @Contended group. */
gboolean
hprof_hotspot_field_contended (const HprofHotspotVm *vm,
                               const char           *klass,
                               const char           *field)
{
  const ContendedClass *c = find_contended (vm, klass);

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
hprof_hotspot_instance_size (const HprofHotspotVm    *vm,
                             const HprofHotspotClass *chain,
                             guint                    n,
                             guint                    header)
{
  guint64 end = header;
  gboolean after_padding = FALSE;

  for (guint k = n; k-- > 0;)
    {
      const HprofHotspotClass *c = &chain[k];
      const ContendedClass *padded = find_contended (vm, c->name);

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
      /* A class of another JDK may lack the group: then nothing is padded. */
      if (padded->whole_class || c->group_bytes > 0)
        end += CONTENDED_PADDING;
    }
  return align_up (end, 8);
}
