/* strata-profile-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-profile-row.h"

struct _StrataProfileRow
{
  GObject               parent_instance;

  StrataProfile        *profile;
  StrataProfileRowKind  kind;
  guint32               method;   /* the method this row is about */
  guint                 edge;     /* parents and children: the edge */
  gboolean              expanded; /* methods: showing parents and children */
};

G_DEFINE_FINAL_TYPE (StrataProfileRow, strata_profile_row, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
strata_profile_row_finalize (GObject *object)
{
  StrataProfileRow *self = (StrataProfileRow *)object;

  g_clear_object (&self->profile);

  G_OBJECT_CLASS (strata_profile_row_parent_class)->finalize (object);
}

static void
strata_profile_row_class_init (StrataProfileRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = strata_profile_row_finalize;

  /**
   * StrataProfileRow::changed:
   *
   * The row now stands for another method or edge; cells show it again.
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
strata_profile_row_init (StrataProfileRow *self)
{
}

StrataProfileRow *
strata_profile_row_new_method (StrataProfile *profile,
                               guint32        method)
{
  StrataProfileRow *self = g_object_new (STRATA_TYPE_PROFILE_ROW, NULL);

  self->profile = g_object_ref (profile);
  self->kind = STRATA_PROFILE_ROW_METHOD;
  self->method = method;
  return self;
}

StrataProfileRowKind
strata_profile_row_get_kind (StrataProfileRow *self)
{
  return self->kind;
}

/* A parent row names the caller, a child row the callee;
 * STRATA_PROFILE_TOPLEVEL for the parent row of calls at the bottom of a
 * stack. */
guint32
strata_profile_row_get_method (StrataProfileRow *self)
{
  return self->method;
}

const char *
strata_profile_row_get_name (StrataProfileRow *self)
{
  if (self->method == STRATA_PROFILE_TOPLEVEL)
    return _("(toplevel)");
  return strata_trace_get_method_name (strata_profile_get_trace (self->profile), self->method);
}

static const StrataProfileEdge *
edge (StrataProfileRow *self)
{
  return strata_profile_get_edge (self->profile, self->edge);
}

/* Edge rows: the time spent in the callee through this edge. */
gint64
strata_profile_row_get_inclusive (StrataProfileRow *self,
                                  guint             clock)
{
  if (self->kind != STRATA_PROFILE_ROW_METHOD)
    return edge (self)->time[clock];
  return strata_profile_get_entry (self->profile, self->method)->inclusive[clock];
}

gint64
strata_profile_row_get_exclusive (StrataProfileRow *self,
                                  guint             clock)
{
  if (self->kind != STRATA_PROFILE_ROW_METHOD)
    return -1;
  return strata_profile_get_entry (self->profile, self->method)->exclusive[clock];
}

/* Edge rows: the calls made through the edge. */
guint64
strata_profile_row_get_calls (StrataProfileRow *self)
{
  if (self->kind != STRATA_PROFILE_ROW_METHOD)
    return edge (self)->calls;
  return strata_profile_get_entry (self->profile, self->method)->calls;
}

guint64
strata_profile_row_get_recursive_calls (StrataProfileRow *self)
{
  if (self->kind != STRATA_PROFILE_ROW_METHOD)
    return 0;
  return strata_profile_get_entry (self->profile, self->method)->recursive_calls;
}

/* The calls an edge row's count is out of: all calls to the callee. */
guint64
strata_profile_row_get_total_calls (StrataProfileRow *self)
{
  const StrataProfileEntry *entry;

  entry = strata_profile_get_entry (self->profile,
                                    self->kind == STRATA_PROFILE_ROW_METHOD ? self->method
                                                                            : edge (self)->callee);
  return entry->calls + entry->recursive_calls;
}

gint64
strata_profile_row_get_time_per_call (StrataProfileRow *self,
                                      guint             clock)
{
  guint64 calls = strata_profile_row_get_calls (self);

  return calls ? strata_profile_row_get_inclusive (self, clock) / (gint64) calls : 0;
}

gboolean
strata_profile_row_get_expanded (StrataProfileRow *self)
{
  g_return_val_if_fail (STRATA_IS_PROFILE_ROW (self), FALSE);

  return self->expanded;
}

/* A list shows a row object per place, and the place's content changes
 * when the list is sorted or filtered: these point the row at new
 * content and say so. */
void
strata_profile_row_set_method (StrataProfileRow *self,
                               guint32           method,
                               gboolean          expanded)
{
  g_return_if_fail (STRATA_IS_PROFILE_ROW (self));

  if (self->kind == STRATA_PROFILE_ROW_METHOD && self->method == method && self->expanded == !!expanded)
    return;
  self->kind = STRATA_PROFILE_ROW_METHOD;
  self->method = method;
  self->expanded = !!expanded;
  g_signal_emit (self, signals[CHANGED], 0);
}

void
strata_profile_row_set_edge (StrataProfileRow     *self,
                             StrataProfileRowKind  kind,
                             guint                 edge)
{
  const StrataProfileEdge *e;

  g_return_if_fail (STRATA_IS_PROFILE_ROW (self));
  g_return_if_fail (kind != STRATA_PROFILE_ROW_METHOD);

  if (self->kind == kind && self->edge == edge)
    return;
  e = strata_profile_get_edge (self->profile, edge);
  self->kind = kind;
  self->edge = edge;
  self->method = kind == STRATA_PROFILE_ROW_PARENT ? strata_profile_get_edge_caller (self->profile, edge) : e->callee;
  self->expanded = FALSE;
  g_signal_emit (self, signals[CHANGED], 0);
}
