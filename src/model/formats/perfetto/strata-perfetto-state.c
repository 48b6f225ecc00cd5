/* strata-perfetto-state.c: what a Perfetto trace's packets set up
 *
 * Per sequence, the interned names and categories, the packet defaults
 * and the sequence's clocks; for the whole trace, the builtin clocks'
 * offsets to the reference clock, and the tracks that processes and
 * threads are described by.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-perfetto-private.h"
#include "strata-id-map.h"

/* ---- State ---- */

void
perfetto_sequence_free (gpointer data)
{
  Sequence *seq = data;

  g_hash_table_unref (seq->names);
  g_free (seq->small_names);
  g_hash_table_unref (seq->categories);
  g_hash_table_unref (seq->annotation_names);
  g_hash_table_unref (seq->annotation_strings);
  g_hash_table_unref (seq->counter_sums);
  g_array_unref (seq->clocks);
  g_free (seq);
}

void
perfetto_sequence_clear_incremental (Sequence *seq)
{
  g_hash_table_remove_all (seq->names);
  if (seq->small_names != NULL)
    memset (seq->small_names, 0, SMALL_IIDS * sizeof (guint32));
  g_hash_table_remove_all (seq->categories);
  g_hash_table_remove_all (seq->annotation_names);
  g_hash_table_remove_all (seq->annotation_strings);
  seq->extra_counters.n = 0;
  seq->extra_double_counters.n = 0;
  g_hash_table_remove_all (seq->counter_sums);
  seq->last_sum = NULL;
  seq->default_track = 0;
  seq->default_clock = 0;
  seq->thread_time_us = 0;
}

Sequence *
perfetto_sequence_of (Reader  *self,
             guint32  id)
{
  Sequence *seq;

  /* Packets of a sequence come in runs (a writer's chunk). */
  if (self->last_sequence != NULL && self->last_sequence_id == id)
    return self->last_sequence;
  seq = g_hash_table_lookup (self->sequences, GUINT_TO_POINTER (id));
  if (seq == NULL)
    {
      seq = g_new0 (Sequence, 1);
      seq->names = g_hash_table_new (NULL, NULL);
      seq->categories = g_hash_table_new (NULL, NULL);
      seq->annotation_names = g_hash_table_new (NULL, NULL);
      seq->annotation_strings = g_hash_table_new (NULL, NULL);
      seq->counter_sums = g_hash_table_new_full (strata_int64_hash, g_int64_equal, g_free, g_free);
      seq->clocks = g_array_new (FALSE, FALSE, sizeof (Clock));
      g_hash_table_insert (self->sequences, GUINT_TO_POINTER (id), seq);
    }
  self->last_sequence = seq;
  self->last_sequence_id = id;
  return seq;
}

void
perfetto_track_free (gpointer data)
{
  Track *track = data;

  g_free (track->name);
  if (track->async_open != NULL)
    g_array_unref (track->async_open);
  g_free (track);
}

Track *
perfetto_track_of (Reader  *self,
          guint64  uuid)
{
  Track **cached = &self->track_cache[(uuid ^ (uuid >> 17)) % TRACK_CACHE];
  Track *track;

  if (*cached != NULL && (*cached)->uuid == uuid)
    return *cached;
  track = g_hash_table_lookup (self->tracks, &uuid);
  if (track == NULL)
    {
      track = g_new0 (Track, 1);
      track->uuid = uuid;
      track->thread = G_MAXUINT;
      g_hash_table_insert (self->tracks, g_memdup2 (&uuid, sizeof uuid), track);
    }
  return *cached = track;
}

/* A thread's track where the trace names none: a legacy
 * ThreadDescriptor's, or a legacy event's tid override. */
Track *
perfetto_thread_track (Reader *self,
                       gint64  pid,
                       gint64  tid)
{
  Track *track = perfetto_track_of (self, G_GUINT64_CONSTANT (0x8000000000000000) | (guint64) (guint32) tid);

  track->is_thread = TRUE;
  track->pid = pid;
  track->tid = tid;
  return track;
}

char *
perfetto_proto_string (const StrataProtoField *field)
{
  return g_utf8_make_valid ((const char *) field->bytes, field->len);
}

guint
perfetto_process_index (Reader     *self,
               gint64      pid,
               const char *name)
{
  gpointer found = g_hash_table_lookup (self->processes, &pid);
  guint index;

  if (found != NULL)
    {
      StrataProcess *process;

      index = GPOINTER_TO_UINT (found) - 1;
      process = strata_trace_peek_process (self->trace, index);
      /* Chrome describes a renderer as "Renderer", then by its command
       * line: a name is kept over a path. */
      if (name != NULL && *name && (name[0] != '/' || *strata_trace_get_string (self->trace, process->name) == '\0'))
        process->name = strata_string_pool_intern (strata_trace_get_pool (self->trace), name);
      return index;
    }
  /* Tracks under no process (Perfetto's global tracks) gather in one. */
  if (pid == 0 && name == NULL)
    name = _("Global tracks");
  index = strata_trace_add_process (self->trace, pid, name != NULL ? name : "");
  g_hash_table_insert (self->processes, g_memdup2 (&pid, sizeof pid), GUINT_TO_POINTER (index + 1));
  return index;
}

guint
perfetto_thread_index (Reader     *self,
              gint64      pid,
              gint64      tid,
              const char *name)
{
  gpointer found = g_hash_table_lookup (self->threads, &tid);
  guint index;

  if (found != NULL)
    {
      index = GPOINTER_TO_UINT (found) - 1;
      if (name != NULL && *name)
        strata_trace_peek_thread (self->trace, index)->name = strata_string_pool_intern (strata_trace_get_pool (self->trace), name);
      return index;
    }
  index = strata_trace_add_thread (self->trace, perfetto_process_index (self, pid, NULL), tid, name != NULL ? name : "");
  g_hash_table_insert (self->threads, g_memdup2 (&tid, sizeof tid), GUINT_TO_POINTER (index + 1));
  return index;
}

/* An interned event name: most iids are small. */
guint32
perfetto_interned_name (Sequence *seq,
                        guint64   iid)
{
  if (iid < SMALL_IIDS && seq->small_names != NULL && seq->small_names[iid] != 0)
    return seq->small_names[iid];
  return GPOINTER_TO_UINT (g_hash_table_lookup (seq->names, GSIZE_TO_POINTER (iid)));
}

/* ---- Descriptors ---- */

/* A process or thread described again by another track is a new one
 * that took over the id (Perfetto's pid and tid reuse): @owners maps ids
 * to the track that described them last. */
static void
claim_id (GHashTable *owners,
          GHashTable *index,
          gint64      id,
          guint64     uuid)
{
  guint64 *owner = g_hash_table_lookup (owners, &id);

  if (uuid == 0)
    return;
  if (owner != NULL && *owner != uuid)
    g_hash_table_remove (index, &id);
  g_hash_table_insert (owners, g_memdup2 (&id, sizeof id), g_memdup2 (&uuid, sizeof uuid));
}

void
perfetto_read_process_descriptor (Reader       *self,
                         const guint8 *data,
                         gsize         len,
                         guint64       uuid,
                         gint64       *pid_out)
{
  StrataProto proto;
  StrataProtoField field;
  g_autofree char *name = NULL;
  gint64 pid = 0;

  strata_proto_init (&proto, data, len);
  while (strata_proto_next (&proto, &field))
    if (field.number == 1 && field.wire == STRATA_PROTO_VARINT)
      pid = (gint32) field.value;
    else if (field.number == 6 && field.wire == STRATA_PROTO_BYTES)
      {
        g_free (name);
        name = perfetto_proto_string (&field);
      }
  claim_id (self->pid_owners, self->processes, pid, uuid);
  perfetto_process_index (self, pid, name);
  if (pid_out != NULL)
    *pid_out = pid;
}

/* Returns the thread's index in the trace. */
guint
perfetto_read_thread_descriptor (Reader       *self,
                        const guint8 *data,
                        gsize         len,
                        guint64       uuid,
                        gint64       *pid_out,
                        gint64       *tid_out)
{
  StrataProto proto;
  StrataProtoField field;
  g_autofree char *name = NULL;
  gint64 pid = 0, tid = 0;

  strata_proto_init (&proto, data, len);
  while (strata_proto_next (&proto, &field))
    if (field.number == 1 && field.wire == STRATA_PROTO_VARINT)
      pid = (gint32) field.value;
    else if (field.number == 2 && field.wire == STRATA_PROTO_VARINT)
      tid = (gint32) field.value;
    else if (field.number == 5 && field.wire == STRATA_PROTO_BYTES)
      {
        g_free (name);
        name = perfetto_proto_string (&field);
      }
  *pid_out = pid;
  *tid_out = tid;
  claim_id (self->tid_owners, self->threads, tid, uuid);
  return perfetto_thread_index (self, pid, tid, name);
}

/* CounterDescriptor: a thread time counter (type 1), its unit's size
 * (4) and whether its values are deltas (5). */
static void
read_counter_descriptor (Track        *track,
                         const guint8 *data,
                         gsize         len)
{
  StrataProto proto;
  StrataProtoField field;

  track->unit_multiplier = 1;
  strata_proto_init (&proto, data, len);
  while (strata_proto_next (&proto, &field))
    if (field.number == 1 && field.wire == STRATA_PROTO_VARINT)
      track->is_thread_time = field.value == 1;
    else if (field.number == 4 && field.wire == STRATA_PROTO_VARINT)
      track->unit_multiplier = CLAMP ((gint64) field.value, 1, 1000000000);
    else if (field.number == 5 && field.wire == STRATA_PROTO_VARINT)
      track->is_incremental = field.value != 0;
}

Track *
perfetto_read_track_descriptor (Reader       *self,
                       const guint8 *data,
                       gsize         len)
{
  StrataProto proto;
  StrataProtoField field;
  Track parsed = { 0 };
  Track *track;

  /* The uuid first: the process or thread it describes is claimed by it. */
  strata_proto_init (&proto, data, len);
  while (strata_proto_next (&proto, &field))
    if (field.number == 1 && field.wire == STRATA_PROTO_VARINT)
      parsed.uuid = field.value;
  strata_proto_init (&proto, data, len);
  while (strata_proto_next (&proto, &field))
    switch (field.number)
      {
      case 2: case 10:
        if (field.wire == STRATA_PROTO_BYTES)
          {
            g_free (parsed.name);
            parsed.name = perfetto_proto_string (&field);
          }
        break;
      case 3:
        if (field.wire == STRATA_PROTO_BYTES)
          {
            perfetto_read_process_descriptor (self, field.bytes, field.len, parsed.uuid, &parsed.pid);
            parsed.is_process = TRUE;
          }
        break;
      case 4:
        if (field.wire == STRATA_PROTO_BYTES)
          {
            perfetto_read_thread_descriptor (self, field.bytes, field.len, parsed.uuid, &parsed.pid, &parsed.tid);
            parsed.is_thread = TRUE;
          }
        break;
      case 5: parsed.parent = field.value; break;
      case 8:
        parsed.is_counter = TRUE;
        if (field.wire == STRATA_PROTO_BYTES)
          read_counter_descriptor (&parsed, field.bytes, field.len);
        break;
      default: break;
      }
  track = perfetto_track_of (self, parsed.uuid);
  track->parent = parsed.parent;
  track->is_thread |= parsed.is_thread;
  track->is_process |= parsed.is_process;
  track->is_counter |= parsed.is_counter;
  if (parsed.is_counter)
    {
      track->is_thread_time = parsed.is_thread_time;
      track->is_incremental = parsed.is_incremental;
      track->unit_multiplier = parsed.unit_multiplier;
    }
  if (parsed.is_thread || parsed.is_process)
    {
      track->pid = parsed.pid;
      track->tid = parsed.tid;
    }
  if (parsed.name != NULL)
    {
      g_free (track->name);
      track->name = parsed.name;
    }
  return track;
}

/* The process a track is under: its own, or its parents'. */
gint64
perfetto_track_pid (Reader *self,
           Track  *track)
{
  for (guint hops = 0; track != NULL && hops < 64; hops++)
    {
      if (track->is_thread || track->is_process)
        return track->pid;
      track = track->parent != 0 ? g_hash_table_lookup (self->tracks, &track->parent) : NULL;
    }
  return 0;
}

/* The trace's thread a track's slices go on: a thread's own, or a row of
 * its own under its process named by the track. */
guint
perfetto_track_thread (Reader *self,
              Track  *track)
{
  if (track->thread != G_MAXUINT)
    return track->thread;
  if (track->is_thread)
    track->thread = perfetto_thread_index (self, track->pid, track->tid, NULL);
  else
    /* Not a thread: a row of its own, named by the track alone. */
    track->thread = strata_trace_add_thread (self->trace, perfetto_process_index (self, perfetto_track_pid (self, track), NULL), 0,
                                             track->name != NULL ? track->name : _("Track"));
  return track->thread;
}

/* ---- Sequence state ---- */

static GHashTable *
interned_table (Sequence *seq,
                guint32   number)
{
  switch (number)
    {
    case INTERNED_CATEGORIES: return seq->categories;
    case INTERNED_NAMES: return seq->names;
    case INTERNED_ANNOTATION_NAMES: return seq->annotation_names;
    case INTERNED_ANNOTATION_STRINGS: return seq->annotation_strings;
    default: return NULL;
    }
}

/* InternedData: event categories and names, debug annotations' names
 * and string values; each an iid (1) and a text (2). */
void
perfetto_read_interned (Reader       *self,
               Sequence     *seq,
               const guint8 *data,
               gsize         len)
{
  StrataProto proto;
  StrataProtoField field;

  strata_proto_init (&proto, data, len);
  while (strata_proto_next (&proto, &field))
    if (interned_table (seq, field.number) != NULL && field.wire == STRATA_PROTO_BYTES)
      {
        StrataProto entry;
        StrataProtoField item;
        guint64 iid = 0;
        guint32 id;
        g_autofree char *name = NULL;

        strata_proto_init (&entry, field.bytes, field.len);
        while (strata_proto_next (&entry, &item))
          if (item.number == 1 && item.wire == STRATA_PROTO_VARINT)
            iid = item.value;
          else if (item.number == 2 && item.wire == STRATA_PROTO_BYTES)
            {
              g_free (name);
              name = perfetto_proto_string (&item);
            }
        if (name == NULL)
          continue;
        id = strata_string_pool_intern (strata_trace_get_pool (self->trace), name);
        g_hash_table_insert (interned_table (seq, field.number), GSIZE_TO_POINTER (iid), GUINT_TO_POINTER (id));
        if (field.number == INTERNED_NAMES && iid < SMALL_IIDS)
          {
            if (seq->small_names == NULL)
              seq->small_names = g_new0 (guint32, SMALL_IIDS);
            seq->small_names[iid] = id;
          }
      }
}

/* A repeated integer field's values, one to a field or packed. */
void
perfetto_read_uint64s (const StrataProtoField *field,
                       PerfettoValues         *values)
{
  StrataProto packed;
  guint64 value;

  if (field->wire == STRATA_PROTO_VARINT)
    {
      if (values->n < MAX_EXTRA_COUNTERS)
        values->values[values->n++] = field->value;
      return;
    }
  if (field->wire != STRATA_PROTO_BYTES)
    return;
  strata_proto_init (&packed, field->bytes, field->len);
  while (values->n < MAX_EXTRA_COUNTERS && strata_proto_varint (&packed, &value))
    values->values[values->n++] = value;
}

/* A repeated double field's values (their bits), one to a field or
 * packed. */
void
perfetto_read_doubles (const StrataProtoField *field,
                       PerfettoValues         *values)
{
  if (field->wire == STRATA_PROTO_FIXED64)
    {
      if (values->n < MAX_EXTRA_COUNTERS)
        values->values[values->n++] = field->value;
      return;
    }
  if (field->wire != STRATA_PROTO_BYTES)
    return;
  for (gsize at = 0; at + 8 <= field->len && values->n < MAX_EXTRA_COUNTERS; at += 8)
    {
      guint64 bits = 0;

      for (guint i = 0; i < 8; i++)
        bits |= (guint64) field->bytes[at + i] << (8 * i);
      values->values[values->n++] = bits;
    }
}

/* TracePacketDefaults: the clock (58) and the track events' track and
 * extra counters (11 → TrackEventDefaults.track_uuid, 11,
 * extra_counter_track_uuids, 31, and extra_double_counter_track_uuids,
 * 45). */
void
perfetto_read_defaults (Sequence     *seq,
               const guint8 *data,
               gsize         len)
{
  StrataProto proto;
  StrataProtoField field;

  strata_proto_init (&proto, data, len);
  while (strata_proto_next (&proto, &field))
    if (field.number == 58 && field.wire == STRATA_PROTO_VARINT)
      seq->default_clock = (guint32) field.value;
    else if (field.number == 11 && field.wire == STRATA_PROTO_BYTES)
      {
        StrataProto defaults;
        StrataProtoField item;

        strata_proto_init (&defaults, field.bytes, field.len);
        seq->extra_counters.n = 0;
        seq->extra_double_counters.n = 0;
        while (strata_proto_next (&defaults, &item))
          if (item.number == 11 && item.wire == STRATA_PROTO_VARINT)
            seq->default_track = item.value;
          else if (item.number == 31)
            perfetto_read_uint64s (&item, &seq->extra_counters);
          else if (item.number == 45)
            perfetto_read_uint64s (&item, &seq->extra_double_counters);
      }
}

/* ClockSnapshot: each clock's value at one moment. Builtin clocks (ids
 * under 64) get their offset to the reference clock (BOOTTIME, or the
 * first builtin clock snapshots give, as Chrome's give MONOTONIC); the
 * sequence's own clocks (64 and up, Chrome's incremental ones among
 * them) get the reference clock's value at that moment. */
void
perfetto_read_clock_snapshot (Reader       *self,
                     Sequence     *seq,
                     const guint8 *data,
                     gsize         len)
{
  StrataProto proto;
  StrataProtoField field;
  g_autoptr(GArray) clocks = g_array_new (FALSE, FALSE, sizeof (Clock));
  gboolean has_ref = FALSE;
  gint64 ref_value = 0;

  strata_proto_init (&proto, data, len);
  while (strata_proto_next (&proto, &field))
    if (field.number == 1 && field.wire == STRATA_PROTO_BYTES)
      {
        StrataProto item;
        StrataProtoField clock_field;
        Clock clock = { .multiplier = 1 };

        strata_proto_init (&item, field.bytes, field.len);
        while (strata_proto_next (&item, &clock_field))
          switch (clock_field.number)
            {
            case 1: clock.id = (guint32) clock_field.value; break;
            case 2: clock.value = clock.ref_value = MIN (clock_field.value, (guint64) G_MAXINT64 / 4); break;
            case 3: clock.incremental = clock_field.value != 0; break;
            case 4: clock.multiplier = CLAMP (clock_field.value, 1, G_GUINT64_CONSTANT (1000000000)); break;
            default: break;
            }
        if (clock.id != 0 && clock.id < N_BUILTIN_CLOCKS && (self->ref_clock == 0 || clock.id == BOOTTIME) &&
            !self->has_offset[BOOTTIME])
          self->ref_clock = clock.id;
        g_array_append_val (clocks, clock);
      }
  /* The reference's value now: given, or from a builtin clock known. */
  for (guint i = 0; i < clocks->len && !has_ref; i++)
    {
      Clock *clock = &g_array_index (clocks, Clock, i);

      if (clock->id == self->ref_clock)
        has_ref = TRUE, ref_value = (gint64) clock->value;
    }
  for (guint i = 0; i < clocks->len && !has_ref; i++)
    {
      Clock *clock = &g_array_index (clocks, Clock, i);

      if (clock->id < N_BUILTIN_CLOCKS && self->has_offset[clock->id])
        has_ref = TRUE, ref_value = (gint64) clock->value + self->offsets[clock->id];
    }
  if (!has_ref)
    return;
  for (guint i = 0; i < clocks->len; i++)
    {
      Clock *clock = &g_array_index (clocks, Clock, i);

      if (clock->id < N_BUILTIN_CLOCKS)
        {
          self->offsets[clock->id] = ref_value - (gint64) clock->value;
          self->has_offset[clock->id] = TRUE;
          continue;
        }
      clock->boot_ref = ref_value;
      clock->max_units = (G_MAXINT64 / 4) / (gint64) clock->multiplier;
      for (guint k = 0; k < seq->clocks->len; k++)
        if (g_array_index (seq->clocks, Clock, k).id == clock->id)
          g_array_remove_index (seq->clocks, k--);
      g_array_append_val (seq->clocks, *clock);
    }
}

/* A packet's time on the reference clock, in ns. */
gint64
perfetto_packet_time (Reader   *self,
             Sequence *seq,
             guint32   clock_id,
             guint64   timestamp)
{
  guint32 id = clock_id != 0 ? clock_id : seq->default_clock != 0 ? seq->default_clock : BOOTTIME;

  if (id < N_BUILTIN_CLOCKS)
    return (gint64) MIN (timestamp, (guint64) G_MAXINT64 / 4) + (self->has_offset[id] ? self->offsets[id] : 0);
  for (guint k = 0; k < seq->clocks->len; k++)
    {
      /* The clock of the sequence's last packet first. */
      guint i = (k + seq->last_clock) % seq->clocks->len;
      Clock *clock = &g_array_index (seq->clocks, Clock, i);
      gint64 units;

      if (clock->id != id)
        continue;
      seq->last_clock = i;
      clock->value = clock->incremental ? clock->value + timestamp : timestamp;
      units = (gint64) (clock->value - clock->ref_value);
      units = CLAMP (units, -clock->max_units, clock->max_units);
      return clock->boot_ref + units * (gint64) clock->multiplier;
    }
  return (gint64) MIN (timestamp, (guint64) G_MAXINT64 / 4);
}

