/* test-hprof-sizes.c: heap dumps sized as the VM that wrote them
 *
 * Dumps with 4-byte ids come from ART, from a 32-bit HotSpot VM or from
 * the JDK's hprof agent: each is written here by hand, and its objects'
 * sizes worked out by hand from the VM's layout.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "strata-heap.h"
#include "strata-heap-graph.h"
#include "hprof-writer.h"
#include "strata-test-model.h"
#include "strata-trace.h"

#define put_u1(out, value) hprof_writer_put ((out), (value), 1)
#define put_u2(out, value) hprof_writer_put ((out), (value), 2)
#define put_u4(out, value) hprof_writer_put ((out), (value), 4)
#define put_record hprof_writer_put_record

/* LOAD CLASS and CLASS DUMP of class @id: @fields are "name:type", the
 * class dump's instance size is @instance_size (HotSpot: the fields'
 * bytes; ART: the object's, header included). */
static void
put_class (GByteArray  *out,
           GByteArray  *dump,
           guint32      id,
           const char  *name,
           guint32      super,
           guint32      instance_size,
           const char **fields)
{
  g_autoptr(GByteArray) body = g_byte_array_new ();
  guint n_fields = fields != NULL ? g_strv_length ((char **) fields) : 0;

  hprof_writer_put_name (out, id + 0x100000, name);
  put_u4 (body, id);
  put_u4 (body, id);
  put_u4 (body, 0);
  put_u4 (body, id + 0x100000);
  put_record (out, 0x02, body);

  put_u1 (dump, 0x20);
  put_u4 (dump, id);
  put_u4 (dump, 0);
  put_u4 (dump, super);
  for (guint i = 0; i < 5; i++)
    put_u4 (dump, 0);
  put_u4 (dump, instance_size);
  put_u2 (dump, 0);
  put_u2 (dump, 0);
  put_u2 (dump, n_fields);
  for (guint i = 0; i < n_fields; i++)
    {
      g_auto(GStrv) parts = g_strsplit (fields[i], ":", 2);

      hprof_writer_put_name (out, id * 16 + 0x200000 + i, parts[0]);
      put_u4 (dump, id * 16 + 0x200000 + i);
      put_u1 (dump, atoi (parts[1]));
    }
}

/* An instance of @klass with @n_bytes of zeros as its fields. */
static void
put_instance (GByteArray *dump,
              guint32     id,
              guint32     klass,
              guint32     n_bytes)
{
  put_u1 (dump, 0x21);
  put_u4 (dump, id);
  put_u4 (dump, 0);
  put_u4 (dump, klass);
  put_u4 (dump, n_bytes);
  for (guint i = 0; i < n_bytes; i++)
    put_u1 (dump, 0);
}

static void
put_primitive_array (GByteArray *dump,
                     guint32     id,
                     guint8      type,
                     guint32     length,
                     guint       element_size)
{
  put_u1 (dump, 0x23);
  put_u4 (dump, id);
  put_u4 (dump, 0);
  put_u4 (dump, length);
  put_u1 (dump, type);
  for (guint i = 0; i < length * element_size; i++)
    put_u1 (dump, 0);
}

static void
put_root (GByteArray *dump,
          guint32     id)
{
  put_u1 (dump, 0x05);
  put_u4 (dump, id);
}

enum { OBJECT = 0x1000, STRING, BOOLEAN, LOADER, NODE, VM_RUNTIME };
enum { A_STRING = 0x2000, A_BOOLEAN, A_LOADER, AN_OBJECT, LONGS, INTS };

/* JDK 8's classes (HashMap$Node says JDK 8) with a 32-bit VM's ids; with
 * @art, ART's dalvik.system.VMRuntime too, its class dumps' sizes ART's. */
static GBytes *
write_dump (const char *header,
            gboolean    art)
{
  GByteArray *out = g_byte_array_new ();
  g_autoptr(GByteArray) dump = g_byte_array_new ();
  const char *string_fields[] = { "value:2", "hash:10", NULL };
  const char *boolean_fields[] = { "value:4", NULL };
  const char *loader_fields[] = { "parent:2", NULL };
  const char *node_fields[] = { "hash:10", "key:2", "value:2", "next:2", NULL };

  g_byte_array_append (out, (const guint8 *) header, strlen (header) + 1);
  put_u4 (out, 4);
  put_u4 (out, 0);
  put_u4 (out, 0);
  put_class (out, dump, OBJECT, "java/lang/Object", 0, art ? 8 : 0, NULL);
  put_class (out, dump, STRING, "java/lang/String", OBJECT, art ? 20 : 8, string_fields);
  put_class (out, dump, BOOLEAN, "java/lang/Boolean", OBJECT, art ? 9 : 1, boolean_fields);
  put_class (out, dump, LOADER, "java/lang/ClassLoader", OBJECT, art ? 12 : 4, loader_fields);
  put_class (out, dump, NODE, "java/util/HashMap$Node", OBJECT, art ? 24 : 16, node_fields);
  if (art)
    put_class (out, dump, VM_RUNTIME, "dalvik/system/VMRuntime", OBJECT, 8, NULL);
  put_instance (dump, A_STRING, STRING, 8);
  put_instance (dump, A_BOOLEAN, BOOLEAN, 1);
  put_instance (dump, A_LOADER, LOADER, 4);
  put_instance (dump, AN_OBJECT, OBJECT, 0);
  put_primitive_array (dump, LONGS, 11, 3, 8);
  put_primitive_array (dump, INTS, 10, 3, 4);
  for (guint32 id = A_STRING; id <= INTS; id++)
    put_root (dump, id);
  put_record (out, 0x0C, dump);
  return g_byte_array_free_to_bytes (out);
}

static guint64
shallow_of (StrataTrace *trace,
            guint64      id)
{
  StrataHeapGraph *graph = strata_heap_get_graph (strata_trace_get_heap (trace));

  return strata_heap_graph_get_shallow (graph, strata_heap_graph_lookup (graph, id));
}

/* A 32-bit HotSpot VM (and the hprof agent, as VisualVM sizes its dumps):
 * an 8-byte header, 4-byte references, everything aligned to 8; arrays'
 * elements from byte 12, 8-byte ones from 16; JDK 8's ClassLoader hides
 * a 4-byte pointer. jcmd on a 32-bit JDK 8 gives String 16, Boolean 16. */
static void
test_hotspot_32bit (void)
{
  g_autoptr(GBytes) bytes = write_dump ("JAVA PROFILE 1.0.2", FALSE);
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_heap_bytes (bytes, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (shallow_of (trace, A_STRING), ==, 16);
  g_assert_cmpuint (shallow_of (trace, A_BOOLEAN), ==, 16);
  g_assert_cmpuint (shallow_of (trace, A_LOADER), ==, 16);
  g_assert_cmpuint (shallow_of (trace, AN_OBJECT), ==, 8);
  g_assert_cmpuint (shallow_of (trace, LONGS), ==, 16 + 24);
  g_assert_cmpuint (shallow_of (trace, INTS), ==, 24);
  g_assert_nonnull (strstr (strata_trace_get_format_detail (trace), "32-bit HotSpot"));
  g_assert_nonnull (strstr (strata_trace_get_format_detail (trace), "JDK 8"));
}

/* A dump with ART's classes is ART's, whatever its header says (hprof-conv
 * makes a standard one): the class dumps' sizes are the objects'. */
static void
test_art_by_classes (void)
{
  g_autoptr(GBytes) bytes = write_dump ("JAVA PROFILE 1.0.2", TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_heap_bytes (bytes, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (shallow_of (trace, A_STRING), ==, 20);
  g_assert_cmpuint (shallow_of (trace, A_BOOLEAN), ==, 9);
  g_assert_cmpuint (shallow_of (trace, AN_OBJECT), ==, 8);
  g_assert_cmpuint (shallow_of (trace, INTS), ==, 24);
  g_assert_nonnull (strstr (strata_trace_get_format_detail (trace), "ART"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/hprof-sizes/hotspot-32bit", test_hotspot_32bit);
  g_test_add_func ("/hprof-sizes/art-by-classes", test_art_by_classes);
  return g_test_run ();
}
