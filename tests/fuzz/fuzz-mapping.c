/* fuzz-mapping.c: any bytes as a ProGuard or R8 mapping.txt, read and
 * asked for every kind of name
 *
 * Built as a libFuzzer target with -Dfuzzing=true (fuzz-mapping), and as
 * a plain program (fuzz-main.c) that replays the mappings in
 * tests/fuzz/mappings and mutations of them in tests.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>

#include "strata-mapping.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

/* Names a mapping is asked for: what the seeds map, and odd ones. */
static const char *const classes[] = { "a.a", "a.b", "a", "o.a", "", "a.a[]", NULL };
static const char *const members[] = { "a", "b", "zz", "", NULL };
static const char *const descriptors[] = { "()V", "(I)V", "(La/a;)La/b;", "(", NULL };

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(StrataMapping) mapping = strata_mapping_new_for_classes (NULL);
  g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data (size > 0 ? data : (const guint8 *) "", size, NULL);
  g_autofree char *bad = NULL;

  g_assert (strata_mapping_read (mapping, stream, NULL, NULL));
  bad = strata_mapping_describe_bad_lines (mapping);
  g_assert (bad == NULL || g_utf8_validate (bad, -1, NULL));
  (void) strata_mapping_get_id (mapping);
  (void) strata_mapping_get_hash (mapping);
  for (guint c = 0; classes[c] != NULL; c++)
    {
      g_autofree char *type = strata_mapping_type (mapping, classes[c]);

      g_assert (type != NULL);
      (void) strata_mapping_class (mapping, classes[c]);
      (void) strata_mapping_source_file (mapping, classes[c]);
      for (guint m = 0; members[m] != NULL; m++)
        {
          (void) strata_mapping_field (mapping, classes[c], members[m]);
          for (guint d = 0; descriptors[d] != NULL; d++)
            {
              g_autofree char *descriptor = strata_mapping_descriptor (mapping, descriptors[d]);
              g_autofree char *method = strata_mapping_method (mapping, classes[c], members[m], descriptor, -1);
              g_autofree char *at_line = strata_mapping_method (mapping, classes[c], members[m], NULL, 5);

              (void) strata_mapping_has_method (mapping, classes[c], members[m], descriptor);
            }
        }
    }
  return 0;
}
