/* strata-perfetto-private.h: the state of a Perfetto trace's reading
 *
 * For strata-perfetto.c (packets, track events, the trace) and
 * strata-perfetto-state.c (sequences, clocks, descriptors).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-loader-private.h"
#include "strata-proto.h"
#include "strata-trace-private.h"

G_BEGIN_DECLS

#define BOOTTIME 6
#define N_BUILTIN_CLOCKS 64
#define MAX_SPAN ((gint64) 1 << 46)
#define MAX_STACK 65536
#define MAX_INFLATED ((gsize) 1 << 30)
#define MAX_NESTING 4
#define MAX_EXTRA_COUNTERS 16
#define SMALL_IIDS 4096
/* Where the args text's empty object is: the source of events without. */
#define PERFETTO_NO_ARGS 1

typedef struct
{
  guint32 id;
  guint64 multiplier;   /* ns per unit */
  gboolean incremental;
  guint64 value;        /* units: the snapshot's, then the last packet's */
  guint64 ref_value;    /* units, at the snapshot */
  gint64  boot_ref;     /* BOOTTIME ns at the snapshot */
  gint64  max_units;    /* units from the snapshot that still fit in ns */
} Clock;

/* InternedData's tables this reader uses, by their field numbers. */
enum {
  INTERNED_CATEGORIES = 1,
  INTERNED_NAMES = 2,
  INTERNED_ANNOTATION_NAMES = 3,
  INTERNED_ANNOTATION_STRINGS = 29,
};

/* A repeated number field's values; past MAX_EXTRA_COUNTERS, left out. */
typedef struct
{
  guint   n;
  guint64 values[MAX_EXTRA_COUNTERS];
} PerfettoValues;

typedef struct _Track Track;

typedef struct
{
  GHashTable *names;          /* iid -> string pool id */
  guint32    *small_names;    /* the same for iids under SMALL_IIDS, or NULL */
  GHashTable *categories;
  GHashTable *annotation_names;
  GHashTable *annotation_strings;
  guint64     default_track;
  PerfettoValues extra_counters;         /* track uuids, TrackEventDefaults' */
  PerfettoValues extra_double_counters;
  GHashTable *counter_sums;   /* incremental counters' sums on this sequence: uuid (guint64 *) -> gint64 * */
  guint64     last_sum_uuid;  /* the last one summed, and its sum: most events sum one */
  gint64     *last_sum;
  guint32     default_clock;
  GArray     *clocks;         /* Clock */
  guint       last_clock;     /* the index of the one the last packet was on */
  gint64      pid, tid;       /* a legacy ThreadDescriptor's, or 0 */
  gint64      thread_time_us; /* the last legacy thread time */
} Sequence;

struct _Track
{
  guint64 uuid;
  guint64 parent;
  gint64  pid, tid;
  gboolean is_thread, is_process, is_counter;
  gboolean is_thread_time;    /* a counter of the thread's CPU time */
  gboolean is_incremental;    /* its values are deltas */
  gint64   unit_multiplier;
  char   *name;
  guint   thread;             /* the trace's thread, once made; G_MAXUINT */
  GArray *async_open;         /* an async track's open slices: indexes into Reader.events */
};

#define TRACK_CACHE 1024
#define METHOD_CACHE 65536

typedef struct
{
  guint64 key;       /* name << 32 | category, + 1: 0 is empty */
  guint32 method;
} MethodCacheEntry;

typedef struct
{
  StrataTrace *trace;
  StrataLoadJob *job;
  Track       *track_cache[TRACK_CACHE];         /* by uuid's low bits: most events are on few tracks */
  MethodCacheEntry *method_cache;   /* METHOD_CACHE of them, before the methods' table */
  GHashTable  *sequences;     /* id -> Sequence */
  Sequence    *last_sequence; /* and its id: packets come in runs of one sequence */
  guint32      last_sequence_id;
  GHashTable  *tracks;        /* uuid (guint64 *) -> Track */
  GHashTable  *processes;     /* pid (gint64 *) -> process + 1 */
  GHashTable  *threads;       /* tid (gint64 *) -> thread + 1 */
  GHashTable  *pid_owners;    /* pid (gint64 *) -> uuid (guint64 *) of the track that described it */
  GHashTable  *tid_owners;
  GPtrArray   *calls;         /* Calls per thread */
  GArray      *events;        /* StrataEvent */
  GHashTable  *flows_open;    /* flow id (guint64 *) -> StrataSliceRef of its last step */
  GArray      *flows;         /* StrataFlow */
  GString     *args;          /* events' args as JSON, see strata_trace_get_args_text() */
  gboolean     has_thread_time;
  GHashTable  *counters;      /* track uuid (guint64 *) -> StrataCounterBuilder */
  GHashTable  *methods;       /* name << 32 | category -> method + 1 */
  GHashTable  *unread;        /* packet field -> count */
  guint32      ref_clock;     /* the builtin clock all times go on: BOOTTIME where snapshots have it */
  gint64       offsets[N_BUILTIN_CLOCKS];   /* ns to add to a builtin clock's times */
  gboolean     has_offset[N_BUILTIN_CLOCKS];
  gint64       first_time;
  gboolean     has_first_time;
  guint64      n_far_times;
  guint64      n_packets;
  guint64      n_unmatched_ends;
  guint64      n_unknown_legacy;
  guint64      n_bad_packets;
  guint64      n_unbound_flows;
  guint64      n_async_open;
  gint64       last_time;
  guint64      n_args_dropped;
  guint64      n_too_deep;
  guint64      n_zstd;
  gboolean     cut;
  gboolean     cancelled;
  guint64      next_check;    /* packets read when to look for Cancel next, */
  guint64      next_progress; /* and to say how far the file is read */
  guint        n_checks;
} Reader;

/* TrackEvent */
enum {
  EVENT_THREAD_TIME_DELTA_US = 2,
  EVENT_CATEGORY_IIDS = 3,
  EVENT_DEBUG_ANNOTATIONS = 4,
  EVENT_LEGACY = 6,
  EVENT_TYPE = 9,
  EVENT_NAME_IID = 10,
  EVENT_TRACK_UUID = 11,
  EVENT_EXTRA_COUNTER_VALUES = 12,
  EVENT_THREAD_TIME_ABSOLUTE_US = 17,
  EVENT_CATEGORIES = 22,
  EVENT_NAME = 23,
  EVENT_COUNTER_VALUE = 30,
  EVENT_EXTRA_COUNTER_TRACK_UUIDS = 31,
  EVENT_EXTRA_DOUBLE_COUNTER_TRACK_UUIDS = 45,
  EVENT_EXTRA_DOUBLE_COUNTER_VALUES = 46,
  EVENT_FLOW_IDS_OLD = 36,
  EVENT_TERMINATING_FLOW_IDS_OLD = 42,
  EVENT_DOUBLE_COUNTER_VALUE = 44,
  EVENT_FLOW_IDS = 47,
  EVENT_TERMINATING_FLOW_IDS = 48,
};

enum {
  TYPE_UNSPECIFIED,
  TYPE_SLICE_BEGIN,
  TYPE_SLICE_END,
  TYPE_INSTANT,
  TYPE_COUNTER,
};

/* What a TrackEvent says, as far as this reader reads it. */
typedef struct
{
  guint    type;
  guint32  name;
  guint32  category;
  guint64  track;
  gboolean has_track;
  gboolean has_value;
  double   value;
  gboolean value_is_int;
  gint64   int_value;
  char     legacy_phase;
  gboolean has_thread_time;
  gint64   thread_time;       /* ns */
  gboolean has_annotations;
  guint64  source;            /* its args' place in Reader.args, or 0 */
  gboolean has_flows;
  const guint8 *flow_ids;     /* the TrackEvent again, when it has flows */
  gsize    flow_ids_len;
  /* LegacyEvent's */
  gboolean has_duration;
  gint64   duration;          /* ns */
  guint64  legacy_id;
  char     legacy_id_kind;    /* 'u'nscoped, 'l'ocal, 'g'lobal, or 0 */
  guint32  legacy_scope;      /* string pool id */
  guint64  bind_id;
  guint    flow_direction;
  gboolean bind_to_enclosing;
  gboolean has_tid_override;
  gint64   pid_override, tid_override;
  char     instant_scope;     /* 'g'lobal, 'p'rocess or 't'hread */
} TrackEvent;

/* strata-perfetto-calls.c */
void      perfetto_calls_begin            (Reader       *self,
                                           guint         thread,
                                           TrackEvent   *event,
                                           gint64        time);
void      perfetto_calls_end              (Reader       *self,
                                           guint         thread,
                                           TrackEvent   *event,
                                           gint64        time);
void      perfetto_calls_instant          (Reader       *self,
                                           guint         thread,
                                           TrackEvent   *event,
                                           gint64        time);
void      perfetto_calls_flow_step        (Reader       *self,
                                           guint         thread,
                                           TrackEvent   *event,
                                           gint64        time);
void      perfetto_calls_finish           (Reader       *self);
gboolean  perfetto_track_is_async         (Reader       *self,
                                           Track        *track);
void      perfetto_async_event            (Reader       *self,
                                           Track        *track,
                                           TrackEvent   *event,
                                           gint64        time);
void      perfetto_async_finish           (Reader       *self);
Track    *perfetto_legacy_async_track     (Reader       *self,
                                           Track        *thread_track,
                                           TrackEvent   *event);
gboolean  perfetto_legacy_event           (Reader       *self,
                                           Track        *track,
                                           TrackEvent   *event,
                                           gint64        time);
void      perfetto_read_legacy            (Reader       *self,
                                           Sequence     *seq,
                                           TrackEvent   *event,
                                           const guint8 *data,
                                           gsize         len);
void      perfetto_calls_clear            (Reader       *self);

/* strata-perfetto-args.c */
guint64   perfetto_args_write             (Reader       *self,
                                           Sequence     *seq,
                                           const guint8 *event,
                                           gsize         len,
                                           guint32       annotations_field);
void      perfetto_args_finish            (Reader       *self);

guint32   perfetto_interned_name          (Sequence     *seq,
                                           guint64       iid);
Sequence *perfetto_sequence_of            (Reader       *self,
                                           guint32       id);
void      perfetto_sequence_free          (gpointer      data);
void      perfetto_sequence_clear_incremental (Sequence *seq);
Track    *perfetto_track_of               (Reader       *self,
                                           guint64       uuid);
void      perfetto_track_free             (gpointer      data);
Track    *perfetto_thread_track           (Reader       *self,
                                           gint64        pid,
                                           gint64        tid);
char     *perfetto_proto_string           (const StrataProtoField *field);
guint     perfetto_process_index          (Reader       *self,
                                           gint64        pid,
                                           const char   *name);
guint     perfetto_thread_index           (Reader       *self,
                                           gint64        pid,
                                           gint64        tid,
                                           const char   *name);
void      perfetto_read_process_descriptor (Reader      *self,
                                           const guint8 *data,
                                           gsize         len,
                                           guint64       uuid,
                                           gint64       *pid_out);
guint     perfetto_read_thread_descriptor (Reader       *self,
                                           const guint8 *data,
                                           gsize         len,
                                           guint64       uuid,
                                           gint64       *pid_out,
                                           gint64       *tid_out);
Track    *perfetto_read_track_descriptor  (Reader       *self,
                                           const guint8 *data,
                                           gsize         len);
gint64    perfetto_track_pid              (Reader       *self,
                                           Track        *track);
guint     perfetto_track_thread           (Reader       *self,
                                           Track        *track);
void      perfetto_read_interned          (Reader       *self,
                                           Sequence     *seq,
                                           const guint8 *data,
                                           gsize         len);
void      perfetto_read_uint64s           (const StrataProtoField *field,
                                           PerfettoValues *values);
void      perfetto_read_doubles           (const StrataProtoField *field,
                                           PerfettoValues *values);
void      perfetto_read_defaults          (Sequence     *seq,
                                           const guint8 *data,
                                           gsize         len);
void      perfetto_read_clock_snapshot    (Reader       *self,
                                           Sequence     *seq,
                                           const guint8 *data,
                                           gsize         len);
gint64    perfetto_packet_time            (Reader       *self,
                                           Sequence     *seq,
                                           guint32       clock_id,
                                           guint64       timestamp);

G_END_DECLS
