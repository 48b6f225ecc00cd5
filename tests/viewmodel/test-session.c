/* test-session.c: the view state of a window, without a display
 *
 * Selection, time range, clock, zoom and pan, the profile's thread and
 * range, the time under the pointer, the track layout and the commands
 * (the "view" actions) all live in StrataSession; this drives it as the
 * widgets do and checks what they would observe.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include <string.h>

#include "hprof-writer.h"
#include "strata-heap-object-list.h"
#include "strata-heap-object-row.h"
#include "strata-loader.h"
#include "strata-method-calls.h"
#include "strata-session.h"
#include "strata-test-util.h"
#include "strata-track-prefs.h"

typedef struct
{
  StrataSession *session;
  StrataTrace   *trace;
  guint          n_item_changes;
  guint          n_range_changes;
  guint          n_visible_changes;
  guint          n_track_changes;
} Fixture;

static void
count_cb (GObject *object,
          guint   *counter)
{
  (*counter)++;
}

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 guint      *counter)
{
  (*counter)++;
}

static void
fixture_open (Fixture    *f,
              const char *folder,
              const char *name)
{
  g_autofree char *path = strata_test_fixture_path (folder, name, NULL);
  g_autoptr(GError) error = NULL;

  memset (f, 0, sizeof *f);
  f->trace = strata_test_load_path (path, &error);
  g_assert_no_error (error);
  f->session = strata_session_new ();
  g_signal_connect (f->session, "selected-item-changed", G_CALLBACK (count_cb), &f->n_item_changes);
  g_signal_connect (f->session, "selection-range-changed", G_CALLBACK (count_cb), &f->n_range_changes);
  g_signal_connect (f->session, "visible-range-changed", G_CALLBACK (count_cb), &f->n_visible_changes);
  g_signal_connect (f->session, "tracks-changed", G_CALLBACK (count_cb), &f->n_track_changes);
  strata_session_set_trace (f->session, f->trace);
}

static void
fixture_close (Fixture *f)
{
  g_clear_object (&f->session);
  g_clear_object (&f->trace);
}

static void
activate (Fixture    *f,
          const char *name)
{
  g_autoptr(GObject) actions = G_OBJECT (strata_session_create_actions (f->session));

  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (actions), name));
  g_action_group_activate_action (G_ACTION_GROUP (actions), name, NULL);
}

/* The first call at depth 0 of the first thread with calls. */
static StrataSliceRef
first_call (StrataTrace *trace)
{
  for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
    if (strata_trace_get_thread (trace, t)->spans != NULL)
      return (StrataSliceRef) { t, 0, 0 };
  g_assert_not_reached ();
}

static void
test_session_selection (void)
{
  Fixture f;
  StrataSliceRef call, selected;
  const StrataSpanTable *table;
  guint event = 0;

  fixture_open (&f, "dmtrace", "studio-perflib-char_2_bytes.trace");
  call = first_call (f.trace);
  table = strata_trace_get_thread (f.trace, call.thread)->spans;
  g_assert_cmpint (strata_session_get_selected_item (f.session, &selected, &event), ==, STRATA_SELECTED_NOTHING);

  /* Selecting a call selects its method, once. */
  f.n_item_changes = 0;
  strata_session_select_call (f.session, &call);
  strata_session_select_call (f.session, &call);
  g_assert_cmpuint (f.n_item_changes, ==, 1);
  g_assert_cmpint (strata_session_get_selected_item (f.session, &selected, NULL), ==, STRATA_SELECTED_CALL);
  g_assert_cmpmem (&selected, sizeof selected, &call, sizeof call);
  g_assert_cmpuint (strata_session_get_selected_method (f.session), ==, table->calls[0][0].method);

  /* The description every view shows names the method and its depth. */
  {
    g_autoptr(StrataDescription) description = strata_session_describe_selected_item (f.session);
    g_autofree char *text = strata_description_to_text (description);
    const StrataMethod *method = strata_trace_get_method (f.trace, table->calls[0][0].method);

    g_assert_cmpstr (description->title, ==, strata_trace_get_string (f.trace, method->display_name));
    g_assert_nonnull (strstr (text, "\nKind: Call"));
    g_assert_nonnull (strstr (text, "\nDepth: 0"));
    /* Times with the digits the tables show, not every one. */
    g_assert_null (strstr (text, "000 ms"));
    g_assert_true (g_regex_match_simple ("inclusive [0-9.]+ (ns|µs|ms|s), exclusive", text, 0, 0));
  }

  /* Escape: the range first, then the call and method. */
  strata_session_set_selection_range (f.session, 10, 20);
  activate (&f, "clear-selection");
  g_assert_false (strata_session_get_selection_range (f.session, NULL, NULL));
  g_assert_cmpint (strata_session_get_selected_item (f.session, NULL, NULL), ==, STRATA_SELECTED_CALL);
  activate (&f, "clear-selection");
  g_assert_cmpint (strata_session_get_selected_item (f.session, NULL, NULL), ==, STRATA_SELECTED_NOTHING);
  g_assert_cmpuint (strata_session_get_selected_method (f.session), ==, STRATA_NO_METHOD);
  g_assert_null (strata_session_describe_selected_item (f.session));

  fixture_close (&f);
}

/* The first event with (@slice) or without a length. */
static guint
find_event (StrataTrace *trace,
            gboolean     slice)
{
  for (guint i = 0; i < strata_trace_get_n_events (trace); i++)
    {
      const StrataEvent *event = strata_trace_get_event (trace, i);

      if ((event->end > event->start) == slice)
        return i;
    }
  g_assert_not_reached ();
}

/* F zooms to whatever is selected: an async slice, an instant, a
 * counter's sample. */
static void
test_session_zoom_to_any (void)
{
  Fixture f;
  gint64 start, end, bound_start, bound_end;
  const StrataEvent *event;
  const StrataCounter *counter;

  fixture_open (&f, "catapult", "nestable_async.json");
  strata_session_get_bounds (f.session, &bound_start, &bound_end);
  event = strata_trace_get_event (f.trace, find_event (f.trace, TRUE));
  strata_session_select_event (f.session, find_event (f.trace, TRUE));
  g_assert_true (strata_session_zoom_to_selection (f.session));
  strata_session_get_visible_range (f.session, &start, &end);
  g_assert_cmpint (start, <=, event->start);
  g_assert_cmpint (end, >=, event->end);
  g_assert_cmpint (end - start, <, (event->end - event->start) * 2);
  fixture_close (&f);

  fixture_open (&f, "catapult", "instant_events.json");
  strata_session_get_bounds (f.session, &bound_start, &bound_end);
  event = strata_trace_get_event (f.trace, find_event (f.trace, FALSE));
  strata_session_select_event (f.session, find_event (f.trace, FALSE));
  g_assert_true (strata_session_zoom_to_selection (f.session));
  strata_session_get_visible_range (f.session, &start, &end);
  g_assert_cmpint (start, <=, event->start);
  g_assert_cmpint (end, >=, event->start);
  g_assert_cmpint (end - start, <, bound_end - bound_start);
  fixture_close (&f);

  fixture_open (&f, "catapult", "instance_counters.json");
  counter = strata_trace_get_counter (f.trace, 0);
  g_assert_cmpuint (counter->n_samples, >=, 2);
  strata_session_select_counter_value (f.session, 0, counter->times[0]);
  g_assert_true (strata_session_zoom_to_selection (f.session));
  strata_session_get_visible_range (f.session, &start, &end);
  g_assert_cmpint (start, <=, counter->times[0]);
  g_assert_cmpint (end, >=, counter->times[1]);
  g_assert_cmpint (end - start, <, (counter->times[1] - counter->times[0]) * 2);
  fixture_close (&f);
}

/* Calls whose method name holds @needle, counted another way. */
static guint64
count_calls_named (StrataTrace *trace,
                   const char  *needle)
{
  guint64 n = 0;

  for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
    {
      const StrataSpanTable *table = strata_trace_get_thread (trace, t)->spans;

      for (guint d = 0; table != NULL && d < table->n_depths; d++)
        for (guint32 i = 0; i < table->n_spans[d]; i++)
          n += strcasestr (strata_trace_get_method_name (trace, table->calls[d][i].method), needle) != NULL;
    }
  return n;
}

/* The timeline's search: counts, a walk in time order over every match
 * that goes round at the end, regular expressions, events. */
static void
test_session_search (void)
{
  Fixture f;
  g_autoptr(GError) error = NULL;
  StrataSearch *search;
  guint64 expected;
  gint64 last = G_MININT64;
  StrataSliceRef first, call;

  fixture_open (&f, "dmtrace", "studio-perflib-char_2_bytes.trace");
  expected = count_calls_named (f.trace, "string");
  g_assert_cmpuint (expected, >, 3);
  search = strata_search_new (f.trace, "STRING", FALSE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strata_search_count_calls (search), ==, expected);
  strata_session_set_search (f.session, search);
  g_assert_true (strata_session_get_search (f.session) == search);

  /* From the start, every match once, in time order, then round. */
  strata_session_zoom_to_call (f.session, &(StrataSliceRef) { 0, 0, 0 });
  strata_session_set_visible_range (f.session, G_MININT64 / 2, G_MAXINT64 / 2);
  for (guint64 k = 0; k < expected; k++)
    {
      const StrataSpanTable *table;
      gint64 start;

      g_assert_true (strata_session_search_step (f.session, 1));
      g_assert_cmpint (strata_session_get_selected_item (f.session, &call, NULL), ==, STRATA_SELECTED_CALL);
      table = strata_trace_get_thread (f.trace, call.thread)->spans;
      g_assert_nonnull (strcasestr (strata_trace_get_method_name (f.trace, table->calls[call.depth][call.index].method), "string"));
      start = strata_span_table_get_start (table, 0, call.depth, call.index);
      g_assert_cmpint (start, >=, last);
      last = start;
      if (k == 0)
        first = call;
    }
  g_assert_true (strata_session_search_step (f.session, 1));
  strata_session_get_selected_item (f.session, &call, NULL);
  g_assert_cmpmem (&call, sizeof call, &first, sizeof first);
  /* And back: the previous of the first is the last. */
  g_assert_true (strata_session_search_step (f.session, -1));
  strata_session_get_selected_item (f.session, &call, NULL);
  g_assert_cmpint (strata_span_table_get_start (strata_trace_get_thread (f.trace, call.thread)->spans, 0, call.depth, call.index), ==, last);

  /* Regular expressions, and a bad one is an error, not a crash. */
  search = strata_search_new (f.trace, "^java\\.lang\\.string", TRUE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strata_search_count_calls (search), >, 0);
  g_assert_cmpuint (strata_search_count_calls (search), <=, expected);
  strata_search_unref (search);
  g_assert_null (strata_search_new (f.trace, "(unclosed", TRUE, &error));
  g_assert_true (error != NULL && error->domain == G_REGEX_ERROR);
  g_clear_error (&error);
  strata_session_set_search (f.session, NULL);
  g_assert_false (strata_session_search_step (f.session, 1));
  fixture_close (&f);

  /* Events match by name. */
  fixture_open (&f, "catapult", "instant_events.json");
  search = strata_search_new (f.trace, strata_trace_get_string (f.trace, strata_trace_get_event (f.trace, 0)->name), FALSE, &error);
  g_assert_cmpuint (strata_search_count_events (search), >, 0);
  g_assert_true (strata_search_matches_event (search, 0));
  strata_session_set_search (f.session, search);
  g_assert_true (strata_session_search_step (f.session, 1));
  g_assert_cmpint (strata_session_get_selected_item (f.session, NULL, NULL), ==, STRATA_SELECTED_EVENT);
  fixture_close (&f);
}

static int
compare_durations (gconstpointer a,
                   gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* Every call of a method (the calls page's model): counted and timed as
 * the span tables say, sorted, cut to a band, binned. */
static void
test_session_method_calls (void)
{
  Fixture f;
  guint32 method;
  g_autoptr(GArray) durations = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(StrataMethodCalls) calls = NULL;
  StrataMethodCallStats stats;
  guint64 counts[16], binned = 0;
  gint64 edges[17], total = 0;
  guint n;

  fixture_open (&f, "dmtrace", "studio-perflib-char_2_bytes.trace");
  method = strata_trace_get_thread (f.trace, 0)->spans->calls[1][0].method;
  for (guint t = 0; t < strata_trace_get_n_threads (f.trace); t++)
    {
      const StrataSpanTable *table = strata_trace_get_thread (f.trace, t)->spans;

      for (guint d = 0; table != NULL && d < table->n_depths; d++)
        for (guint32 i = 0; i < table->n_spans[d]; i++)
          if (table->calls[d][i].method == method)
            {
              gint64 duration = strata_span_table_end (table, d, i) - strata_span_table_start (table, d, i);

              g_array_append_val (durations, duration);
              total += duration;
            }
    }
  g_array_sort (durations, compare_durations);
  n = durations->len;
  g_assert_cmpuint (n, >, 0);

  calls = strata_method_calls_new (f.trace, 0, method);
  strata_method_calls_get_stats (calls, &stats);
  g_assert_cmpuint (stats.n, ==, n);
  g_assert_cmpint (stats.total, ==, total);
  g_assert_cmpint (stats.min, ==, g_array_index (durations, gint64, 0));
  g_assert_cmpint (stats.max, ==, g_array_index (durations, gint64, n - 1));
  g_assert_cmpint (stats.median, ==, g_array_index (durations, gint64, (guint) floor (0.5 * (n - 1) + 0.5)));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (calls)), ==, n);
  /* Longest first, then by start, then by thread. */
  g_assert_cmpint (strata_method_calls_get (calls, 0)->duration, ==, stats.max);
  strata_method_calls_sort (calls, STRATA_METHOD_CALLS_BY_START, FALSE);
  for (guint i = 1; i < n; i++)
    g_assert_cmpint (strata_method_calls_get (calls, i - 1)->start, <=, strata_method_calls_get (calls, i)->start);

  /* Bins hold every call once, on either scale; a band keeps its calls. */
  for (int log_scale = 0; log_scale < 2; log_scale++)
    {
      binned = 0;
      strata_method_calls_histogram (calls, log_scale, 16, counts, edges);
      for (guint b = 0; b < 16; b++)
        binned += counts[b];
      g_assert_cmpuint (binned, ==, n);
      g_assert_cmpint (edges[0], ==, stats.min);
      g_assert_cmpint (edges[16], ==, stats.max);
    }
  strata_method_calls_set_band (calls, stats.max, stats.max);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (calls)), >=, 1);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (calls)); i++)
    g_assert_cmpint (strata_method_calls_get (calls, i)->duration, ==, stats.max);
  {
    g_autoptr(GArray) marks = strata_method_calls_dup_marks (calls);

    g_assert_cmpuint (marks->len, ==, 2 * g_list_model_get_n_items (G_LIST_MODEL (calls)));
    strata_session_set_selected_method (f.session, method);
    strata_session_set_marks (f.session, g_array_ref (marks));
    g_assert_true (strata_session_get_marks (f.session) == marks);
    /* Another method: the chosen marks were the old one's. */
    strata_session_set_selected_method (f.session, strata_trace_get_thread (f.trace, 0)->spans->calls[0][0].method);
    g_assert_null (strata_session_get_marks (f.session));
  }
  strata_method_calls_set_band (calls, 1, 0);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (calls)), ==, n);
  fixture_close (&f);
}

static void
test_session_range_and_zoom (void)
{
  Fixture f;
  gint64 bound_start, bound_end, start, end, width;
  StrataSliceRef call;
  const StrataSpanTable *table;

  fixture_open (&f, "dmtrace", "studio-perflib-char_2_bytes.trace");
  strata_session_get_bounds (f.session, &bound_start, &bound_end);
  strata_session_get_visible_range (f.session, &start, &end);
  g_assert_cmpint (start, ==, bound_start);
  g_assert_cmpint (end, ==, bound_end);

  /* A range given backwards is stored in order. */
  strata_session_set_selection_range (f.session, bound_start + 2000, bound_start + 1000);
  g_assert_true (strata_session_get_selection_range (f.session, &start, &end));
  g_assert_cmpint (start, ==, bound_start + 1000);
  g_assert_cmpint (end, ==, bound_start + 2000);
  activate (&f, "zoom-selection");
  strata_session_get_visible_range (f.session, &start, &end);
  g_assert_cmpint (start, ==, bound_start + 1000);
  g_assert_cmpint (end, ==, bound_start + 2000);

  /* Zoom keeps the time under the pointer where it is. */
  activate (&f, "zoom-fit");
  strata_session_get_visible_range (f.session, &start, &end);
  width = end - start;
  strata_session_set_hover_time (f.session, start + width / 4);
  g_assert_cmpint (strata_session_get_zoom_anchor (f.session), ==, start + width / 4);
  activate (&f, "zoom-in");
  strata_session_get_visible_range (f.session, &start, &end);
  g_assert_cmpint (end - start, <, width);
  g_assert_cmpint (start, <=, bound_start + width / 4);
  g_assert_cmpint (end, >=, bound_start + width / 4);
  g_assert_cmpfloat_with_epsilon ((double) (bound_start + width / 4 - start) / (end - start), 0.25, 0.01);

  /* Without a pointer, the middle is kept; pans move by a fifth. */
  strata_session_clear_hover (f.session);
  activate (&f, "zoom-in");
  activate (&f, "pan-right");
  {
    gint64 before_start = start, before_end = end;

    strata_session_get_visible_range (f.session, &start, &end);
    g_assert_cmpint (start, >, before_start);
    g_assert_cmpint (end, <, before_end + (before_end - before_start));
  }
  activate (&f, "pan-left");
  activate (&f, "zoom-out");
  activate (&f, "zoom-fit");
  strata_session_get_visible_range (f.session, &start, &end);
  g_assert_cmpint (start, ==, bound_start);
  g_assert_cmpint (end, ==, bound_end);

  /* F with a call and no range: the call, with a margin. */
  strata_session_clear_selection (f.session);
  call = first_call (f.trace);
  table = strata_trace_get_thread (f.trace, call.thread)->spans;
  strata_session_select_call (f.session, &call);
  activate (&f, "zoom-selection");
  strata_session_get_visible_range (f.session, &start, &end);
  g_assert_cmpint (start, <=, strata_span_table_start (table, 0, 0));
  g_assert_cmpint (end, >=, strata_span_table_end (table, 0, 0));
  g_assert_cmpint (end - start, <, bound_end - bound_start);

  fixture_close (&f);
}

static void
test_session_clock (void)
{
  Fixture f;
  gint64 start, end;

  fixture_open (&f, "dmtrace", "studio-perflib-char_2_bytes.trace");
  g_assert_cmpuint (strata_trace_get_n_clocks (f.trace), ==, 2);
  strata_session_set_selection_range (f.session, 1, 2);
  strata_session_set_clock (f.session, 1);
  g_assert_cmpuint (strata_session_get_clock (f.session), ==, 1);
  /* A range on one clock means nothing on another. */
  g_assert_false (strata_session_get_selection_range (f.session, NULL, NULL));
  strata_session_get_visible_range (f.session, &start, &end);
  {
    gint64 clock_start, clock_end;

    strata_trace_get_clock_range (f.trace, 1, &clock_start, &clock_end);
    g_assert_cmpint (start, ==, clock_start);
    g_assert_cmpint (end, ==, clock_end);
  }
  fixture_close (&f);
}

static void
test_session_profile_filter (void)
{
  Fixture f;
  g_autoptr(GObject) actions = NULL;
  guint n_notified = 0;
  int thread = -1;

  fixture_open (&f, "dmtrace", "studio-perflib-char_2_bytes.trace");
  actions = G_OBJECT (strata_session_create_actions (f.session));
  g_signal_connect (f.session, "notify::profile-thread", G_CALLBACK (count_notify_cb), &n_notified);
  for (guint t = 0; t < strata_trace_get_n_threads (f.trace) && thread < 0; t++)
    if (strata_trace_get_thread (f.trace, t)->spans != NULL)
      thread = t;

  g_assert_cmpint (strata_session_get_profile_thread (f.session), ==, -1);
  strata_session_set_profile_thread (f.session, thread);
  strata_session_set_profile_thread (f.session, thread);
  g_assert_cmpint (strata_session_get_profile_thread (f.session), ==, thread);
  g_assert_cmpuint (n_notified, ==, 1);
  /* A thread the trace does not have means all threads. */
  strata_session_set_profile_thread (f.session, 100000);
  g_assert_cmpint (strata_session_get_profile_thread (f.session), ==, -1);

  /* range-only is a stateful action, as the toggle button uses it. */
  g_assert_false (strata_session_get_range_only (f.session));
  g_action_group_change_action_state (G_ACTION_GROUP (actions), "range-only", g_variant_new_boolean (TRUE));
  g_assert_true (strata_session_get_range_only (f.session));

  /* The timeline's layout switches are the session's too, and last
   * from one trace to the next. */
  g_action_group_change_action_state (G_ACTION_GROUP (actions), "compact", g_variant_new_boolean (TRUE));
  g_assert_true (strata_session_get_compact (f.session));
  /* Show All Flows is offered for a trace with flows; this one has none. */
  g_assert_cmpuint (strata_trace_get_n_flows (strata_session_get_trace (f.session)), ==, 0);
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (actions), "show-all-flows"));
  g_object_set (f.session, "show-all-flows", TRUE, NULL);
  {
    g_autoptr(GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (actions), "show-all-flows");

    g_assert_true (g_variant_get_boolean (state));
  }
  g_assert_true (strata_session_get_show_all_flows (f.session));

  /* A new trace starts afresh. */
  strata_session_set_trace (f.session, NULL);
  g_assert_false (strata_session_get_range_only (f.session));
  g_assert_cmpint (strata_session_get_profile_thread (f.session), ==, -1);
  g_assert_true (strata_session_get_compact (f.session));
  fixture_close (&f);
}

static void
test_session_tracks (void)
{
  Fixture f;
  StrataTrackPrefs *prefs;

  fixture_open (&f, "catapult", "instance_counters.json");
  prefs = strata_session_get_track_prefs (f.session);
  g_assert_nonnull (prefs);
  strata_track_prefs_hide (prefs, strata_track_key (STRATA_TRACK_COUNTER, 0));
  strata_track_prefs_toggle_series (prefs, 1, 0);
  strata_session_tracks_changed (f.session);
  g_assert_cmpuint (f.n_track_changes, ==, 1);
  g_assert_cmpuint (g_hash_table_size (prefs->hidden), ==, 1);
  g_assert_cmpuint (strata_track_prefs_get_hidden_series (prefs, 1), ==, 1);
  g_assert_cmpuint (strata_track_prefs_get_hidden_series (prefs, 0), ==, 0);

  /* A counter value selected: described with its series. */
  {
    const StrataCounter *counter = strata_trace_get_counter (f.trace, 0);
    g_autoptr(StrataDescription) description = NULL;
    guint index;
    gint64 time;

    strata_session_select_counter_value (f.session, 0, counter->times[0]);
    g_assert_true (strata_session_get_selected_counter_value (f.session, &index, &time));
    g_assert_cmpuint (index, ==, 0);
    description = strata_session_describe_selected_item (f.session);
    g_assert_cmpstr (description->title, ==, strata_trace_get_string (f.trace, counter->name));
    g_assert_cmpuint (description->fields->len, >=, 1 + counter->n_series);
    /* Values for people, never in exponent form. */
    {
      g_autofree char *text = strata_description_to_text (description);

      g_assert_null (strstr (text, "e+"));
    }
  }

  /* The tracks of one trace are not another's. */
  strata_session_set_trace (f.session, NULL);
  g_assert_cmpuint (g_hash_table_size (prefs->hidden), ==, 0);
  g_assert_cmpuint (strata_track_prefs_get_hidden_series (prefs, 1), ==, 0);
  fixture_close (&f);
}

static void
sorted_cb (GObject      *list,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (strata_heap_object_list_sort_finish (STRATA_HEAP_OBJECT_LIST (list), result, &error));
  g_assert_no_error (error);
  *(gboolean *) user_data = TRUE;
}

/* A list too long for GTK's sort models sorts itself: every key, both
 * ways, in the order the rows' own comparison gives. */
static void
test_session_long_list_sort (void)
{
  g_autoptr(GBytes) bytes = hprof_writer_many_arrays (150000);
  g_autoptr(GFile) file = g_file_new_for_path ("/nonexistent/strata-test/arrays.hprof");
  g_autoptr(StrataLoader) loader = strata_loader_new (file);
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_loader_load_bytes (loader, bytes, NULL, &error);
  g_autoptr(StrataHeapObjectList) list = NULL;

  g_assert_no_error (error);
  list = strata_heap_object_list_new_dominated (trace, G_MAXUINT32);
  g_assert_nonnull (list);
  /* A page at a time, then a row that says how many more. */
  g_assert_cmpuint (strata_heap_object_list_get_length (list), ==, 150000);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 10000 + 1);
  {
    g_autoptr(StrataHeapObjectRow) more = g_list_model_get_item (G_LIST_MODEL (list), 10000);
    g_autofree char *label = strata_heap_object_row_dup_label (more);

    /* 140000, grouped as the locale groups digits */
    g_assert_true (g_str_has_prefix (label, "140"));
    g_assert_true (g_str_has_suffix (label, "000 more objects: activate to show the next ones"));
    g_assert_true (strata_heap_object_row_show_more (more));
    g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 20000 + 1);
  }
  for (guint key = 0; key < 3; key++)
    for (guint descending = 0; descending < 2; descending++)
      {
        gboolean done = FALSE;
        g_autoptr(StrataHeapObjectRow) previous = NULL;
        guint n_changes = 0;

        strata_heap_object_list_sort_async (list, key, descending, NULL, sorted_cb, &done);
        while (!done)
          g_main_context_iteration (NULL, TRUE);
        for (guint i = 0; i < 150000; i++)
          {
            g_autoptr(StrataHeapObjectRow) row = strata_heap_object_row_new (trace, strata_heap_object_list_get_object (list, i));

            if (previous != NULL)
              {
                int order = strata_heap_object_row_compare (previous, row, key);

                g_assert_cmpint (descending ? -order : order, <=, 0);
                n_changes += order != 0;
              }
            g_set_object (&previous, row);
          }
        /* The keys do vary: the list is not trivially in order. */
        g_assert_cmpuint (n_changes, >, 2);
      }
}

/* ---- The call tree's history, without a display ---- */

typedef struct
{
  StrataCallTreePlace *given;     /* where the user is, as the view says */
  StrataCallTreePlace *revealed;  /* the last place handed back */
  guint                n_reveals;
} Places;

static StrataCallTreePlace *
give_place (gpointer data)
{
  Places *places = data;

  return places->given != NULL ? strata_call_tree_place_copy (places->given) : NULL;
}

static void
reveal_cb (StrataCallTreeHistory *history,
           StrataCallTreePlace   *place,
           Places                *places)
{
  g_clear_pointer (&places->revealed, strata_call_tree_place_free);
  places->revealed = strata_call_tree_place_copy (place);
  places->n_reveals++;
}

static gboolean
history_ready (gpointer history)
{
  return strata_call_tree_history_is_ready (history);
}

static void
wait_for_history (StrataCallTreeHistory *history)
{
  while (!history_ready (history))
    g_main_context_iteration (NULL, TRUE);
}

static char *
codes_text (StrataCallTree *tree,
            const GArray   *codes)
{
  guint32 node = strata_call_tree_find_codes (tree, (const guint32 *) codes->data, codes->len);

  g_assert_cmpuint (node, !=, STRATA_CALL_TREE_NONE);
  return strata_call_tree_dup_path (tree, node, "/");
}

static StrataCallTransform
transform_of (StrataCallTransformKind kind,
              guint32                 method)
{
  StrataCallTransform transform = { kind, method, STRATA_CALL_TREE_NONE, NULL, NULL, 0 };

  return transform;
}

/* A frame merged away: where the user is follows the same calls one
 * level up, and undoing the transform goes back to it, selection, rows
 * open and flame graph zoom alike. */
static void
test_session_call_tree_follows (void)
{
  Fixture f;
  Places places = { 0 };
  StrataCallTreeHistory *history;
  StrataCallTree *tree, *merged;
  guint32 first, second, third;
  StrataCallTransform merge;
  g_autofree char *expected = NULL, *followed = NULL, *zoom = NULL, *back = NULL, *description = NULL;
  g_autofree char *first_name = NULL, *third_name = NULL, *method_name = NULL;
  guint n_transforms;

  fixture_open (&f, "dmtrace", "studio-perflib-char_2_bytes.trace");
  history = strata_session_get_call_tree_history (f.session);
  strata_call_tree_history_set_place_func (history, give_place, &places);
  g_signal_connect (history, "reveal", G_CALLBACK (reveal_cb), &places);
  wait_for_history (history);
  tree = strata_call_tree_history_get_tree (history);
  g_assert_cmpint (strata_call_tree_get_kind (tree), ==, STRATA_CALL_TREE_TOP_DOWN);
  first = strata_call_tree_get_first_child (tree, STRATA_CALL_TREE_ROOT);
  second = strata_call_tree_get_first_child (tree, first);
  third = strata_call_tree_get_first_child (tree, second);
  g_assert_cmpuint (third, !=, STRATA_CALL_TREE_NONE);
  places.given = strata_call_tree_place_new (STRATA_CALL_TREE_TOP_DOWN);
  g_array_unref (places.given->codes);
  places.given->codes = strata_call_tree_path_codes (tree, third);
  g_array_unref (places.given->zoom);
  places.given->zoom = strata_call_tree_path_codes (tree, third);
  g_ptr_array_add (places.given->opened, strata_call_tree_path_codes (tree, second));

  merge = transform_of (STRATA_CALL_TRANSFORM_MERGE_FUNCTION, strata_call_tree_get_method (tree, second));
  strata_call_tree_history_apply (history, &merge);
  g_assert_false (strata_call_tree_history_is_ready (history));
  g_assert_cmpint (strata_call_tree_history_get_state (history), ==, STRATA_CALL_TREE_RESHAPING);
  wait_for_history (history);
  merged = strata_call_tree_history_get_tree (history);
  g_assert_true (merged != tree);
  g_assert_cmpuint (places.n_reveals, ==, 1);
  first_name = strata_call_tree_dup_name (tree, first);
  third_name = strata_call_tree_dup_name (tree, third);
  expected = g_strdup_printf ("%s/%s", first_name, third_name);
  followed = codes_text (merged, places.revealed->codes);
  g_assert_cmpstr (followed, ==, expected);
  zoom = codes_text (merged, places.revealed->zoom);
  g_assert_cmpstr (zoom, ==, expected);
  /* The merged frame's row is gone: its path ends one level up. */
  g_assert_cmpuint (((GArray *) g_ptr_array_index (places.revealed->opened, 0))->len, ==, 1);
  strata_call_tree_history_get_transforms (history, &n_transforms);
  g_assert_cmpuint (n_transforms, ==, 1);
  description = strata_call_tree_history_dup_description (history);
  method_name = strata_call_tree_dup_name (tree, second);
  g_assert_nonnull (strstr (description, method_name));

  strata_call_tree_history_pop (history);
  wait_for_history (history);
  g_assert_true (strata_call_tree_history_get_tree (history) == tree);
  g_assert_cmpuint (places.n_reveals, ==, 2);
  back = codes_text (tree, places.revealed->codes);
  {
    g_autofree char *before = strata_call_tree_dup_path (tree, third, "/");

    g_assert_cmpstr (back, ==, before);
  }
  g_assert_cmpuint (((GArray *) g_ptr_array_index (places.revealed->opened, 0))->len, ==, 2);
  g_assert_null (strata_call_tree_history_dup_description (history));

  strata_call_tree_place_free (places.given);
  strata_call_tree_place_free (places.revealed);
  fixture_close (&f);
}

/* Transforms asked for while one is made follow it; they carry over to
 * the tree merged anew for one thread and to the tree bottom up, and go
 * with another trace. */
static void
test_session_call_tree_transforms (void)
{
  Fixture f;
  StrataCallTreeHistory *history;
  StrataCallTree *tree;
  guint32 a, b, c;
  StrataCallTransform drop_a, drop_b, drop_c;
  guint n_transforms;
  gint64 total;

  fixture_open (&f, "dmtrace", "studio-perflib-char_2_bytes.trace");
  history = strata_session_get_call_tree_history (f.session);
  wait_for_history (history);
  tree = strata_call_tree_history_get_tree (history);
  g_assert_cmpuint (strata_call_tree_get_n_children (tree, STRATA_CALL_TREE_ROOT), >=, 1);
  a = strata_call_tree_get_first_child (tree, STRATA_CALL_TREE_ROOT);
  b = strata_call_tree_get_first_child (tree, a);
  c = strata_call_tree_get_first_child (tree, b);
  total = strata_call_tree_get_total (tree, STRATA_CALL_TREE_ROOT, 0);
  drop_a = transform_of (STRATA_CALL_TRANSFORM_DROP_FUNCTION, strata_call_tree_get_method (tree, c));
  drop_b = transform_of (STRATA_CALL_TRANSFORM_MERGE_FUNCTION, strata_call_tree_get_method (tree, b));
  drop_c = transform_of (STRATA_CALL_TRANSFORM_COLLAPSE_RECURSION, strata_call_tree_get_method (tree, a));
  strata_call_tree_history_apply (history, &drop_a);
  strata_call_tree_history_apply (history, &drop_b);
  strata_call_tree_history_apply (history, &drop_c);
  /* The last one asked for, undone before it was made. */
  strata_call_tree_history_pop (history);
  wait_for_history (history);
  strata_call_tree_history_get_transforms (history, &n_transforms);
  g_assert_cmpuint (n_transforms, ==, 2);
  /* Dropping calls takes their time away; merging keeps it. */
  g_assert_cmpint (strata_call_tree_get_total (strata_call_tree_history_get_tree (history), STRATA_CALL_TREE_ROOT, 0), <, total);

  strata_session_set_profile_thread (f.session, 0);
  g_assert_cmpint (strata_call_tree_history_get_state (history), ==, STRATA_CALL_TREE_MERGING);
  wait_for_history (history);
  g_assert_cmpint (strata_call_tree_history_get_thread (history), ==, 0);
  strata_call_tree_history_get_transforms (history, &n_transforms);
  g_assert_cmpuint (n_transforms, ==, 2);

  strata_call_tree_history_set_inverted (history, TRUE);
  wait_for_history (history);
  g_assert_cmpint (strata_call_tree_get_kind (strata_call_tree_history_get_tree (history)), ==, STRATA_CALL_TREE_BOTTOM_UP);
  g_assert_cmpint (strata_call_tree_get_kind (strata_call_tree_history_get_top_down (history)), ==, STRATA_CALL_TREE_TOP_DOWN);
  strata_call_tree_history_pop (history);
  wait_for_history (history);
  strata_call_tree_history_get_transforms (history, &n_transforms);
  g_assert_cmpuint (n_transforms, ==, 1);
  g_assert_cmpint (strata_call_tree_get_kind (strata_call_tree_history_get_tree (history)), ==, STRATA_CALL_TREE_BOTTOM_UP);

  {
    g_autofree char *path = strata_test_fixture_path ("dmtrace", "studio-perflib-char_2_bytes.trace", NULL);
    g_autoptr(StrataTrace) other = strata_test_load_path (path, NULL);

    strata_session_set_trace (f.session, other);
    wait_for_history (history);
    strata_call_tree_history_get_transforms (history, &n_transforms);
    g_assert_cmpuint (n_transforms, ==, 0);
    strata_session_set_trace (f.session, NULL);
    g_assert_cmpint (strata_call_tree_history_get_state (history), ==, STRATA_CALL_TREE_EMPTY);
    g_assert_null (strata_call_tree_history_get_tree (history));
  }
  fixture_close (&f);
}

/* ---- Notes ---- */

/* A note on the selected call, else on the selected range; changed,
 * removed, kept for the file and read back by the next session; going
 * to a note selects what it is on. */
static void
test_session_notes (void)
{
  static const char json[] =
    "[{\"name\":\"main\",\"ph\":\"X\",\"ts\":0,\"dur\":1000,\"pid\":1,\"tid\":1},"
    "{\"name\":\"work\",\"ph\":\"X\",\"ts\":10,\"dur\":200,\"pid\":1,\"tid\":1}]";
  g_autofree char *path = strata_test_write_file ("noted-session.json", json, strlen (json));
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataTrace) trace = strata_test_load_path (path, &error);
  g_autoptr(StrataTrace) again = NULL;
  g_autoptr(StrataSession) session = strata_session_new ();
  g_autoptr(StrataSession) next = strata_session_new ();
  guint n_changes = 0;
  StrataSelectedKind kind;
  StrataSliceRef call = { 0, 1, 0 }, selected;
  gint64 start, end;

  g_assert_no_error (error);
  g_signal_connect (session, "notes-changed", G_CALLBACK (count_cb), &n_changes);
  strata_session_set_trace (session, trace);
  g_assert_cmpuint (strata_session_get_notes (session)->len, ==, 0);
  g_assert_null (strata_session_get_note_marks (session));
  /* Nothing selected: nothing to write on. */
  g_assert_false (strata_session_get_note_target (session, &kind, &selected, &start, &end));
  g_assert_false (strata_session_add_note (session, "lost", NULL));

  strata_session_select_call (session, &call);
  g_assert_true (strata_session_get_note_target (session, &kind, &selected, &start, &end));
  g_assert_cmpint (kind, ==, STRATA_SELECTED_CALL);
  n_changes = 0;
  g_assert_true (strata_session_add_note (session, "the work", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (n_changes, ==, 1);
  strata_session_clear_selection (session);
  strata_session_set_selection_range (session, strata_trace_get_start (trace) + 500000, strata_trace_get_start (trace) + 700000);
  g_assert_true (strata_session_add_note (session, "idle", &error));
  g_assert_cmpuint (strata_session_get_notes (session)->len, ==, 2);
  g_assert_cmpuint (strata_session_get_note_marks (session)->len, ==, 2);
  g_assert_true (strata_session_set_note_text (session, 1, "  idle, waiting ", &error));
  g_assert_true (strata_session_add_note (session, "gone soon", &error));
  g_assert_true (strata_session_remove_note (session, 2, &error));
  g_assert_no_error (error);
  g_assert_null (strata_session_get_notes_error (session));

  /* The file's next session has them. */
  again = strata_test_load_path (path, &error);
  g_assert_no_error (error);
  strata_session_set_trace (next, again);
  g_assert_cmpuint (strata_session_get_notes (next)->len, ==, 2);
  g_assert_cmpstr (g_array_index (strata_session_get_notes (next), StrataNote, 0).text, ==, "the work");
  g_assert_true (g_array_index (strata_session_get_notes (next), StrataNote, 0).on_call);
  g_assert_cmpstr (g_array_index (strata_session_get_notes (next), StrataNote, 1).text, ==, "  idle, waiting ");
  strata_session_go_to_note (next, 0);
  g_assert_cmpint (strata_session_get_selected_item (next, &selected, NULL), ==, STRATA_SELECTED_CALL);
  g_assert_cmpuint (selected.depth, ==, 1);
  strata_session_go_to_note (next, 1);
  g_assert_true (strata_session_get_selection_range (next, &start, &end));
  g_assert_cmpint (start, ==, strata_trace_get_start (trace) + 500000);
  g_assert_cmpint (end, ==, strata_trace_get_start (trace) + 700000);
  strata_session_set_trace (next, NULL);
  g_assert_null (strata_session_get_notes (next));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/session/selection", test_session_selection);
  g_test_add_func ("/session/range-and-zoom", test_session_range_and_zoom);
  g_test_add_func ("/session/zoom-to-any", test_session_zoom_to_any);
  g_test_add_func ("/session/search", test_session_search);
  g_test_add_func ("/session/method-calls", test_session_method_calls);
  g_test_add_func ("/session/clock", test_session_clock);
  g_test_add_func ("/session/profile-filter", test_session_profile_filter);
  g_test_add_func ("/session/tracks", test_session_tracks);
  g_test_add_func ("/session/long-list-sort", test_session_long_list_sort);
  g_test_add_func ("/session/call-tree-follows", test_session_call_tree_follows);
  g_test_add_func ("/session/call-tree-transforms", test_session_call_tree_transforms);
  g_test_add_func ("/session/notes", test_session_notes);

  return g_test_run ();
}
