/* gen-dmtrace.c: a synthetic dual-clock method trace for benchmarks, as
 * v3 or, with a shape ending in "-v2", as ART's format V2 (streaming)
 *
 * 16 threads, 20,000 methods (or as many as asked), calls nested up to 80
 * deep. Two shapes of call graph:
 * - local (the default): each method calls a few callees of its own, and
 *   roots are picked with a skew so a few are hot, as in most programs;
 * - random: each callee is drawn from all methods, as reflection,
 *   interpreters and callbacks make it, so there are millions of distinct
 *   caller/callee pairs and much recursion.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>

#include "art-trace-writer.h"
#include "dmtrace-writer.h"

#define N_THREADS 16
#define DEFAULT_METHODS 20000
#define MAX_DEPTH 80
#define BATCH 64
#define MAX_CALLEES 8
#define UTILITY_ONE_IN 16

typedef struct
{
  guint32 stack[MAX_DEPTH];
  guint   depth;
  guint32 cpu;
} ThreadState;

static guint n_methods = DEFAULT_METHODS;
static gboolean random_shape;
static gboolean format_v2;

/* In V2 a method is its ArtMethod pointer and a thread its Linux tid. */
#define V2_METHOD(id) (G_GUINT64_CONSTANT (0x7b2a000000) + (guint64) (id) / 4 * 0x20)
#define V2_TID(t) (2000 + (t) * 37)

static guint32
pick_root (GRand *rand)
{
  /* Squaring a uniform number skews towards the low ids. */
  double u = g_rand_double (rand);

  return (guint32) (u * u * n_methods) * 4;
}

/* Like real code, each method calls a few callees of its own, not any
 * method at all. */
static guint32
pick_callee (GRand   *rand,
             guint32  caller)
{
  guint32 index = caller / 4;
  guint n_callees;
  guint which;

  if (random_shape)
    return g_rand_int_range (rand, 0, n_methods) * 4;

  n_callees = 1 + index % MAX_CALLEES;
  which = g_rand_int_range (rand, 0, n_callees);

  /* Now and then a call to a shared utility, from anywhere. */
  if (g_rand_int_range (rand, 0, UTILITY_ONE_IN) == 0)
    return pick_root (rand);

  return ((index * 2654435761u + which * 40503u) % n_methods) * 4;
}

/* Times in µs, as v3 holds them; V2 gets them in ns. */
static void
write_record (DmtraceWriter  *writer,
              ArtTraceWriter *v2,
              guint           t,
              guint32         method,
              guint           action,
              guint32         cpu,
              guint32         wall)
{
  if (v2 != NULL)
    art_trace_writer_event (v2, V2_TID (t), V2_METHOD (method), action, (guint64) wall * 1000, (guint64) cpu * 1000);
  else
    dmtrace_writer_record (writer, t + 1, method, action, cpu, wall);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  ThreadState threads[N_THREADS] = { 0 };
  guint64 n_records;
  guint32 wall = 0;
  FILE *file;
  DmtraceWriter *writer = NULL;
  ArtTraceWriter *v2 = NULL;
  gboolean known_shape = TRUE;

  if (argc > 1 && g_str_has_prefix (argv[1], "--shape="))
    {
      /* "-v2" after the shape: ART's format V2 instead of v3. */
      format_v2 = g_str_has_suffix (argv[1], "-v2");
      random_shape = g_str_has_prefix (argv[1], "--shape=random");
      known_shape = random_shape || g_str_has_prefix (argv[1], "--shape=local");
      argv++, argc--;
    }
  if (!known_shape || (argc != 3 && argc != 4))
    {
      g_printerr ("usage: gen-dmtrace [--shape=local|random[-v2]] N_RECORDS OUT.trace [N_METHODS]\n");
      return 2;
    }
  if (argc == 4)
    n_methods = CLAMP (g_ascii_strtoull (argv[3], NULL, 10), 1, 1u << 28);
  n_records = g_ascii_strtoull (argv[1], NULL, 10);
  file = fopen (argv[2], "wb");
  if (file == NULL)
    {
      g_printerr ("cannot write %s\n", argv[2]);
      return 1;
    }

  if (format_v2)
    v2 = art_trace_writer_new ("dual", TRUE, G_GUINT64_CONSTANT (86400000000000));
  else
    {
      writer = dmtrace_writer_new_to_file (3, "dual", FALSE, file);
      dmtrace_writer_add_option (writer, "vm=art");
    }
  for (guint t = 0; t < N_THREADS; t++)
    {
      g_autofree char *name = g_strdup_printf ("worker-%u", t);

      if (v2 != NULL)
        art_trace_writer_thread (v2, V2_TID (t), name);
      else
        dmtrace_writer_add_thread (writer, t + 1, name);
    }
  for (guint m = 0; m < n_methods; m++)
    {
      g_autofree char *klass = g_strdup_printf ("com.example.pkg%u.Class%u", m % 97, m / 7);
      g_autofree char *name = g_strdup_printf ("method%u", m);
      g_autofree char *source = g_strdup_printf ("Class%u.java", m / 7);
      g_autofree char *fields = g_strdup_printf ("%s\t%s\t(I)V\t%s", klass, name, source);

      if (v2 != NULL)
        art_trace_writer_method (v2, V2_METHOD (m * 4), klass, name, "(I)V", source);
      else
        dmtrace_writer_add_method (writer, m * 4, fields);
    }
  if (writer != NULL)
    dmtrace_writer_begin_data (writer);

  for (guint64 written = 0; written < n_records;)
    {
      guint t = g_rand_int_range (rand, 0, N_THREADS);
      ThreadState *state = &threads[t];

      for (guint i = 0; i < BATCH && written < n_records; i++, written++)
        {
          /* Deeper stacks return more often; keeps depth around 20-40. */
          gboolean enter = state->depth == 0 ||
                           (state->depth < MAX_DEPTH &&
                            g_rand_int_range (rand, 0, MAX_DEPTH) > (gint32) state->depth / 2 + 10);

          state->cpu += g_rand_int_range (rand, 1, 4);
          wall += 1;
          if (enter)
            {
              state->stack[state->depth] = state->depth == 0 ? pick_root (rand)
                                                             : pick_callee (rand, state->stack[state->depth - 1]);
              state->depth++;
              write_record (writer, v2, t, state->stack[state->depth - 1], DMTRACE_ENTER, state->cpu, wall);
            }
          else
            write_record (writer, v2, t, state->stack[--state->depth], DMTRACE_EXIT, state->cpu, wall);
        }
      /* ART writes a thread's records when its buffer fills. */
      if (v2 != NULL)
        art_trace_writer_flush (v2, V2_TID (t));
    }

  if (v2 != NULL)
    {
      g_autoptr(GBytes) bytes = art_trace_writer_finish (v2);

      fwrite (g_bytes_get_data (bytes, NULL), 1, g_bytes_get_size (bytes), file);
      art_trace_writer_free (v2);
    }
  else
    dmtrace_writer_free (writer);
  fclose (file);
  return 0;
}
