/* strata-dmtrace-private.h: shared by the dmtrace key and data readers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-id-map.h"
#include "strata-loader-private.h"
#include "strata-trace-private.h"

#define DMTRACE_MAX_TID G_MAXUINT16
#define DMTRACE_NO_THREAD G_MAXUINT32
#define DMTRACE_MAX_WORKERS 8
#define DMTRACE_MAGIC 0x574F4C53u
#define DMTRACE_STREAMING_FLAG 0xF0
/* Method indexes in the second pass for ids missing from the key: each
 * thread numbers its own, and they become real methods after the pass. */
#define UNKNOWN_METHOD_BIT 0x80000000u
/* A record's method when it closes whatever call is innermost. */
#define DMTRACE_INNERMOST 0xFFFFFFFCu

G_BEGIN_DECLS

enum {
  ACTION_ENTER,
  ACTION_EXIT,
  ACTION_UNROLL,
  ACTION_INVALID,
};

typedef enum {
  PASS_COUNT,
  PASS_BUILD,
} Pass;

/* One method entry or exit, as either encoding gives it. */
typedef struct
{
  guint   tid;
  guint32 value;
  guint32 time[2];   /* v1-v3: microseconds, 32 bits */
  gint64  ns[2];     /* V2: nanoseconds, in v3's field order (thread CPU first) */
  gsize   pos;       /* where it starts in the data */
} Record;

/* Where a pass reads: a place in the data, and in V2 the block of one
 * thread's records it is in, whose deltas build on each other. */
typedef struct
{
  gsize   pos;
  gsize   block_end;
  guint32 left;      /* records of the block not read yet */
  guint   slot;      /* the block's thread, as records name it */
  guint64 method;    /* the previous record's method | action */
  guint64 ticks;     /* the counter-ticks variant: the previous ticks << 2 | action */
  guint64 time[2];   /* and its times, in the file's order */
  guint   worker;    /* second pass: the worker reading; others' blocks are skipped */
} DmtraceCursor;

typedef enum
{
  DMTRACE_CLOCK_UNSET,
  DMTRACE_CLOCK_THREAD_CPU,
  DMTRACE_CLOCK_WALL,
  DMTRACE_CLOCK_DUAL,
} DmtraceClock;

typedef struct
{
  guint32 raw;           /* method value with the action bits cleared */
  guint32 method;        /* index into the trace's methods (second pass) */
  guint32 first_child;   /* spans already written one level deeper */
  gint64  start[STRATA_MAX_CLOCKS];
} DmtraceFrame;

/* A method id the key does not name, as one thread first met it. */
typedef struct
{
  guint32 raw;
  gsize   first_pos;
} DmtraceUnknown;

typedef struct
{
  guint    thread;         /* index into the trace's threads */
  DmtraceFrame *frames;    /* the call stack */
  guint    n_frames;
  guint    frames_allocated;
  StrataSpanTable *table;  /* second pass */
  int      level;          /* depth relative to where tracing started */
  int      min_level;      /* below 0 when methods exit that began before tracing */
  GArray  *counts;         /* guint32 spans per level, first pass; index level - count_base */
  int      count_base;
  guint32 *cursor;         /* spans written per depth, second pass */
  guint64  n_records;
  guint64  n_counted_records;  /* from the first pass, to share out the second */
  guint    worker;             /* which of the second pass's workers owns it */
  gsize    record_pos;         /* where the record being read starts */
  guint64  n_wraps;            /* diagnostics of the second pass, summed later */
  guint64  n_backwards;
  guint64  n_unknown_calls;
  GHashTable *unknown;         /* raw id -> index into @unknown_first */
  GArray  *unknown_first;      /* DmtraceUnknown: ids missing from the key */
  gboolean seen;
  guint32  last_raw_time[STRATA_MAX_CLOCKS];
  gint64   epoch[STRATA_MAX_CLOCKS];
  gint64   last_time[STRATA_MAX_CLOCKS];
} DmtraceThread;

typedef struct
{
  StrataLoadJob *job;
  StrataTrace   *trace;
  guint          process;

  /* Key */
  int            key_version;
  DmtraceClock   clock;
  gboolean       overflow;
  gint64         pid;
  char          *vm;

  /* Data section */
  const guint8  *data;
  gsize          len;
  guint          version;
  gboolean       streaming;
  gboolean       v2;           /* ART's format V2: packets and LEB128 blocks */
  gboolean       v2_ticks;     /* V2 as Perfetto reads it: (time << 2 | action), timestamp counter ticks */
  guint64        v2_tsc_hz;    /* its counter's frequency; 0: nanoseconds */
  gint64         start_ns;     /* V2: CLOCK_MONOTONIC when tracing began */
  StrataIdMap    v2_methods;   /* V2: ArtMethod pointer -> the 32-bit id records get */
  StrataIdMap    v2_slots;     /* V2: Linux tid -> the 16-bit thread slot records get */
  guint32        v2_next_method;
  guint          v2_next_slot;
  guint64        n_bad_blocks;
  guint64        n_bad_times;
  gboolean       v2_summary_seen;
  gsize          header_len;
  gsize          record_size;
  guint          n_time_fields;
  guint          n_clocks;
  guint          field_of_clock[STRATA_MAX_CLOCKS];

  StrataIdMap    method_ids;   /* raw id -> method index */
  guint32       *thread_of_tid;  /* tid (16 bits) -> DmtraceThread index */
  guint32       *method_direct;  /* raw id / 4 -> method index, when ids are dense */
  guint32        method_direct_len;
  GArray        *threads;      /* DmtraceThread */

  /* Diagnostics */
  guint64        n_bad_key_lines;
  guint64        n_duplicate_methods;
  guint64        n_unknown_method_calls;
  guint64        n_unknown_threads;
  guint          n_known_methods;
  guint64        n_unmatched_exits;
  guint64        n_mismatched_exits;
  guint64        n_open_at_end;
  guint64        n_bad_actions;
  guint64        n_backwards;
  guint64        n_wraps;
  gsize          truncated_at;
  gsize          truncated_bytes;
  gboolean       truncated;
  gsize          zero_tail_at;     /* where the zero bytes ending the file start, or 0 */
  gsize          zero_tail_bytes;

  /* Second pass, shared by its workers */
  guint          n_workers;
  gint           stop;             /* atomic: a worker failed or was cancelled */
  gsize          worker_pos[DMTRACE_MAX_WORKERS];  /* atomic: how far each has read */
  GMutex         release_lock;
  GCond          caught_up;        /* a worker moved on: those ahead may go on */
  gsize          released;         /* pages before this went back to the kernel */
} DmtraceLoader;

gboolean strata_dmtrace_parse_key          (DmtraceLoader  *self,
                                            const char     *text,
                                            gsize           len,
                                            GError        **error);
void     strata_dmtrace_add_method_line    (DmtraceLoader  *self,
                                            const char     *line,
                                            gsize           len);
guint    strata_dmtrace_ensure_thread      (DmtraceLoader  *self,
                                            guint           tid,
                                            const char     *name,
                                            gsize           name_len);
gsize    strata_dmtrace_find_key_end       (const guint8   *data,
                                            gsize           len);

/* Little-endian, as every number in a dmtrace file. */
static inline guint16
read_u16 (const guint8 *p)
{
  return p[0] | (p[1] << 8);
}

static inline guint32
read_u32 (const guint8 *p)
{
  return p[0] | (p[1] << 8) | (p[2] << 16) | ((guint32) p[3] << 24);
}

/* strata-dmtrace.c */
gboolean dmtrace_is_newer_art_format       (guint           version);
void     dmtrace_note_truncation           (DmtraceLoader  *self,
                                            gsize           pos);

/* strata-dmtrace-v2.c */
gboolean dmtrace_v2_parse_header           (DmtraceLoader  *self,
                                            guint           version,
                                            GError        **error);
gboolean dmtrace_v2_next_record            (DmtraceLoader  *self,
                                            DmtraceCursor  *cursor,
                                            Record         *record,
                                            Pass            pass);
void     dmtrace_v2_clear                  (DmtraceLoader  *self);
void     dmtrace_v2_report_diagnostics     (DmtraceLoader  *self);

/* strata-dmtrace-sections.c */
gboolean dmtrace_find_sections             (DmtraceLoader  *self,
                                            const guint8   *data,
                                            gsize           len,
                                            GBytes        **holder,
                                            GError        **error);
void     dmtrace_build_direct_method_table (DmtraceLoader  *self);

/* strata-dmtrace-finish.c */
void     dmtrace_add_unknown_methods       (DmtraceLoader  *self);
void     dmtrace_sum_thread_diagnostics    (DmtraceLoader  *self);
void     dmtrace_report_diagnostics        (DmtraceLoader  *self);
void     dmtrace_describe_format           (DmtraceLoader  *self);

/* strata-dmtrace-zeros.c */
void     dmtrace_trim_zero_tail            (DmtraceLoader  *self);

G_END_DECLS
