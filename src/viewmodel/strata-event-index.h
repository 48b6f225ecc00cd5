/* strata-event-index.h: where each of a trace's events is drawn
 *
 * The trace keeps its events (instants, async slices, objects, …) in one
 * array by time. The timeline needs them by place: the instants of each
 * thread and process and the global ones, and each process's async and
 * object slices packed into lanes so overlapping ones do not collide.
 * Built once per trace; plain data, no GTK.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-trace.h"

G_BEGIN_DECLS

typedef enum
{
  STRATA_LANES_ASYNC,
  STRATA_LANES_OBJECTS,
  STRATA_N_LANE_KINDS,
} StrataLaneKind;

typedef struct
{
  guint event;   /* index into the trace's events */
  guint lane;
} StrataLaneItem;

typedef struct
{
  GArray *items;     /* StrataLaneItem, by start */
  guint   n_lanes;
} StrataLanes;

typedef struct
{
  guint         n_threads;
  guint         n_processes;
  GArray      **thread_instants;    /* per thread: guint event indexes, by time */
  GArray      **process_instants;   /* per process */
  GArray       *global_instants;
  StrataLanes **lanes;              /* per process: STRATA_N_LANE_KINDS lanes */
} StrataEventIndex;

StrataEventIndex *strata_event_index_new        (StrataTrace            *trace);
void              strata_event_index_free       (StrataEventIndex       *self);
const StrataLanes *strata_event_index_get_lanes (const StrataEventIndex *self,
                                                 guint                   process,
                                                 StrataLaneKind          kind);
guint             strata_event_index_first_from (StrataTrace            *trace,
                                                 const GArray           *events,
                                                 gint64                  time);

const char       *strata_event_phase_describe   (char                    phase);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (StrataEventIndex, strata_event_index_free)

G_END_DECLS
