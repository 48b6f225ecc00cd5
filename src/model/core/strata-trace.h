/* strata-trace.h: a loaded trace, immutable once its loader hands it over
 *
 * Processes own threads; threads own their calls in a StrataSpanTable;
 * names live once in a string pool. Times are int64 nanoseconds.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "strata-counter.h"
#include "strata-format.h"
#include "strata-heap.h"
#include "strata-mapping.h"
#include "strata-span-table.h"
#include "strata-string-pool.h"

G_BEGIN_DECLS

#define STRATA_TYPE_TRACE (strata_trace_get_type ())
#define STRATA_MAX_CLOCKS 2

G_DECLARE_FINAL_TYPE (StrataTrace, strata_trace, STRATA, TRACE, GObject)

typedef enum
{
  STRATA_CLOCK_WALL,
  STRATA_CLOCK_THREAD_CPU,
  STRATA_CLOCK_SAMPLES,      /* sampled CPU profiles: one sample drawn as 1 ms */
} StrataClockKind;

typedef struct
{
  guint64 raw_id;         /* the id the file uses */
  guint32 class_name;     /* string pool ids; 0 is "" */
  guint32 name;
  guint32 signature;
  guint32 source_file;
  guint32 display_name;   /* e.g. "java.util.HashMap.put (Ljava/lang/Object;)V" */
  gint32  line;           /* first line, or -1 */
} StrataMethod;

typedef struct
{
  gint64  pid;
  guint32 name;
  guint32 labels;         /* string pool id, 0 without */
  gint32  sort_index;
} StrataProcess;

typedef struct
{
  guint            process;       /* index into the processes */
  gint64           tid;
  guint32          name;
  gint32           sort_index;
  StrataSpanTable *spans;         /* NULL when the thread made no calls */
  /* Calls already running when tracing began: the first span of each of
   * the lowest depths, with a start made up at the thread's first time. */
  guint            n_entered_before;
  gint64           first_time[STRATA_MAX_CLOCKS];
  gint64           last_time[STRATA_MAX_CLOCKS];
} StrataThread;

#define STRATA_NO_THREAD G_MAXUINT32

/* Anything on the time axis that is not a call: instants, async slices
 * and their steps, object lifetimes and snapshots, samples, marks, clock
 * syncs, memory dumps. @phase is the Trace Event phase letter. */
typedef struct
{
  gint64  start;       /* ns */
  gint64  end;         /* the same as @start for instants */
  guint32 name;        /* string pool ids */
  guint32 category;
  guint32 id;          /* the event's id as text, 0 when it has none */
  guint   process;     /* index into the processes */
  guint   thread;      /* index into the threads, or STRATA_NO_THREAD */
  guint16 depth;       /* nesting within an async tree */
  char    phase;
  char    scope;       /* instants: 'g'lobal, 'p'rocess or 't'hread */
  guint64 source;      /* where the event starts in the file's content */
} StrataEvent;

/* One call: a thread's span at a depth. */
typedef struct
{
  guint   thread;
  guint   depth;
  guint32 index;
} StrataSliceRef;

/* An arrow between two calls, one leg of a flow. */
typedef struct
{
  StrataSliceRef from;
  StrataSliceRef to;
  guint32        id;         /* string pool ids */
  guint32        name;
} StrataFlow;

StrataTrace         *strata_trace_new                 (StrataFormat  format);
StrataFormat         strata_trace_get_format          (StrataTrace  *self);
const char          *strata_trace_get_format_detail   (StrataTrace  *self);
GFile               *strata_trace_get_file            (StrataTrace  *self);
guint64              strata_trace_get_file_size       (StrataTrace  *self);
const char          *strata_trace_get_string          (StrataTrace  *self,
                                                       guint32       id);
guint                strata_trace_get_n_clocks        (StrataTrace  *self);
void                 strata_trace_set_calls_are_samples (StrataTrace *self,
                                                       gboolean     sampled);
gboolean             strata_trace_get_calls_are_samples (StrataTrace *self);
StrataClockKind      strata_trace_get_clock_kind      (StrataTrace  *self,
                                                       guint         clock);
char                *strata_trace_format_weight       (StrataTrace  *self,
                                                       guint         clock,
                                                       gint64        ns,
                                                       gboolean      exact);
guint                strata_trace_find_clock          (StrataTrace  *self,
                                                       StrataClockKind kind);
guint                strata_trace_get_default_clock   (StrataTrace  *self);
const char          *strata_trace_get_clock_name      (StrataTrace  *self,
                                                       guint         clock);
guint                strata_trace_get_n_processes     (StrataTrace  *self);
const StrataProcess *strata_trace_get_process         (StrataTrace  *self,
                                                       guint         index);
guint                strata_trace_get_n_threads       (StrataTrace  *self);
guint                strata_trace_count_threads_with_calls (StrataTrace *self);
const StrataThread  *strata_trace_get_thread          (StrataTrace  *self,
                                                       guint         index);
guint                strata_trace_get_n_methods       (StrataTrace  *self);
const StrataMethod  *strata_trace_get_method          (StrataTrace  *self,
                                                       guint32       index);
const char          *strata_trace_get_method_name     (StrataTrace  *self,
                                                       guint32       index);
guint64              strata_trace_get_n_spans         (StrataTrace  *self);
void                 strata_trace_rename              (StrataTrace  *self,
                                                       char        **method_names,
                                                       guint         n_methods,
                                                       char        **class_names,
                                                       guint         n_classes);
void                 strata_trace_restore_names       (StrataTrace  *self);
void                 strata_trace_set_mapped_methods  (StrataTrace  *self,
                                                       GArray       *methods);
const StrataMethod  *strata_trace_get_shown_method    (StrataTrace  *self,
                                                       guint32       index);
void                 strata_trace_set_field_mapping   (StrataTrace  *self,
                                                       StrataMapping *mapping);
const char          *strata_trace_map_field_name      (StrataTrace  *self,
                                                       const char   *klass,
                                                       const char   *field);
gboolean             strata_trace_is_renamed          (StrataTrace  *self);
const char          *strata_trace_get_loaded_method_name (StrataTrace *self,
                                                       guint32       index);
gint64               strata_trace_get_clock_origin    (StrataTrace  *self,
                                                       guint         clock);
void                 strata_trace_get_clock_range     (StrataTrace  *self,
                                                       guint         clock,
                                                       gint64       *start,
                                                       gint64       *end);
gint64               strata_trace_get_start           (StrataTrace  *self);
gint64               strata_trace_get_end             (StrataTrace  *self);
guint                strata_trace_get_n_metadata      (StrataTrace  *self);
void                 strata_trace_get_metadata        (StrataTrace  *self,
                                                       guint         index,
                                                       const char  **key,
                                                       const char  **value);
guint                strata_trace_get_n_events        (StrataTrace  *self);
const StrataEvent   *strata_trace_get_event           (StrataTrace  *self,
                                                       guint         index);
guint                strata_trace_get_n_flows         (StrataTrace  *self);
const StrataFlow    *strata_trace_get_flow            (StrataTrace  *self,
                                                       guint         index);
guint                strata_trace_get_n_counters      (StrataTrace  *self);
const StrataCounter *strata_trace_get_counter         (StrataTrace  *self,
                                                       guint         index);
GBytes              *strata_trace_get_args_text       (StrataTrace  *self);
gboolean             strata_trace_get_source_link     (StrataTrace  *self,
                                                       guint64       from,
                                                       guint64      *to);
const StrataHeap    *strata_trace_get_heap            (StrataTrace  *self);
gboolean             strata_trace_is_heap_only        (StrataTrace  *self);
guint64              strata_trace_get_phase_count     (StrataTrace  *self,
                                                       char          phase);
guint                strata_trace_get_n_diagnostics   (StrataTrace  *self);
guint64              strata_trace_count_calls_in      (StrataTrace  *self,
                                                       guint         clock,
                                                       gint64        start,
                                                       gint64        end);
GArray              *strata_trace_collect_calls_of    (StrataTrace  *self,
                                                       guint         clock,
                                                       guint32       method);
gboolean             strata_trace_find_longest_call   (StrataTrace    *self,
                                                       guint32         method,
                                                       StrataSliceRef *call);
const char          *strata_trace_get_diagnostic      (StrataTrace  *self,
                                                       guint         index);
guint                strata_trace_get_n_notes         (StrataTrace  *self);
const char          *strata_trace_get_note            (StrataTrace  *self,
                                                       guint         index);

G_END_DECLS
