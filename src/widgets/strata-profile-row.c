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

/* Read-only properties, for GtkExpressions (sorters, bound cells). */
enum {
  PROP_0,
  PROP_NAME,
  PROP_INCL_0,
  PROP_INCL_1,
  PROP_EXCL_0,
  PROP_EXCL_1,
  PROP_CALLS,
  PROP_PER_CALL_0,
  PROP_PER_CALL_1,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (StrataProfileRow, strata_profile_row, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static gint64
clock_value (StrataProfileRow *self,
             gint64          (*getter) (StrataProfileRow *, guint),
             guint             clock)
{
  return clock < strata_profile_get_n_clocks (self->profile) ? getter (self, clock) : 0;
}

static void
strata_profile_row_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  StrataProfileRow *self = STRATA_PROFILE_ROW (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, strata_profile_row_get_name (self));
      break;
    case PROP_INCL_0:
    case PROP_INCL_1:
      g_value_set_int64 (value, clock_value (self, strata_profile_row_get_inclusive, prop_id - PROP_INCL_0));
      break;
    case PROP_EXCL_0:
    case PROP_EXCL_1:
      g_value_set_int64 (value, clock_value (self, strata_profile_row_get_exclusive, prop_id - PROP_EXCL_0));
      break;
    case PROP_CALLS:
      g_value_set_uint64 (value, strata_profile_row_get_total_calls (self));
      break;
    case PROP_PER_CALL_0:
    case PROP_PER_CALL_1:
      g_value_set_int64 (value, clock_value (self, strata_profile_row_get_time_per_call, prop_id - PROP_PER_CALL_0));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strata_profile_row_finalize (GObject *object)
{
  StrataProfileRow *self = (StrataProfileRow *)object;

  g_clear_object (&self->profile);

  G_OBJECT_CLASS (strata_profile_row_parent_class)->finalize (object);
}

static GParamSpec *
int64_property (const char *name)
{
  return g_param_spec_int64 (name, NULL, NULL, G_MININT64, G_MAXINT64, 0,
                             G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
}

static void
strata_profile_row_class_init (StrataProfileRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = strata_profile_row_finalize;
  object_class->get_property = strata_profile_row_get_property;

  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL,
                                               G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_INCL_0] = int64_property ("incl-0");
  properties[PROP_INCL_1] = int64_property ("incl-1");
  properties[PROP_EXCL_0] = int64_property ("excl-0");
  properties[PROP_EXCL_1] = int64_property ("excl-1");
  properties[PROP_CALLS] = g_param_spec_uint64 ("calls", NULL, NULL, 0, G_MAXUINT64, 0,
                                                G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_PER_CALL_0] = int64_property ("per-call-0");
  properties[PROP_PER_CALL_1] = int64_property ("per-call-1");

  g_object_class_install_properties (object_class, N_PROPS, properties);

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
  self->method = kind == STRATA_PROFILE_ROW_PARENT ? e->caller : e->callee;
  self->expanded = FALSE;
  g_signal_emit (self, signals[CHANGED], 0);
}
