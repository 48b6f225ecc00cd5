/* strata-trace-event-private.h: state shared by the Trace Event loader's parts
 *
 * strata-trace-event.c reads the containers and interns ids;
 * -scan.c reads one event's fields where they lie; -phases.c applies
 * each event to the state below; -build.c turns that state into the
 * trace's span tables, events, flows and counters once every event is in,
 * and -samples.c does the same for stack samples.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "strata-content-reader.h"
#include "strata-id-map.h"
#include "strata-json-scan.h"
#include "strata-load-guard.h"
#include "strata-stack-layout.h"
#include "strata-loader-private.h"
#include "strata-trace-private.h"
#include "strata-v8-stacks.h"

G_BEGIN_DECLS

#define TE_SLICE_THREAD_TIME (1u << 0)
#define TE_SLICE_FLOW_IN     (1u << 1)
#define TE_SLICE_FLOW_OUT    (1u << 2)

/* A call before it has its depth: millions of them, kept small. */
typedef struct
{
  gint64  start;
  gint64  end;
  gint64  thread_start;
  gint64  thread_end;
  guint64 source;
  guint32 method;
  guint32 flags;
} TeSlice;

/* A call that binds flows by id (flow v2): the few that have one. */
typedef struct
{
  guint32 slice;        /* index in its thread's slices */
  guint32 bind_id;      /* string pool id of bind_id */
  guint32 flags;
  guint32 ref;          /* after building: its index at its depth */
  guint32 depth;
} TeBound;

typedef struct
{
  gint64  start;
  gint64  thread_start;
  guint64 source;
  guint32 name;
  guint32 category;
  guint32 flags;
  guint32 bind_id;
} TeOpenBegin;

typedef struct
{
  GArray  *slices;      /* TeSlice, in file order; freed once built */
  guint32  n_sorted_tail;  /* the last slices, in the order of the build's sort */
  GArray  *bound;       /* TeBound, in slice order; NULL without */
  GArray  *open;        /* TeOpenBegin: the B events not yet ended */
  gint64   last_time;   /* latest timestamp seen on the thread */
  gboolean has_time;
} TeThread;

/* A flow event (s, t, f) waiting for the calls to bind to. */
typedef struct
{
  gint64  time;
  guint32 key;          /* index of its flow (category + id) */
  guint32 id;
  guint32 name;
  guint   thread;
  char    phase;
  char    binds_enclosing;
} TeFlowStep;

/* One stack sample: a thread, a time, the leaf frame's id. */
typedef struct
{
  gint64  time;
  guint   thread;
  char   *frame;
} TeSample;

/* What async events, objects, flows and counters are matched by. */
typedef struct
{
  guint32 category;
  guint32 id;
  guint32 process;     /* G_MAXUINT32 for global ids */
  guint32 name;
  guint32 scope;
} TeKey;

/* Lookups remembered while reading: strings by spelling, methods by key. */
#define TE_INTERN_CACHE_BITS 12
#define TE_METHOD_CACHE_SIZE 1024

typedef struct _TeState TeState;

/* The reader's way to find or make the thread of a pid and tid (as text),
 * for the samples built after reading: ids are the reader's to intern. */
typedef guint (*TeThreadFunc) (TeState    *state,
                               const char *pid,
                               const char *tid);

struct _TeState
{
  StrataLoadJob *job;
  StrataTrace   *trace;
  TeThreadFunc   ensure_thread;  /* set by the reader */
  GArray        *threads;        /* TeThread, by trace thread index */
  GArray        *events;         /* StrataEvent */
  GArray        *flow_steps;     /* TeFlowStep */
  GPtrArray     *counters;       /* StrataCounterBuilder, by counter key */
  GHashTable    *counter_keys;   /* TeKey -> index + 1 */
  GHashTable    *async_open;     /* TeKey -> GArray of event indexes */
  GHashTable    *objects_open;   /* TeKey -> event index + 1 */
  GHashTable    *flow_keys;      /* TeKey -> index + 1 */
  StrataIdMap    methods;        /* name << 32 | category -> method */
  guint64        method_keys[TE_METHOD_CACHE_SIZE];  /* the keys last looked up, */
  guint32        method_of[TE_METHOD_CACHE_SIZE];    /* and their methods + 1 */
  JsonNode      *stack_frames;   /* the "stackFrames" member */
  JsonNode      *samples_member; /* the "samples" member */
  GArray        *samples;        /* TeSample */
  GHashTable    *v8_profiles;    /* "pid:id" -> TeV8Profile: JavaScript samples */
  gpointer       last_profile;   /* the TeV8Profile found last, */
  GString       *last_profile_pid;  /* by this pid and id, as written */
  GString       *last_profile_id;
  gboolean       has_thread_time;
  gint64         last_time;      /* latest timestamp in the whole trace */
  guint64        phase_counts[128];

  /* What was repaired, for the diagnostics. */
  guint64        n_unmatched_ends;
  guint64        n_mismatched_ends;
  guint64        n_unended_begins;
  guint64        n_clipped;
  guint64        n_without_time;
  guint64        n_negative_durations;
  guint64        n_unknown_phases;
  guint64        n_async_unmatched_ends;
  guint64        n_async_unended;
  guint64        n_objects_undeleted;
  guint64        n_unbound_flows;
  guint64        n_bad_counter_values;
  guint64        n_bad_samples;
  guint64        n_cut_sample_stacks;  /* deeper than the samples' limit, or looping */
  guint64        n_bad_profile_chunks;
  guint64        n_bound_slices;  /* calls with flow_in or flow_out */
};

/* A thread's span table written as its calls open. */
typedef struct _TeTable TeTable;

TeTable *te_table_new    (guint          n_clocks,
                          gint64         first_thread_time);
void     te_table_free   (TeTable       *self);
guint32  te_table_open   (TeTable       *self,
                          guint          depth,
                          const TeSlice *slice);
void     te_table_set_end (TeTable      *self,
                           guint         depth,
                           guint32       index,
                           gint64        end);
gint64   te_table_get_origin (TeTable *self);
guint32  te_table_get_n_calls (TeTable *self,
                               guint    depth);
void     te_table_append (TeTable       *self,
                          TeTable       *tail);
StrataSpanTable *te_table_finish (TeTable     *self,
                                  StrataTrace *trace);
void    strata_trace_event_fit_thread_time (StrataClockSpan       *span,
                                            const TeSlice         *slice,
                                            const StrataClockSpan *parent,
                                            gint64                *last_end,
                                            gint64                *now);
gint64  strata_trace_event_first_thread_time (const TeSlice *slices,
                                              guint32        n);
void    strata_trace_event_place_bound   (GArray        *bound,
                                          const guint32 *depths,
                                          const guint32 *refs);
void    strata_trace_event_set_thread_range (StrataThread *thread);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TeTable, te_table_free)

gboolean strata_trace_event_build        (TeState *state,
                                          GError **error);
void    strata_trace_event_add_slice     (TeState       *state,
                                          TeThread      *thread,
                                          const TeSlice *slice,
                                          guint32        bind_id);
void    strata_trace_event_build_samples (TeState *state);
guint   strata_trace_event_companion_thread (TeState    *state,
                                             guint       sampled);
/* What laying out samples changed of the trace's totals, kept apart
 * by each core and summed after. */
typedef struct
{
  guint64 n_clipped;
  gint64  last_time;
} TeNestTotals;

gboolean strata_trace_event_nest_stacks (TeState                *state,
                                        guint                   thread,
                                        StrataV8Stacks         *stacks,
                                        gint64                  end,
                                        gboolean                last_profile,
                                        gboolean                may_cut,
                                        TeNestTotals           *totals);
guint32 *strata_trace_event_sort_slices (const TeSlice *slices,
                                         guint32        n,
                                         GCancellable  *cancellable);
gboolean strata_trace_event_slices_sorted (const TeSlice *slices,
                                           guint32        n);
gboolean strata_trace_event_slices_in_order (GArray  *slices,
                                             guint32  first);
void    strata_trace_event_lay_out_stacks (TeState                *state,
                                           guint                   thread,
                                           const StrataTimedStack *stacks,
                                           guint                   n_stacks,
                                           gint64                  end);
gboolean strata_trace_event_build_profiles (TeState  *state,
                                           GError  **error);
guint32 strata_trace_event_ensure_method (TeState *state,
                                          guint32  name,
                                          guint32  category);
void  strata_trace_event_state_init (TeState *state,
                                     StrataLoadJob *job,
                                     StrataTrace   *trace);
void  strata_trace_event_state_clear (TeState *state);


/* ---- Reading events (strata-trace-event.c and its -scan, -phases) ---- */

#define TE_MAX_TIME (G_GINT64_CONSTANT (1) << 62)
#define KEY_IS(literal) (key_len == sizeof (literal) - 1 && memcmp (key, literal, key_len) == 0)

typedef struct
{
  gboolean         present;
  gboolean         is_string;
  StrataJsonString text;     /* strings, and numbers' digits */
  guint64          word;     /* its first 8 bytes, once te_read_words() has run */
} TeValue;

/* A text's first 48 bytes, or its first and last 24 if longer: texts
 * of 48 bytes at most (Chrome's long categories among them) are told
 * apart by these and their length alone. */
typedef struct
{
  guint64 w[6];
} TeTextWords;

typedef struct
{
  /* What the loading thread reads of nearly every event comes first, in
   * as few cache lines as can be: the scanning thread wrote them on
   * another core. */
  char             ph;
  char             scope;
  char             bp;
  guint8           has_name, has_cat, has_ts, has_dur, has_tts, has_tdur, has_scope;
  guint8           bad_ts;
  guint8           flow_in, flow_out;
  guint8           id_global, id_local;
  guint8           times_read;           /* te_parse_times() has run */
  guint8           words_read;           /* te_read_words() has run */
  gint64           ts, dur, tts, tdur;   /* once te_parse_times() has run */
  TeValue          pid, tid;
  StrataJsonString name;
  /* The name's and category's words: the scanning thread reads them
   * (te_read_words()) and the loading thread, which would wait for the
   * file's text to reach its core, compares them instead. */
  TeTextWords      name_words;
  StrataJsonString cat;
  TeTextWords      cat_words;
  const char      *args;
  const char      *args_end;
  const struct _TeProfileArgs *profile_args;   /* read ahead by the scanner, or NULL */
  const gint64    *profile_args_numbers;        /* what its runs are of */
  TeValue          id, bind_id, sf;
  StrataJsonString scope_name;   /* "scope": ids of one scope match only each other */
  /* The times as written: the scan finds them, the scanning thread
   * reads them (te_parse_times()), so the loading thread does less. */
  const char      *time_text[4];         /* ts, dur, tts, tdur; NULL without */
  guint32          time_len[4];
  const struct _TeArgsReader *args_reader;    /* reads args as they are scanned, or NULL */
} TeFields;

/* The args of a "Profile" or "ProfileChunk" event, read from the text:
 * the samples and deltas are runs of @numbers. */
typedef struct _TeProfileArgs
{
  gboolean    ok;             /* they hold a "data" object */
  gboolean    has_start;
  gint64      start;          /* µs: data.startTime */
  const char *nodes;          /* the text of cpuProfile.nodes, or NULL */
  const char *nodes_end;
  guint       ids_at, n_ids;  /* cpuProfile.samples */
  guint       deltas_at, n_deltas;  /* timeDeltas, unless grouped as read */
  guint       groups_at, n_groups;  /* strata_v8_group_samples() of them */
  gboolean    grouped_as_read;      /* the deltas were not kept: */
  const char *deltas_text;          /* their text, to read again if need be */
  const char *deltas_end;
} TeProfileArgs;

/* Reads an event's args where the scan finds them, before it knows
 * the event's name (Chrome writes "args" first): TRUE if it read them,
 * @status and @value_end set as strata_json_skip_value() sets them. */
typedef struct _TeArgsReader
{
  gboolean (*read) (gpointer           data,
                    const char        *p,
                    const char        *end,
                    StrataJsonStatus  *status,
                    const char       **value_end);
  gpointer   data;
} TeArgsReader;

/* A thread by how its pid and tid are spelt, each in 8 bytes at most. */
typedef struct
{
  guint64 pid, tid;    /* their words */
  guint32 shape;       /* their lengths and kinds; 0 for none */
  guint32 thread;
} TeThreadSpelling;

typedef struct
{
  const char *text;    /* pooled, or NULL when unused */
  guint32     len;
  guint32     id;
  TeTextWords words;
} TeInternEntry;

/* Where the events an array scan finds go: @slot gives the place for
 * the next one's fields, @take is told it holds an event. */
typedef struct
{
  TeFields *(*slot) (gpointer data);
  gboolean  (*take) (gpointer data,
                     guint64  source);   /* FALSE stops the scan */
  gpointer    data;
} TeEventSink;

/* How the event array ended, and what in it was not an event. */
typedef struct
{
  StrataContentReader *reader;
  guint64     n_not_objects;
  gboolean    truncated;
  gboolean    cut_mid_event;
  gboolean    trailing_comma;
  gboolean    invalid;
  guint64     truncated_at;
  guint64     invalid_at;
  gsize       limit;       /* stop before an item that starts here or after; 0: none */
  gboolean    at_limit;    /* it stopped there */
} TeArrayScan;

typedef struct
{
  TeState   state;
  StrataContentReader reader;
  TeArrayScan array;
  TeFields  fields;            /* the event being read, read one at a time */
  GError  **error;             /* while the event array is read */
  GString  *scratch;
  StrataIdMap processes;       /* pid -> process index */
  GPtrArray  *threads;         /* per process: StrataIdMap, tid -> thread index */
  GHashTable *named_ids;       /* pid or tid text -> made-up number */
  gint64      last_pid, last_tid;
  guint       last_thread;
  gboolean    texts_stay;      /* what was read stays in place: a mapped file */
  TeValue     last_pid_text;   /* the spelling of the last thread's ids, */
  TeValue     last_tid_text;   /* their words, and text while texts stay */
  TeInternEntry *intern_cache; /* the strings last interned */
  TeThreadSpelling *spellings; /* open addressing: every short spelling seen */
  guint       spellings_mask;
  guint       n_spellings;
  guint64     n_events;
  guint64     progress_at;     /* the content offset progress was told at */
  gboolean    has_trace_events;
} TeLoader;

/* strata-trace-event.c */
gboolean te_scan_event_array (TeArrayScan       *scan,
                              const TeEventSink *sink);
gboolean te_take_event       (TeLoader          *self,
                              TeFields          *fields,
                              guint64            source);
void     te_parse_times      (TeFields          *fields);
void     te_read_words       (TeFields          *fields);
void     te_text_words       (const StrataJsonString *text,
                              TeTextWords            *words);

/* strata-trace-event-parallel.c */
gboolean te_read_events_in_parallel (TeLoader  *self,
                                     GError   **error);

/* strata-trace-event-scan.c */
StrataJsonStatus te_scan_event     (const char             *p,
                                    const char             *end,
                                    TeFields               *fields,
                                    const char            **event_end);
StrataJsonStatus te_scan_value     (const char             *p,
                                    const char             *end,
                                    TeValue                *value,
                                    const char            **value_end);

/* strata-trace-event.c */
guint32          te_intern_string  (TeLoader               *self,
                                    const StrataJsonString *string);
guint32          te_intern_name    (TeLoader               *self,
                                    const TeFields         *fields);
guint32          te_intern_category (TeLoader              *self,
                                     const TeFields        *fields);
guint32          te_intern_id      (TeLoader               *self,
                                    const TeValue          *value);
guint            te_ensure_process (TeLoader               *self,
                                    const TeValue          *pid_value);
guint            te_ensure_thread  (TeLoader               *self,
                                    const TeFields         *fields);
guint32          te_ensure_method  (TeLoader               *self,
                                    guint32                 name,
                                    guint32                 category);

/* strata-trace-event-phases.c */
void             te_handle_event   (TeLoader               *self,
                                    const TeFields         *fields,
                                    guint64                 source);

/* strata-trace-event-profiles.c: V8 profiles in Profile and ProfileChunk events */
gboolean te_is_profile_event (const TeFields *fields);
void     te_read_profile_args (const TeFields *fields,
                               GArray         *numbers,
                               TeProfileArgs  *args);
StrataJsonStatus te_read_profile_args_at (const char     *p,
                                          const char     *end,
                                          GArray         *numbers,
                                          TeProfileArgs  *args,
                                          const char    **args_end);
gboolean strata_trace_event_read_profile (TeState        *state,
                                          const TeFields *fields,
                                          guint           thread);

G_END_DECLS
