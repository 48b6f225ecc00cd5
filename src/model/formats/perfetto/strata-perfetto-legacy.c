/* strata-perfetto-legacy.c: Chrome's legacy events inside track events
 *
 * Chrome wrote its TRACE_EVENT macros' phases into protobuf traces as
 * TrackEvent.legacy_event (track_event.proto's LegacyEvent): slices
 * begun and ended (B, E) or complete with a duration (X), instants and
 * marks (I, R), async slices matched by id (b/e/n nestable, S/T/p/F
 * older), flows (s/t/f steps, or a slice's bind_id with a direction),
 * and events written for another thread (tid_override). Each becomes
 * what the Trace Event loader makes of the same phase in JSON.
 * Counters (C), metadata (M) and objects (N/O/D) are counted, not read.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-perfetto-private.h"

/* LegacyEvent */
enum {
  LEGACY_NAME_IID = 1,
  LEGACY_PHASE = 2,
  LEGACY_DURATION_US = 3,
  LEGACY_UNSCOPED_ID = 6,
  LEGACY_ID_SCOPE = 7,
  LEGACY_BIND_ID = 8,
  LEGACY_LOCAL_ID = 10,
  LEGACY_GLOBAL_ID = 11,
  LEGACY_BIND_TO_ENCLOSING = 12,
  LEGACY_FLOW_DIRECTION = 13,
  LEGACY_INSTANT_SCOPE = 14,
  LEGACY_PID_OVERRIDE = 18,
  LEGACY_TID_OVERRIDE = 19,
};

/* Durations beyond this are not a trace's: held there. */
#define MAX_DURATION_US ((gint64) 1 << 40)

static void
read_legacy_field (Reader                 *self,
                   Sequence               *seq,
                   TrackEvent             *event,
                   const StrataProtoField *field)
{
  switch (field->number)
    {
    case LEGACY_NAME_IID:
      event->name = perfetto_interned_name (seq, field->value);
      break;
    case LEGACY_PHASE: event->legacy_phase = (char) field->value; break;
    case LEGACY_DURATION_US:
      event->duration = CLAMP ((gint64) field->value, 0, MAX_DURATION_US) * 1000;
      event->has_duration = TRUE;
      break;
    case LEGACY_UNSCOPED_ID: event->legacy_id = field->value, event->legacy_id_kind = 'u'; break;
    case LEGACY_LOCAL_ID: event->legacy_id = field->value, event->legacy_id_kind = 'l'; break;
    case LEGACY_GLOBAL_ID: event->legacy_id = field->value, event->legacy_id_kind = 'g'; break;
    case LEGACY_ID_SCOPE:
      if (field->wire == STRATA_PROTO_BYTES)
        {
          g_autofree char *scope = perfetto_proto_string (field);

          event->legacy_scope = strata_string_pool_intern (strata_trace_get_pool (self->trace), scope);
        }
      break;
    case LEGACY_BIND_ID: event->bind_id = field->value; break;
    case LEGACY_BIND_TO_ENCLOSING: event->bind_to_enclosing = field->value != 0; break;
    case LEGACY_FLOW_DIRECTION: event->flow_direction = (guint) MIN (field->value, 3); break;
    case LEGACY_INSTANT_SCOPE: event->instant_scope = field->value == 1 ? 'g' : field->value == 2 ? 'p' : 't'; break;
    case LEGACY_PID_OVERRIDE: event->pid_override = (gint32) field->value; break;
    case LEGACY_TID_OVERRIDE: event->tid_override = (gint32) field->value, event->has_tid_override = TRUE; break;
    default: break;
    }
}

void
perfetto_read_legacy (Reader       *self,
                      Sequence     *seq,
                      TrackEvent   *event,
                      const guint8 *data,
                      gsize         len)
{
  StrataProto proto;
  StrataProtoField field;

  strata_proto_init (&proto, data, len);
  while (strata_proto_next (&proto, &field))
    read_legacy_field (self, seq, event, &field);
}

/* FNV-1a over what matches an async event to its begin. */
static guint64
hash_in (guint64 hash,
         guint64 value)
{
  for (guint i = 0; i < 8; i++)
    hash = (hash ^ ((value >> (8 * i)) & 0xff)) * G_GUINT64_CONSTANT (0x100000001b3);
  return hash;
}

/* What events of an async slice share, as Chrome's importer pairs them:
 * the id and its scope; nestable ones the category, older ones the
 * name; the process unless the id is global. */
Track *
perfetto_legacy_async_track (Reader     *self,
                             Track      *thread_track,
                             TrackEvent *event)
{
  gboolean nestable = event->legacy_phase == 'b' || event->legacy_phase == 'e' || event->legacy_phase == 'n';
  guint64 hash = G_GUINT64_CONSTANT (0xcbf29ce484222325);
  Track *track;

  hash = hash_in (hash, nestable);
  hash = hash_in (hash, nestable ? event->category : event->name);
  hash = hash_in (hash, event->legacy_id);
  hash = hash_in (hash, event->legacy_scope);
  hash = hash_in (hash, event->legacy_id_kind == 'g' ? 0 : (guint64) perfetto_track_pid (self, thread_track));
  track = perfetto_track_of (self, G_GUINT64_CONSTANT (0x4000000000000000) | (hash >> 2));
  if (track->parent == 0)
    track->parent = thread_track->uuid;
  return track;
}

static guint
async_type (char phase)
{
  switch (phase)
    {
    case 'b': case 'S': return TYPE_SLICE_BEGIN;
    case 'e': case 'F': return TYPE_SLICE_END;
    default: return TYPE_INSTANT;
    }
}

/* Returns whether the phase is one this reader reads. */
gboolean
perfetto_legacy_event (Reader     *self,
                       Track      *track,
                       TrackEvent *event,
                       gint64      time)
{
  gboolean on_thread = !perfetto_track_is_async (self, track);

  switch (event->legacy_phase)
    {
    case 'B': case 'E': case 'X': case 'I': case 'i': case 'R':
      event->type = event->legacy_phase == 'B' || event->legacy_phase == 'X' ? TYPE_SLICE_BEGIN
                    : event->legacy_phase == 'E' ? TYPE_SLICE_END : TYPE_INSTANT;
      if (!on_thread)
        perfetto_async_event (self, track, event, time);
      else if (event->type == TYPE_SLICE_BEGIN)
        perfetto_calls_begin (self, perfetto_track_thread (self, track), event, time);
      else if (event->type == TYPE_SLICE_END)
        perfetto_calls_end (self, perfetto_track_thread (self, track), event, time);
      else
        perfetto_calls_instant (self, perfetto_track_thread (self, track), event, time);
      return TRUE;
    case 's': case 't': case 'f':
      if (on_thread)
        perfetto_calls_flow_step (self, perfetto_track_thread (self, track), event, time);
      else
        self->n_unbound_flows++;
      return TRUE;
    case 'b': case 'e': case 'n': case 'S': case 'T': case 'p': case 'F':
      event->type = async_type (event->legacy_phase);
      perfetto_async_event (self, perfetto_legacy_async_track (self, track, event), event, time);
      return TRUE;
    default:
      return FALSE;
    }
}
