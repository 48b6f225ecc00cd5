/* strata-open-request.c: what a command line asks of the window a file opens in
 *
 * `strata --view=flame --mapping=m.txt --compare=B A`: the file loads in
 * a worker, and each option acts once there is something for it to act
 * on: the mapping and the baseline start when the trace is in, the clock
 * and range apply to it, the call tree's page shows once the tree is
 * merged, the method is selected once the profile is ready. A request
 * is made wherever the command line is read (the first instance, or the
 * one a second `strata` hands its command line to), so options are never
 * dropped; paths are taken relative to the directory strata was started
 * in. It frees itself when done, or when its window goes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-open-request.h"
#include "strata-units.h"

#define POLL_MS 50

struct _StrataOpenRequest
{
  StrataWindow          *window;         /* weak */
  StrataSession         *session;        /* weak, the window's */
  StrataOpenRequestDone  done;
  gpointer               done_data;
  guint                  pending;        /* the next step's source */

  char                  *view;
  gboolean               has_range;
  double                 range_from_ms;
  double                 range_to_ms;
  char                  *select;
  gboolean               details;
  char                  *find;
  char                  *clock;
  GFile                 *compare;
  GFile                 *mapping;
  gboolean               started;        /* mapping, baseline, clock and range applied */
  gboolean               window_gone;
};

static GFile *
file_for_arg (GApplicationCommandLine *command_line,
              const char              *arg)
{
  return arg != NULL ? g_application_command_line_create_file_for_arg (command_line, arg) : NULL;
}

/**
 * strata_open_request_new:
 * @options: checked options (strata_cli_options_check())
 * @command_line: the command line they came from, whose directory
 *   relative paths are in
 */
StrataOpenRequest *
strata_open_request_new (const StrataCliOptions  *options,
                         GApplicationCommandLine *command_line)
{
  StrataOpenRequest *self = g_new0 (StrataOpenRequest, 1);

  self->view = g_strdup (options->view);
  self->has_range = options->range != NULL &&
                    strata_units_parse_ms_range (options->range, &self->range_from_ms, &self->range_to_ms);
  self->select = g_strdup (options->select);
  self->details = options->details;
  self->find = g_strdup (options->find);
  self->clock = g_strdup (options->clock);
  self->compare = file_for_arg (command_line, options->compare);
  self->mapping = file_for_arg (command_line, options->mapping);
  return self;
}

static void
strata_open_request_free (StrataOpenRequest *self)
{
  g_clear_handle_id (&self->pending, g_source_remove);
  if (self->session != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->session, self);
      g_object_remove_weak_pointer (G_OBJECT (self->session), (gpointer *) &self->session);
    }
  if (self->window != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->window, self);
      g_object_remove_weak_pointer (G_OBJECT (self->window), (gpointer *) &self->window);
    }
  g_free (self->view);
  g_free (self->select);
  g_free (self->find);
  g_free (self->clock);
  g_clear_object (&self->compare);
  g_clear_object (&self->mapping);
  g_free (self);
}

static gboolean step (gpointer data);

static void
schedule (StrataOpenRequest *self,
          guint              delay_ms)
{
  if (self->pending != 0)
    return;
  self->pending = delay_ms > 0 ? g_timeout_add (delay_ms, step, self) : g_idle_add (step, self);
}

static void
schedule_now (StrataOpenRequest *self)
{
  schedule (self, 0);
}

/* What acts on the trace as soon as it is in. */
static void
start (StrataOpenRequest *self,
       StrataTrace       *trace)
{
  gint64 first, last;

  self->started = TRUE;
  if (self->mapping != NULL)
    strata_window_deobfuscate (self->window, self->mapping);
  if (self->compare != NULL)
    strata_window_compare_with (self->window, self->compare);
  if (self->clock != NULL)
    strata_session_set_clock (self->session, strata_cli_choose_clock (trace, self->clock));
  if (!self->has_range)
    return;
  strata_session_get_bounds (self->session, &first, &last);
  strata_session_set_visible_range (self->session,
                                    first + (gint64) (self->range_from_ms * 1e6),
                                    first + (gint64) (self->range_to_ms * 1e6));
}

/* Whether what the rest waits for is there; if not, the next step is
 * scheduled (signals for what announces itself, a poll for the rest). */
static gboolean
is_ready (StrataOpenRequest *self)
{
  gboolean tree_page = self->view != NULL && !g_str_equal (self->view, "calls");

  if (strata_session_get_profile (self->session) == NULL)
    return FALSE;   /* notify::profile */
  if (strata_window_get_mapping_busy (self->window))
    {
      schedule (self, POLL_MS);
      return FALSE;
    }
  if (self->compare != NULL && strata_session_get_comparison (self->session) == NULL &&
      strata_window_get_comparing (self->window))
    return FALSE;   /* notify::comparison */
  /* The call tree is merged off the main thread. */
  if (tree_page && !strata_window_show_call_tree (self->window, self->view))
    {
      schedule (self, POLL_MS);
      return FALSE;
    }
  return TRUE;
}

static void
finish (StrataOpenRequest *self)
{
  StrataWindow *window = self->window;

  if (self->select != NULL && strata_window_select_method (window, self->select) && self->details)
    strata_window_show_longest_call (window);
  if (g_strcmp0 (self->view, "calls") == 0)
    strata_window_show_calls (window);
  if (self->find != NULL)
    strata_window_find (window, self->find);
  if (self->done != NULL)
    self->done (window, self->done_data);
  strata_open_request_free (self);
}

static gboolean
step (gpointer data)
{
  StrataOpenRequest *self = data;
  StrataTrace *trace;

  self->pending = 0;
  if (self->window == NULL || self->session == NULL || self->window_gone)
    {
      strata_open_request_free (self);
      return G_SOURCE_REMOVE;
    }
  if (strata_window_get_busy (self->window))
    return G_SOURCE_REMOVE;   /* notify::busy */
  trace = strata_session_get_trace (self->session);
  /* Not loaded (the window says why): nothing to act on. */
  if (trace != NULL && !self->started)
    start (self, trace);
  if (trace == NULL || is_ready (self))
    finish (self);
  return G_SOURCE_REMOVE;
}

static void
window_destroyed (StrataOpenRequest *self)
{
  self->window_gone = TRUE;
  schedule_now (self);
}

/**
 * strata_open_request_apply:
 * @self: (transfer full): the request
 * @window: the window a file was just opened in
 * @done: (nullable): called once every option has acted
 *
 * Acts on @window as its file loads; @self is freed when done.
 */
void
strata_open_request_apply (StrataOpenRequest     *self,
                           StrataWindow          *window,
                           StrataOpenRequestDone  done,
                           gpointer               user_data)
{
  self->window = window;
  self->session = strata_window_get_session (window);
  self->done = done;
  self->done_data = user_data;
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &self->window);
  g_object_add_weak_pointer (G_OBJECT (self->session), (gpointer *) &self->session);
  g_signal_connect_swapped (window, "notify::busy", G_CALLBACK (schedule_now), self);
  g_signal_connect_swapped (self->session, "notify::profile", G_CALLBACK (schedule_now), self);
  g_signal_connect_swapped (self->session, "notify::comparison", G_CALLBACK (schedule_now), self);
  g_signal_connect_swapped (window, "destroy", G_CALLBACK (window_destroyed), self);
  schedule_now (self);
}
