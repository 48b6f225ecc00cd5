/* strata-session.c: view state shared by the widgets of one window
 *
 * Everything a window's views agree on lives here, so views never talk to
 * each other and a test can drive it without a display: the trace and its
 * profile, the clock, the visible range and the time under the pointer,
 * the selected method, call, event or counter value and time range, the
 * thread and range the profile is restricted to, the timeline's compact
 * layout and flow arrows, and the user's track layout. The commands that
 * change it are actions (strata-session-actions.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-counter-render.h"
#include "strata-description.h"
#include "strata-palette.h"
#include "strata-session-private.h"
#include "strata-track-prefs.h"

/* Never zoom in further than this many nanoseconds across the view. */
#define MIN_VISIBLE_NS 1000


enum {
  PROP_0,
  PROP_TRACE,
  PROP_PROFILE,
  PROP_CLOCK,
  PROP_SELECTED_METHOD,
  PROP_PROFILE_THREAD,
  PROP_RANGE_ONLY,
  PROP_COMPACT,
  PROP_SHOW_ALL_FLOWS,
  PROP_COMPARISON,
  N_PROPS
};

enum {
  VISIBLE_RANGE_CHANGED,
  SELECTION_RANGE_CHANGED,
  SELECTED_ITEM_CHANGED,
  TRACKS_CHANGED,
  SEARCH_CHANGED,
  MARKS_CHANGED,
  NAMES_CHANGED,
  CALL_TREE_THREADS_CHANGED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE (StrataSession, strata_session, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void merge_call_tree (StrataSession *self);

static void
strata_session_dispose (GObject *object)
{
  StrataSession *self = (StrataSession *)object;

  if (self->profile_cancellable != NULL)
    g_cancellable_cancel (self->profile_cancellable);
  g_clear_object (&self->profile_cancellable);
  g_clear_object (&self->call_tree);
  g_clear_object (&self->trace);
  g_clear_object (&self->profile);
  g_clear_pointer (&self->colors, g_free);
  g_clear_pointer (&self->track_prefs, strata_track_prefs_free);
  g_clear_pointer (&self->search, strata_search_unref);
  strata_session_notes_clear (self);
  g_clear_pointer (&self->marks, g_array_unref);
  g_clear_pointer (&self->call_tree_threads, g_array_unref);
  g_clear_object (&self->baseline);
  g_clear_object (&self->comparison);
  g_clear_pointer (&self->baseline_colors, g_free);
  g_clear_pointer (&self->shared_colors, g_free);

  G_OBJECT_CLASS (strata_session_parent_class)->dispose (object);
}

static void
strata_session_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  StrataSession *self = STRATA_SESSION (object);

  switch (prop_id)
    {
    case PROP_TRACE:
      g_value_set_object (value, self->trace);
      break;

    case PROP_PROFILE:
      g_value_set_object (value, self->profile);
      break;

    case PROP_CLOCK:
      g_value_set_uint (value, self->clock);
      break;

    case PROP_SELECTED_METHOD:
      g_value_set_uint (value, self->selected_method);
      break;

    case PROP_PROFILE_THREAD:
      g_value_set_int (value, self->profile_thread);
      break;

    case PROP_RANGE_ONLY:
      g_value_set_boolean (value, self->range_only);
      break;

    case PROP_COMPACT:
      g_value_set_boolean (value, self->compact);
      break;

    case PROP_SHOW_ALL_FLOWS:
      g_value_set_boolean (value, self->show_all_flows);
      break;

    case PROP_COMPARISON:
      g_value_set_object (value, self->comparison);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* Whether *@flag changed. */
static gboolean
set_flag (gboolean *flag,
          gboolean  value)
{
  if (*flag == !!value)
    return FALSE;
  *flag = !!value;
  return TRUE;
}

static void
strata_session_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  StrataSession *self = STRATA_SESSION (object);

  switch (prop_id)
    {
    case PROP_TRACE:
      strata_session_set_trace (self, g_value_get_object (value));
      break;

    case PROP_CLOCK:
      strata_session_set_clock (self, g_value_get_uint (value));
      break;

    case PROP_SELECTED_METHOD:
      strata_session_set_selected_method (self, g_value_get_uint (value));
      break;

    case PROP_PROFILE_THREAD:
      strata_session_set_profile_thread (self, g_value_get_int (value));
      break;

    case PROP_RANGE_ONLY:
      strata_session_set_range_only (self, g_value_get_boolean (value));
      break;

    case PROP_COMPACT:
    case PROP_SHOW_ALL_FLOWS:
      if (set_flag (prop_id == PROP_COMPACT ? &self->compact : &self->show_all_flows, g_value_get_boolean (value)))
        g_object_notify_by_pspec (object, pspec);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* What the session tells its views besides its properties. */
static void
install_signals (GObjectClass *klass)
{
  signals[VISIBLE_RANGE_CHANGED] =
    g_signal_new ("visible-range-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SELECTION_RANGE_CHANGED] =
    g_signal_new ("selection-range-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SELECTED_ITEM_CHANGED] =
    g_signal_new ("selected-item-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[MARKS_CHANGED] =
    g_signal_new ("marks-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* The trace shows other names for its methods and classes (a mapping). */
  signals[NAMES_CHANGED] =
    g_signal_new ("names-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SEARCH_CHANGED] =
    g_signal_new ("search-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /**
   * StrataSession::call-tree-threads-changed:
   *
   * The call tree merges several threads now, or follows the profile's
   * thread again (strata_session_get_call_tree_threads()).
   */
  signals[CALL_TREE_THREADS_CHANGED] =
    g_signal_new ("call-tree-threads-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[TRACKS_CHANGED] =
    g_signal_new ("tracks-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
strata_session_class_init (StrataSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = strata_session_dispose;
  object_class->get_property = strata_session_get_property;
  object_class->set_property = strata_session_set_property;
  strata_session_notes_class_init (object_class);

  properties[PROP_TRACE] =
    g_param_spec_object ("trace", NULL, NULL,
                         STRATA_TYPE_TRACE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_PROFILE] =
    g_param_spec_object ("profile", NULL, NULL,
                         STRATA_TYPE_PROFILE,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_CLOCK] =
    g_param_spec_uint ("clock", NULL, NULL,
                       0, STRATA_MAX_CLOCKS - 1, 0,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_SELECTED_METHOD] =
    g_param_spec_uint ("selected-method", NULL, NULL,
                       0, G_MAXUINT32, STRATA_NO_METHOD,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  /* The thread whose profile the profile view shows; -1 for all. */
  properties[PROP_PROFILE_THREAD] =
    g_param_spec_int ("profile-thread", NULL, NULL,
                      -1, G_MAXINT, -1,
                      (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  /* Profile only the selected time range (when there is one). */
  properties[PROP_RANGE_ONLY] =
    g_param_spec_boolean ("range-only", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  /* The timeline's layout: each thread's calls in one row. */
  properties[PROP_COMPACT] =
    g_param_spec_boolean ("compact", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  /* Flow arrows for every call, not only the selected one. */
  properties[PROP_SHOW_ALL_FLOWS] =
    g_param_spec_boolean ("show-all-flows", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  /* The trace against a baseline, once both profiles are ready. */
  properties[PROP_COMPARISON] =
    g_param_spec_object ("comparison", NULL, NULL,
                         STRATA_TYPE_COMPARISON,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  install_signals (G_OBJECT_CLASS (klass));
}

static void
strata_session_init (StrataSession *self)
{
  self->selected_method = STRATA_NO_METHOD;
  self->profile_thread = -1;
  self->track_prefs = strata_track_prefs_new ();
}

StrataSession *
strata_session_new (void)
{
  return g_object_new (STRATA_TYPE_SESSION, NULL);
}

/**
 * strata_session_get_trace:
 *
 * Returns: (transfer none) (nullable): the trace on show
 */
StrataTrace *
strata_session_get_trace (StrataSession *self)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), NULL);

  return self->trace;
}

static void
profile_ready_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(StrataSession) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataProfile) profile = strata_profile_new_finish (result, &error);

  if (profile == NULL || strata_profile_get_trace (profile) != self->trace)
    return;

  g_set_object (&self->profile, profile);
  g_free (self->colors);
  self->colors = strata_palette_assign (profile, 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
  strata_session_compare_with_baseline (self);
}

/**
 * strata_session_names_changed:
 *
 * Says the trace shows other names now (strata_trace_rename()): the views
 * lay their names out again, and a comparison matches by the new ones.
 */
void
strata_session_names_changed (StrataSession *self)
{
  g_return_if_fail (STRATA_IS_SESSION (self));

  if (self->comparison != NULL)
    strata_session_compare_with_baseline (self);
  g_signal_emit (self, signals[NAMES_CHANGED], 0);
}

/* The profile (and with it the colours) is computed off the main thread;
 * views draw neutral colours until it arrives. */
void
strata_session_set_trace (StrataSession *self,
                          StrataTrace   *trace)
{
  g_return_if_fail (STRATA_IS_SESSION (self));
  g_return_if_fail (!trace || STRATA_IS_TRACE (trace));

  if (!g_set_object (&self->trace, trace))
    return;

  if (self->profile_cancellable != NULL)
    g_cancellable_cancel (self->profile_cancellable);
  g_clear_object (&self->profile_cancellable);
  g_clear_object (&self->profile);
  g_clear_pointer (&self->colors, g_free);
  self->clock = trace != NULL ? strata_trace_get_default_clock (trace) : 0;
  self->selected_method = STRATA_NO_METHOD;
  g_clear_pointer (&self->marks, g_array_unref);
  self->has_range = FALSE;
  self->has_hover = FALSE;
  self->profile_thread = -1;
  g_clear_pointer (&self->call_tree_threads, g_array_unref);
  self->range_only = FALSE;
  self->selected_kind = STRATA_SELECTED_NOTHING;
  g_clear_pointer (&self->shared_colors, g_free);
  g_clear_object (&self->baseline);
  g_clear_object (&self->comparison);
  g_clear_pointer (&self->baseline_colors, g_free);
  strata_track_prefs_reset (self->track_prefs);
  if (self->search != NULL)
    {
      g_clear_pointer (&self->search, strata_search_unref);
      g_signal_emit (self, signals[SEARCH_CHANGED], 0);
    }

  if (trace != NULL)
    {
      self->profile_cancellable = g_cancellable_new ();
      strata_profile_new_async (trace, -1, self->profile_cancellable,
                                profile_ready_cb, g_object_ref (self));
    }

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRACE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CLOCK]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_METHOD]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE_THREAD]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RANGE_ONLY]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COMPARISON]);
  strata_session_zoom_to_fit (self);
  strata_session_load_notes (self);
  g_signal_emit (self, signals[SELECTION_RANGE_CHANGED], 0);
  g_signal_emit (self, signals[SELECTED_ITEM_CHANGED], 0);
}

/**
 * strata_session_get_profile:
 *
 * Returns: (transfer none) (nullable): the whole trace's profile, once ready
 */
StrataProfile *
strata_session_get_profile (StrataSession *self)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), NULL);

  return self->profile;
}

/**
 * strata_session_get_colors:
 *
 * Returns: (nullable): a palette index per method, once the profile is ready
 */
const guint8 *
strata_session_get_colors (StrataSession *self)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), NULL);

  return self->shared_colors != NULL ? self->shared_colors : self->colors;
}

/**
 * strata_session_share_colors:
 * @colors: (nullable): a palette index per method of this session's
 *   trace, copied; %NULL for its own again
 *
 * A baseline shown beside the trace it is compared with takes that
 * trace's colours (strata_session_get_baseline_colors()), so a method
 * looks the same in both.
 */
void
strata_session_share_colors (StrataSession *self,
                             const guint8  *colors)
{
  g_return_if_fail (STRATA_IS_SESSION (self));

  g_clear_pointer (&self->shared_colors, g_free);
  if (colors != NULL && self->trace != NULL)
    self->shared_colors = g_memdup2 (colors, MAX (strata_trace_get_n_methods (self->trace), 1));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE]);
}

guint
strata_session_get_clock (StrataSession *self)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), 0);

  return self->clock;
}

/* Switching clocks keeps the same share of the trace in view. */
void
strata_session_set_clock (StrataSession *self,
                          guint          clock)
{
  gint64 old_start, old_end, new_start, new_end;
  double from, to;

  g_return_if_fail (STRATA_IS_SESSION (self));

  if (self->trace == NULL || clock >= strata_trace_get_n_clocks (self->trace) || clock == self->clock)
    return;

  strata_session_get_bounds (self, &old_start, &old_end);
  from = (double) (self->visible_start - old_start) / MAX (1, old_end - old_start);
  to = (double) (self->visible_end - old_start) / MAX (1, old_end - old_start);

  self->clock = clock;
  self->has_range = FALSE;
  strata_session_notes_clock_changed (self);
  strata_session_get_bounds (self, &new_start, &new_end);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CLOCK]);
  strata_session_set_visible_range (self,
                                    new_start + from * (new_end - new_start),
                                    new_start + to * (new_end - new_start));
  g_signal_emit (self, signals[SELECTION_RANGE_CHANGED], 0);
}

/* The whole trace on the current clock. */
void
strata_session_get_bounds (StrataSession *self,
                           gint64        *start,
                           gint64        *end)
{
  g_return_if_fail (STRATA_IS_SESSION (self));

  *start = *end = 0;
  /* On the wall clock, events and counters count too, not only calls. */
  if (self->trace != NULL && self->clock == 0)
    {
      *start = strata_trace_get_start (self->trace);
      *end = strata_trace_get_end (self->trace);
    }
  else if (self->trace != NULL)
    strata_trace_get_clock_range (self->trace, self->clock, start, end);
  if (*end - *start < MIN_VISIBLE_NS)
    *end = *start + MIN_VISIBLE_NS;
}

void
strata_session_get_visible_range (StrataSession *self,
                                  gint64        *start,
                                  gint64        *end)
{
  g_return_if_fail (STRATA_IS_SESSION (self));

  *start = self->visible_start;
  *end = self->visible_end;
}

/* Kept inside the trace, no narrower than MIN_VISIBLE_NS. */
void
strata_session_set_visible_range (StrataSession *self,
                                  gint64         start,
                                  gint64         end)
{
  gint64 lo, hi, width;

  g_return_if_fail (STRATA_IS_SESSION (self));

  strata_session_get_bounds (self, &lo, &hi);
  width = CLAMP (end - start, MIN_VISIBLE_NS, hi - lo);
  start = CLAMP (start, lo, hi - width);
  end = start + width;

  if (start == self->visible_start && end == self->visible_end)
    return;

  self->visible_start = start;
  self->visible_end = end;
  g_signal_emit (self, signals[VISIBLE_RANGE_CHANGED], 0);
}

guint32
strata_session_get_selected_method (StrataSession *self)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), STRATA_NO_METHOD);

  return self->selected_method;
}

void
strata_session_set_selected_method (StrataSession *self,
                                    guint32        method)
{
  g_return_if_fail (STRATA_IS_SESSION (self));

  if (self->trace == NULL || method >= strata_trace_get_n_methods (self->trace))
    method = STRATA_NO_METHOD;
  if (method == self->selected_method)
    return;

  self->selected_method = method;
  /* Marks chosen among the old method's calls are not the new one's. */
  g_clear_pointer (&self->marks, g_array_unref);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_METHOD]);
}

/**
 * strata_session_set_marks:
 * @pairs: (transfer full) (nullable): (start, end) pairs by start: the
 *   calls the ruler marks, some of the selected method's (those of a
 *   duration chosen in the calls page); %NULL for all of them
 */
void
strata_session_set_marks (StrataSession *self,
                          GArray        *pairs)
{
  g_return_if_fail (STRATA_IS_SESSION (self));

  g_clear_pointer (&self->marks, g_array_unref);
  self->marks = pairs;
  g_signal_emit (self, signals[MARKS_CHANGED], 0);
}

/* Returns: (transfer none) (nullable): the marks chosen, if any */
const GArray *
strata_session_get_marks (StrataSession *self)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), NULL);

  return self->marks;
}

gboolean
strata_session_get_selection_range (StrataSession *self,
                                    gint64        *start,
                                    gint64        *end)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), FALSE);

  if (start != NULL)
    *start = self->range_start;
  if (end != NULL)
    *end = self->range_end;
  return self->has_range;
}

void
strata_session_set_selection_range (StrataSession *self,
                                    gint64         start,
                                    gint64         end)
{
  g_return_if_fail (STRATA_IS_SESSION (self));

  self->has_range = TRUE;
  self->range_start = MIN (start, end);
  self->range_end = MAX (start, end);
  g_signal_emit (self, signals[SELECTION_RANGE_CHANGED], 0);
}

/* Escape: the time range first, then the selected method. */
void
strata_session_clear_selection (StrataSession *self)
{
  g_return_if_fail (STRATA_IS_SESSION (self));

  if (self->has_range)
    {
      self->has_range = FALSE;
      g_signal_emit (self, signals[SELECTION_RANGE_CHANGED], 0);
      return;
    }
  strata_session_set_selected_method (self, STRATA_NO_METHOD);
  if (self->selected_kind != STRATA_SELECTED_NOTHING)
    {
      self->selected_kind = STRATA_SELECTED_NOTHING;
      g_signal_emit (self, signals[SELECTED_ITEM_CHANGED], 0);
    }
}

/**
 * strata_session_select_call:
 *
 * Makes one call the selected item; its method becomes the selected
 * method.
 */
void
strata_session_select_call (StrataSession        *self,
                            const StrataSliceRef *call)
{
  const StrataSpanTable *table;

  g_return_if_fail (STRATA_IS_SESSION (self));
  g_return_if_fail (self->trace != NULL && call->thread < strata_trace_get_n_threads (self->trace));

  table = strata_trace_get_thread (self->trace, call->thread)->spans;
  g_return_if_fail (table != NULL && call->depth < table->n_depths && call->index < table->n_spans[call->depth]);

  if (self->selected_kind == STRATA_SELECTED_CALL && memcmp (&self->selected_call, call, sizeof *call) == 0)
    return;
  self->selected_kind = STRATA_SELECTED_CALL;
  self->selected_call = *call;
  strata_session_set_selected_method (self, table->calls[call->depth][call->index].method);
  g_signal_emit (self, signals[SELECTED_ITEM_CHANGED], 0);
}

void
strata_session_select_event (StrataSession *self,
                             guint          event)
{
  g_return_if_fail (STRATA_IS_SESSION (self));
  g_return_if_fail (self->trace != NULL && event < strata_trace_get_n_events (self->trace));

  if (self->selected_kind == STRATA_SELECTED_EVENT && self->selected_event == event)
    return;
  self->selected_kind = STRATA_SELECTED_EVENT;
  self->selected_event = event;
  g_signal_emit (self, signals[SELECTED_ITEM_CHANGED], 0);
}

/* A click on a counter chart: the values its series hold at @time. */
void
strata_session_select_counter_value (StrataSession *self,
                                     guint          counter,
                                     gint64         time)
{
  g_return_if_fail (STRATA_IS_SESSION (self));
  g_return_if_fail (self->trace != NULL && counter < strata_trace_get_n_counters (self->trace));

  self->selected_kind = STRATA_SELECTED_COUNTER_VALUE;
  self->selected_counter = counter;
  self->selected_counter_time = time;
  g_signal_emit (self, signals[SELECTED_ITEM_CHANGED], 0);
}

gboolean
strata_session_get_selected_counter_value (StrataSession *self,
                                           guint         *counter,
                                           gint64        *time)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), FALSE);

  *counter = self->selected_counter;
  *time = self->selected_counter_time;
  return self->selected_kind == STRATA_SELECTED_COUNTER_VALUE;
}

/**
 * strata_session_describe_selected_item:
 *
 * Returns: (transfer full) (nullable): the selected call, event or
 *   counter value, described
 */
StrataDescription *
strata_session_describe_selected_item (StrataSession *self)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), NULL);

  if (self->trace == NULL)
    return NULL;
  switch (self->selected_kind)
    {
    case STRATA_SELECTED_CALL:
      return strata_describe_call (self->trace, &self->selected_call);
    case STRATA_SELECTED_EVENT:
      return strata_describe_event (self->trace, self->selected_event);
    case STRATA_SELECTED_COUNTER_VALUE:
      return strata_describe_counter_value (self->trace, self->selected_counter, self->selected_counter_time);
    case STRATA_SELECTED_NOTHING:
    default:
      return NULL;
    }
}

/**
 * strata_session_get_selected_item:
 * @call: (out) (optional): the call, when a call is selected
 * @event: (out) (optional): the event index, when an event is selected
 */
StrataSelectedKind
strata_session_get_selected_item (StrataSession  *self,
                                  StrataSliceRef *call,
                                  guint          *event)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), STRATA_SELECTED_NOTHING);

  if (call != NULL)
    *call = self->selected_call;
  if (event != NULL)
    *event = self->selected_event;
  return self->selected_kind;
}

/* ---- The time under the pointer ---- */

/* Zooming by key keeps this time in place, as the wheel does. */
void
strata_session_set_hover_time (StrataSession *self,
                               gint64         time)
{
  g_return_if_fail (STRATA_IS_SESSION (self));

  self->has_hover = TRUE;
  self->hover_time = time;
}

void
strata_session_clear_hover (StrataSession *self)
{
  g_return_if_fail (STRATA_IS_SESSION (self));

  self->has_hover = FALSE;
}

/* The hovered time, else the middle of the visible range. */
gint64
strata_session_get_zoom_anchor (StrataSession *self)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), 0);

  if (self->has_hover && self->hover_time >= self->visible_start && self->hover_time <= self->visible_end)
    return self->hover_time;
  return self->visible_start + (self->visible_end - self->visible_start) / 2;
}

/* ---- What the profile shows ---- */

int
strata_session_get_profile_thread (StrataSession *self)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), -1);

  return self->profile_thread;
}

void
strata_session_set_profile_thread (StrataSession *self,
                                   int            thread)
{
  g_return_if_fail (STRATA_IS_SESSION (self));

  if (thread < 0 || self->trace == NULL || (guint) thread >= strata_trace_get_n_threads (self->trace))
    thread = -1;
  /* One thread picked anywhere is the call tree's too. */
  if (self->call_tree_threads != NULL)
    {
      g_clear_pointer (&self->call_tree_threads, g_array_unref);
      g_signal_emit (self, signals[CALL_TREE_THREADS_CHANGED], 0);
      if (self->profile_thread == thread)
        {
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE_THREAD]);
          return;
        }
    }
  if (self->profile_thread == thread)
    return;
  self->profile_thread = thread;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROFILE_THREAD]);
}

/**
 * strata_session_set_call_tree_threads:
 * @threads: (array length=n_threads) (nullable): thread indexes
 * @n_threads: how many: none is all threads, one is the profile's thread
 *
 * The threads the call tree merges. Several are the call tree's alone:
 * the profile then shows all threads.
 */
void
strata_session_set_call_tree_threads (StrataSession *self,
                                      const guint   *threads,
                                      guint          n_threads)
{
  g_autoptr(GArray) valid = g_array_new (FALSE, FALSE, sizeof (guint));

  g_return_if_fail (STRATA_IS_SESSION (self));

  for (guint i = 0; self->trace != NULL && i < n_threads; i++)
    if (threads[i] < strata_trace_get_n_threads (self->trace))
      g_array_append_val (valid, threads[i]);
  if (valid->len <= 1)
    {
      strata_session_set_profile_thread (self, valid->len == 1 ? (int) g_array_index (valid, guint, 0) : -1);
      return;
    }
  /* All threads for the profile first: that would let a set go. */
  strata_session_set_profile_thread (self, -1);
  g_clear_pointer (&self->call_tree_threads, g_array_unref);
  self->call_tree_threads = g_steal_pointer (&valid);
  g_signal_emit (self, signals[CALL_TREE_THREADS_CHANGED], 0);
  if (self->call_tree != NULL)
    merge_call_tree (self);
}

/**
 * strata_session_get_call_tree_threads:
 *
 * Returns: (transfer none) (nullable): the several threads the call tree
 *   merges (guint indexes), or %NULL when it merges the profile's thread
 */
const GArray *
strata_session_get_call_tree_threads (StrataSession *self)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), NULL);

  return self->call_tree_threads;
}

gboolean
strata_session_get_range_only (StrataSession *self)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), FALSE);

  return self->range_only;
}

void
strata_session_set_range_only (StrataSession *self,
                               gboolean       range_only)
{
  g_return_if_fail (STRATA_IS_SESSION (self));

  if (set_flag (&self->range_only, range_only))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RANGE_ONLY]);
}

/* ---- The call tree ---- */

/* The tree follows the trace, the profile's thread and, with "Selected
 * Range", the range. */
static void
merge_call_tree (StrataSession *self)
{
  StrataProfileRange range = { .clock = self->clock };
  gboolean has_range = self->range_only && strata_session_get_selection_range (self, &range.start, &range.end);

  if (self->call_tree_threads != NULL)
    strata_call_tree_history_merge_threads (self->call_tree, self->trace, (const guint *) self->call_tree_threads->data,
                                            self->call_tree_threads->len, has_range ? &range : NULL);
  else
    strata_call_tree_history_merge (self->call_tree, self->trace, self->profile_thread, has_range ? &range : NULL);
}

static void
call_tree_range_changed_cb (StrataSession *self)
{
  if (self->range_only)
    merge_call_tree (self);
}

/**
 * strata_session_get_call_tree_history:
 *
 * The call tree shown and its transforms, merged from the first call on.
 *
 * Returns: (transfer none): the session's call tree history
 */
StrataCallTreeHistory *
strata_session_get_call_tree_history (StrataSession *self)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), NULL);

  if (self->call_tree != NULL)
    return self->call_tree;
  self->call_tree = strata_call_tree_history_new ();
  g_signal_connect (self, "notify::trace", G_CALLBACK (merge_call_tree), NULL);
  g_signal_connect (self, "notify::profile-thread", G_CALLBACK (merge_call_tree), NULL);
  g_signal_connect (self, "notify::range-only", G_CALLBACK (merge_call_tree), NULL);
  g_signal_connect (self, "selection-range-changed", G_CALLBACK (call_tree_range_changed_cb), NULL);
  merge_call_tree (self);
  return self->call_tree;
}

/* ---- Tracks ---- */

/**
 * strata_session_get_track_prefs:
 *
 * Returns: (transfer none): what the user changed about the tracks; call
 *   strata_session_tracks_changed() after changing it
 */
StrataTrackPrefs *
strata_session_get_track_prefs (StrataSession *self)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), NULL);

  return self->track_prefs;
}

void
strata_session_tracks_changed (StrataSession *self)
{
  g_return_if_fail (STRATA_IS_SESSION (self));

  g_signal_emit (self, signals[TRACKS_CHANGED], 0);
}

/**
 * strata_session_set_search:
 * @search: (transfer full) (nullable): what the timeline highlights, or
 *   %NULL for no search
 */
void
strata_session_set_search (StrataSession *self,
                           StrataSearch  *search)
{
  g_return_if_fail (STRATA_IS_SESSION (self));

  g_clear_pointer (&self->search, strata_search_unref);
  self->search = search;
  g_signal_emit (self, signals[SEARCH_CHANGED], 0);
}

/* Returns: (transfer none) (nullable): the search, if any */
const StrataSearch *
strata_session_get_search (StrataSession *self)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), NULL);

  return self->search;
}

gboolean
strata_session_get_compact (StrataSession *self)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), FALSE);

  return self->compact;
}

gboolean
strata_session_get_show_all_flows (StrataSession *self)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), FALSE);

  return self->show_all_flows;
}
