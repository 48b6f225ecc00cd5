/* strata-profile.h: where the time went, per method, for each clock
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-trace.h"

G_BEGIN_DECLS

#define STRATA_TYPE_PROFILE (strata_profile_get_type ())
/* The caller of calls made at the bottom of a thread's stack. */
#define STRATA_PROFILE_TOPLEVEL G_MAXUINT32

G_DECLARE_FINAL_TYPE (StrataProfile, strata_profile, STRATA, PROFILE, GObject)

typedef struct
{
  gint64  inclusive[STRATA_MAX_CLOCKS];  /* recursive calls not added twice */
  gint64  exclusive[STRATA_MAX_CLOCKS];
  guint64 calls;                         /* not inside a call to itself */
  guint64 recursive_calls;               /* inside a call to itself */
} StrataProfileEntry;

/* The calls from one method (its caller: strata_profile_get_edge_caller())
 * to another; edges are grouped by caller. */
typedef struct
{
  gint64  time[STRATA_MAX_CLOCKS];       /* inclusive time through this edge */
  guint32 callee;
  guint32 calls;
} StrataProfileEdge;

/* A time range on one clock: only the calls in it, cut at its ends. */
typedef struct
{
  guint  clock;
  gint64 start;
  gint64 end;
} StrataProfileRange;

gboolean                  strata_profile_range_holds  (const StrataProfileRange *range,
                                                       const StrataSpanTable    *table,
                                                       guint                     depth,
                                                       guint32                   index);
void                      strata_profile_range_cut    (const StrataProfileRange *range,
                                                       const StrataSpanTable    *table,
                                                       guint                     n_clocks,
                                                       guint                     depth,
                                                       guint32                   index,
                                                       gint64                   *duration);
void                      strata_profile_range_traced (const StrataProfileRange *range,
                                                       const StrataThread       *thread,
                                                       guint                     n_clocks,
                                                       gint64                   *time);
StrataProfile            *strata_profile_new_for_range (StrataTrace              *trace,
                                                        int                       thread,
                                                        const StrataProfileRange *range,
                                                        GCancellable             *cancellable,
                                                        GError                  **error);
void                      strata_profile_new_for_range_async (StrataTrace              *trace,
                                                              int                       thread,
                                                              const StrataProfileRange *range,
                                                              GCancellable             *cancellable,
                                                              GAsyncReadyCallback       callback,
                                                              gpointer                  user_data);
gboolean                  strata_profile_get_range    (StrataProfile      *self,
                                                       StrataProfileRange *range);
StrataProfile            *strata_profile_new          (StrataTrace   *trace,
                                                       int            thread,
                                                       GCancellable  *cancellable,
                                                       GError       **error);
void                      strata_profile_new_async    (StrataTrace         *trace,
                                                       int                  thread,
                                                       GCancellable        *cancellable,
                                                       GAsyncReadyCallback  callback,
                                                       gpointer             user_data);
StrataProfile            *strata_profile_new_finish   (GAsyncResult  *result,
                                                       GError       **error);
StrataTrace              *strata_profile_get_trace    (StrataProfile *self);
guint                     strata_profile_get_n_clocks (StrataProfile *self);
gint64                    strata_profile_get_total    (StrataProfile *self,
                                                       guint          clock);
guint                     strata_profile_get_n_methods (StrataProfile *self);
const StrataProfileEntry *strata_profile_get_entry    (StrataProfile *self,
                                                       guint32        method);
const guint32            *strata_profile_get_sorted   (StrataProfile *self,
                                                       guint          clock,
                                                       guint         *n_methods);
guint                     strata_profile_get_n_edges  (StrataProfile *self);
const StrataProfileEdge  *strata_profile_get_edge     (StrataProfile *self,
                                                       guint          index);
guint32                   strata_profile_get_edge_caller (StrataProfile *self,
                                                          guint          index);
guint                     strata_profile_get_edges_from (StrataProfile *self,
                                                         guint32        caller,
                                                         guint         *first);
const guint32            *strata_profile_get_parents  (StrataProfile *self,
                                                       guint32        method,
                                                       guint         *n_edges);
const guint32            *strata_profile_get_children (StrataProfile *self,
                                                       guint32        method,
                                                       guint         *n_edges);

G_END_DECLS
