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

typedef struct
{
  guint32 id;
  guint64 multiplier;   /* ns per unit */
  gboolean incremental;
  guint64 value;        /* units: the snapshot's, then the last packet's */
  guint64 ref_value;    /* units, at the snapshot */
  gint64  boot_ref;     /* BOOTTIME ns at the snapshot */
} Clock;

typedef struct
{
  GHashTable *names;          /* iid -> string pool id */
  GHashTable *categories;
  guint64     default_track;
  guint32     default_clock;
  GArray     *clocks;         /* Clock */
  gint64      pid, tid;       /* a legacy ThreadDescriptor's, or 0 */
} Sequence;

typedef struct
{
  guint64 uuid;
  guint64 parent;
  gint64  pid, tid;
  gboolean is_thread, is_process, is_counter;
  char   *name;
  guint   thread;             /* the trace's thread, once made; G_MAXUINT */
} Track;

typedef struct
{
  StrataTrace *trace;
  StrataLoadJob *job;
  GHashTable  *sequences;     /* id -> Sequence */
  GHashTable  *tracks;        /* uuid (guint64 *) -> Track */
  GHashTable  *processes;     /* pid (gint64 *) -> process + 1 */
  GHashTable  *threads;       /* tid (gint64 *) -> thread + 1 */
  GPtrArray   *calls;         /* Calls per thread */
  GArray      *events;        /* StrataEvent */
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
  guint64      n_no_track;
  gboolean     cut;
} Reader;

Sequence *perfetto_sequence_of            (Reader       *self,
                                           guint32       id);
void      perfetto_sequence_free          (gpointer      data);
void      perfetto_sequence_clear_incremental (Sequence *seq);
Track    *perfetto_track_of               (Reader       *self,
                                           guint64       uuid);
void      perfetto_track_free             (gpointer      data);
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
                                           gint64       *pid_out);
guint     perfetto_read_thread_descriptor (Reader       *self,
                                           const guint8 *data,
                                           gsize         len,
                                           gint64       *pid_out,
                                           gint64       *tid_out);
void      perfetto_read_track_descriptor  (Reader       *self,
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
