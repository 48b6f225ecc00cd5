/* gen-perfetto.c: the same calls as a Perfetto trace and as Trace Event JSON
 *
 * gen-perfetto [--shape=SHAPE] MEGABYTES OUT.pftrace [OUT.json]
 *
 * Writes calls until the protobuf trace reaches MEGABYTES, laid out as
 * Chrome's tracing writes them: a sequence per thread, names and
 * categories interned as first used, timestamps on an incremental clock
 * tied to BOOTTIME by snapshots, thread time as an incremental extra
 * counter in µs named by the sequence's defaults, a debug annotation on
 * every eighth call, and the sequence's incremental state cleared every
 * 50,000 packets (snapshot, defaults and names written again). OUT.json,
 * if given, gets the same calls as B and E events (ts and tts in µs, to
 * the ns), so the two formats load to the same calls.
 *
 * Shapes: wide (8 threads of short calls three deep, 200 names), deep
 * (calls 300 deep), threads (64 threads), random (20,000 names, random
 * depths to 40).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto-writer.h"

#define RESET_EVERY 50000
#define MAX_DEPTH 400

typedef struct
{
  const char *name;
  guint       n_threads;
  guint       n_names;
  guint       max_depth;
  double      p_begin;     /* chance a call begins rather than one ends, below max_depth */
} Shape;

static const Shape shapes[] = {
  { "wide", 8, 200, 3, 0.5 },
  { "deep", 8, 400, 300, 0.9 },
  { "threads", 64, 300, 10, 0.5 },
  { "random", 8, 20000, 40, 0.5 },
};

typedef struct
{
  guint    sequence;
  gint64   tid;
  guint64  track, time_track;
  gint64   time;          /* ns */
  gint64   clock_value;   /* the incremental clock's, ns */
  gint64   thread_time;   /* µs */
  gint64   counter_value; /* the thread-time counter's, µs */
  guint    n_packets;
  guint8  *interned;      /* per name: interned since the last reset */
  guint    depth;
  guint32  stack[MAX_DEPTH];
  guint64  n_calls;
} Thread;

typedef struct
{
  const Shape *shape;
  GRand       *rand;
  FILE        *proto_out;
  FILE        *json_out;
  GByteArray  *trace;      /* packets waiting to be written */
  GString     *json;
  guint64      proto_bytes;
  gboolean     json_first;
  Thread      *threads;
} Generator;

static void
flush (Generator *gen,
       gboolean   all)
{
  if (all || gen->trace->len > (1 << 20))
    {
      fwrite (gen->trace->data, 1, gen->trace->len, gen->proto_out);
      gen->proto_bytes += gen->trace->len;
      g_byte_array_set_size (gen->trace, 0);
    }
  if (gen->json_out != NULL && (all || gen->json->len > (1 << 20)))
    {
      fwrite (gen->json->str, 1, gen->json->len, gen->json_out);
      g_string_truncate (gen->json, 0);
    }
}

static void
put_packet (Generator  *gen,
            GByteArray *packet)
{
  proto_put_message (gen->trace, 1, packet);
}

/* TrackDescriptor of a thread, and of its thread-time counter. */
static void
describe_thread (Generator *gen,
                 Thread    *thread)
{
  GByteArray *packet = proto_message (), *track = proto_message (), *inner = proto_message ();
  g_autofree char *name = g_strdup_printf ("Worker %" G_GINT64_FORMAT, thread->tid);

  proto_put_uint (packet, 10, thread->sequence);
  proto_put_uint (track, 1, thread->track);
  proto_put_uint (inner, 1, 1);
  proto_put_uint (inner, 2, thread->tid);
  proto_put_string (inner, 5, name);
  proto_put_message (track, 4, inner);
  proto_put_message (packet, 60, track);
  put_packet (gen, packet);

  packet = proto_message ();
  track = proto_message ();
  inner = proto_message ();
  proto_put_uint (packet, 10, thread->sequence);
  proto_put_uint (track, 1, thread->time_track);
  proto_put_uint (track, 5, thread->track);
  proto_put_string (track, 10, "thread_time");
  proto_put_uint (inner, 1, 1);
  proto_put_uint (inner, 4, 1000);
  proto_put_uint (inner, 5, 1);
  proto_put_message (track, 8, inner);
  proto_put_message (packet, 60, track);
  put_packet (gen, packet);

  if (gen->json_out != NULL)
    {
      g_string_append_printf (gen->json, "%s{\"ph\":\"M\",\"pid\":1,\"tid\":%" G_GINT64_FORMAT ",\"name\":\"thread_name\","
                              "\"args\":{\"name\":\"%s\"}}", gen->json_first ? "" : ",\n", thread->tid, name);
      gen->json_first = FALSE;
    }
}

/* The sequence starts again: a snapshot ties its clock (64, ns,
 * incremental) to BOOTTIME; defaults name the clock, the track and the
 * thread-time counter; the category is interned again. */
static void
reset_sequence (Generator *gen,
                Thread    *thread)
{
  GByteArray *packet = proto_message (), *snapshot = proto_message (), *clock = proto_message ();
  GByteArray *defaults = proto_message (), *event_defaults = proto_message ();
  GByteArray *interned = proto_message (), *entry = proto_message ();

  proto_put_uint (packet, 10, thread->sequence);
  proto_put_uint (packet, 13, 1);
  proto_put_uint (clock, 1, 6);
  proto_put_uint (clock, 2, thread->time);
  proto_put_message (snapshot, 1, clock);
  clock = proto_message ();
  proto_put_uint (clock, 1, 64);
  proto_put_uint (clock, 2, thread->time);
  proto_put_uint (clock, 3, 1);
  proto_put_message (snapshot, 1, clock);
  proto_put_message (packet, 6, snapshot);
  proto_put_uint (defaults, 58, 64);
  proto_put_uint (event_defaults, 11, thread->track);
  proto_put_uint (event_defaults, 31, thread->time_track);
  proto_put_message (defaults, 11, event_defaults);
  proto_put_message (packet, 59, defaults);
  proto_put_uint (entry, 1, 1);
  proto_put_string (entry, 2, "bench");
  proto_put_message (interned, 1, entry);
  entry = proto_message ();
  proto_put_uint (entry, 1, 1);
  proto_put_string (entry, 2, "index");
  proto_put_message (interned, 3, entry);
  proto_put_message (packet, 12, interned);
  put_packet (gen, packet);
  thread->clock_value = thread->time;
  thread->counter_value = 0;
  memset (thread->interned, 0, gen->shape->n_names);
  thread->n_packets = 0;
}

static void
json_event (Generator *gen,
            Thread    *thread,
            gboolean   begin,
            guint32    name,
            guint64    index)
{
  if (gen->json_out == NULL)
    return;
  g_string_append_printf (gen->json, ",\n{\"ph\":\"%c\",\"ts\":%" G_GINT64_FORMAT ".%03d,\"tts\":%" G_GINT64_FORMAT
                          ",\"pid\":1,\"tid\":%" G_GINT64_FORMAT,
                          begin ? 'B' : 'E', thread->time / 1000, (int) (thread->time % 1000), thread->thread_time, thread->tid);
  if (begin)
    g_string_append_printf (gen->json, ",\"cat\":\"bench\",\"name\":\"call_%u\"", name);
  if (begin && index % 8 == 0)
    g_string_append_printf (gen->json, ",\"args\":{\"index\":%" G_GUINT64_FORMAT "}", index);
  g_string_append_c (gen->json, '}');
}

/* One slice begin or end on @thread, @delta ns after its last event. */
static void
put_event (Generator *gen,
           Thread    *thread,
           gboolean   begin,
           guint32    name,
           gint64     delta,
           gint64     thread_delta_us)
{
  GByteArray *packet = proto_message (), *event = proto_message ();

  if (thread->n_packets++ >= RESET_EVERY)
    reset_sequence (gen, thread);
  thread->time += delta;
  thread->thread_time += thread_delta_us;
  proto_put_uint (packet, 8, thread->time - thread->clock_value);
  thread->clock_value = thread->time;
  proto_put_uint (packet, 10, thread->sequence);
  proto_put_uint (packet, 13, 2);
  proto_put_uint (event, 9, begin ? 1 : 2);
  if (begin)
    {
      proto_put_uint (event, 3, 1);
      proto_put_uint (event, 10, name + 1);
      if (thread->n_calls % 8 == 0)
        {
          GByteArray *annotation = proto_message ();

          proto_put_uint (annotation, 1, 1);
          proto_put_uint (annotation, 4, thread->n_calls);
          proto_put_message (event, 4, annotation);
        }
    }
  proto_put_uint (event, 12, thread->thread_time - thread->counter_value);
  thread->counter_value = thread->thread_time;
  proto_put_message (packet, 11, event);
  if (begin && !thread->interned[name])
    {
      GByteArray *interned = proto_message (), *entry = proto_message ();
      g_autofree char *text = g_strdup_printf ("call_%u", name);

      proto_put_uint (entry, 1, name + 1);
      proto_put_string (entry, 2, text);
      proto_put_message (interned, 2, entry);
      proto_put_message (packet, 12, interned);
      thread->interned[name] = 1;
    }
  put_packet (gen, packet);
  json_event (gen, thread, begin, name, thread->n_calls);
  if (begin)
    thread->n_calls++;
  flush (gen, FALSE);
}

static guint32
pick_name (Generator *gen,
           Thread    *thread)
{
  /* Wide and deep traces repeat a few call paths; random ones do not. */
  if (g_str_equal (gen->shape->name, "random"))
    return g_rand_int_range (gen->rand, 0, gen->shape->n_names);
  return (thread->depth * 7919 + g_rand_int_range (gen->rand, 0, MAX (gen->shape->n_names / gen->shape->max_depth, 3))) %
         gen->shape->n_names;
}

static void
step (Generator *gen,
      Thread    *thread)
{
  const Shape *shape = gen->shape;
  gint64 delta = g_rand_int_range (gen->rand, 1, 2000);
  gint64 thread_delta = g_rand_int_range (gen->rand, 0, 2);
  gboolean begin = thread->depth == 0 ||
                   (thread->depth < shape->max_depth && g_rand_double (gen->rand) < shape->p_begin);

  if (begin)
    {
      guint32 name = pick_name (gen, thread);

      thread->stack[thread->depth++] = name;
      put_event (gen, thread, TRUE, name, delta, thread_delta);
    }
  else
    {
      thread->depth--;
      put_event (gen, thread, FALSE, thread->stack[thread->depth], delta, thread_delta);
    }
}

static void
close_all (Generator *gen)
{
  for (guint t = 0; t < gen->shape->n_threads; t++)
    while (gen->threads[t].depth > 0)
      {
        gen->threads[t].depth--;
        put_event (gen, &gen->threads[t], FALSE, 0, 1000, 0);
      }
}

int
main (int   argc,
      char *argv[])
{
  const char *shape_name = "wide";
  Generator gen = { .shape = &shapes[0], .json_first = TRUE };
  guint64 limit;
  int arg = 1;

  if (argc > 1 && g_str_has_prefix (argv[1], "--shape="))
    shape_name = argv[arg++] + strlen ("--shape=");
  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    if (g_str_equal (shapes[i].name, shape_name))
      gen.shape = &shapes[i];
  if (argc - arg < 2 || !g_str_equal (gen.shape->name, shape_name))
    {
      g_printerr ("usage: gen-perfetto [--shape=wide|deep|threads|random] MEGABYTES OUT.pftrace [OUT.json]\n");
      return 2;
    }
  limit = g_ascii_strtoull (argv[arg], NULL, 10) << 20;
  gen.proto_out = fopen (argv[arg + 1], "wb");
  gen.json_out = argc - arg > 2 ? fopen (argv[arg + 2], "wb") : NULL;
  if (gen.proto_out == NULL || (argc - arg > 2 && gen.json_out == NULL))
    {
      g_printerr ("gen-perfetto: cannot write the output\n");
      return 1;
    }
  gen.rand = g_rand_new_with_seed (42);
  gen.trace = g_byte_array_new ();
  gen.json = g_string_new ("{\"traceEvents\":[\n");
  gen.threads = g_new0 (Thread, gen.shape->n_threads);
  for (guint t = 0; t < gen.shape->n_threads; t++)
    {
      Thread *thread = &gen.threads[t];

      *thread = (Thread) { .sequence = t + 1, .tid = 100 + t, .track = 1000 + t, .time_track = 5000 + t,
                           .time = G_GINT64_CONSTANT (1000000000000), .interned = g_malloc0 (gen.shape->n_names) };
      describe_thread (&gen, thread);
      reset_sequence (&gen, thread);
    }
  /* Threads take turns, 64 events at a time, as sequences' chunks do. */
  while (gen.proto_bytes + gen.trace->len < limit)
    {
      Thread *thread = &gen.threads[g_rand_int_range (gen.rand, 0, gen.shape->n_threads)];

      for (guint i = 0; i < 64; i++)
        step (&gen, thread);
    }
  close_all (&gen);
  g_string_append (gen.json, "\n]}\n");
  flush (&gen, TRUE);
  fclose (gen.proto_out);
  if (gen.json_out != NULL)
    fclose (gen.json_out);
  return 0;
}
