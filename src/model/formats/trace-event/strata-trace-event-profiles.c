/* strata-trace-event-profiles.c: JavaScript samples in a Trace Event file
 *
 * Chrome and node record V8's sampling profiler in the trace: a "Profile"
 * event (its start time, an id) and "ProfileChunk" events with the same
 * id, each adding call-tree nodes (linked by "parent"), samples and
 * their time deltas. Each profile's samples become calls of the thread
 * that recorded it, laid out in time among its trace events as DevTools
 * draws them (strata-trace-event-nesting.c). The Summary lists how many
 * samples of how many profiles were read.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-trace-event-private.h"
#include "strata-units.h"
#include "strata-v8-profile.h"

typedef struct
{
  StrataV8Profile *profile;
  guint            thread;     /* the thread that recorded it */
} TeV8Profile;

static void
te_v8_profile_free (gpointer data)
{
  TeV8Profile *self = data;

  strata_v8_profile_free (self->profile);
  g_free (self);
}

/* A JavaScript frame is a method named as DevTools names it, of the
 * category "JavaScript", its script the source file. */
static guint32
frame_method (gpointer    data,
              const char *function,
              const char *url,
              gint64      line,
              gint64      column)
{
  TeState *state = data;
  StrataStringPool *pool = strata_trace_get_pool (state->trace);
  g_autofree char *label = strata_v8_frame_label (function, url, line, column);
  guint32 method = strata_trace_event_ensure_method (state, strata_string_pool_intern (pool, label),
                                                     strata_string_pool_intern (pool, "JavaScript"));
  StrataMethod *m = strata_trace_peek_method (state->trace, method);

  m->source_file = strata_string_pool_intern (pool, url);
  if (line >= 0 && line < G_MAXINT32)
    m->line = (gint32) line + 1;
  return method;
}

/* The profile an event belongs to, by process and id, made on first sight. */
static TeV8Profile *
profile_of (TeState        *state,
            const TeFields *fields,
            guint           thread)
{
  g_autofree char *key = g_strdup_printf ("%.*s:%.*s", (int) fields->pid.text.len, fields->pid.text.start,
                                          (int) fields->id.text.len, fields->id.text.start);
  TeV8Profile *profile;

  if (state->v8_profiles == NULL)
    state->v8_profiles = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, te_v8_profile_free);
  if ((profile = g_hash_table_lookup (state->v8_profiles, key)) != NULL)
    return profile;
  profile = g_new0 (TeV8Profile, 1);
  profile->profile = strata_v8_profile_new (frame_method, state);
  profile->thread = thread;
  g_hash_table_insert (state->v8_profiles, g_steal_pointer (&key), profile);
  return profile;
}

static gboolean
is_named (const TeFields *fields,
          const char     *name)
{
  return fields->has_name && !fields->name.escaped && fields->name.len == strlen (name) &&
         memcmp (fields->name.start, name, fields->name.len) == 0;
}

/**
 * strata_trace_event_read_profile:
 * @thread: the thread of the event
 *
 * Reads a "Profile" or "ProfileChunk" event's args into its profile;
 * other events are left alone. A chunk whose args cannot be read is
 * counted.
 */
void
strata_trace_event_read_profile (TeState        *state,
                                 const TeFields *fields,
                                 guint           thread)
{
  gboolean chunk = is_named (fields, "ProfileChunk");
  g_autoptr(JsonParser) parser = NULL;
  JsonObject *data, *cpu_profile;
  TeV8Profile *profile;

  if (!chunk && !is_named (fields, "Profile"))
    return;
  parser = json_parser_new_immutable ();
  if (fields->args == NULL || fields->args_end <= fields->args ||
      !json_parser_load_from_data (parser, fields->args, fields->args_end - fields->args, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)) ||
      (data = strata_v8_json_object (json_node_get_object (json_parser_get_root (parser)), "data")) == NULL)
    {
      state->n_bad_profile_chunks++;
      return;
    }
  profile = profile_of (state, fields, thread);
  if (!chunk)
    {
      strata_v8_profile_set_start (profile->profile, strata_v8_json_micros (data, "startTime", 0));
      return;
    }
  cpu_profile = strata_v8_json_object (data, "cpuProfile");
  if (strata_v8_json_array (cpu_profile, "nodes") != NULL)
    strata_v8_profile_add_nodes (profile->profile, strata_v8_json_array (cpu_profile, "nodes"));
  strata_v8_profile_add_samples (profile->profile, strata_v8_json_array (cpu_profile, "samples"), strata_v8_json_array (data, "timeDeltas"));
}

/**
 * strata_trace_event_build_profiles:
 *
 * Each profile read as a companion thread of calls. Runs before the span
 * tables are built.
 */
void
strata_trace_event_build_profiles (TeState *state)
{
  GHashTableIter iter;
  gpointer value;
  StrataV8Repairs repairs = { 0 };
  guint64 n_samples = 0, n_profiles = 0;

  if (state->v8_profiles == NULL && state->n_bad_profile_chunks == 0)
    return;
  if (state->v8_profiles != NULL)
    g_hash_table_iter_init (&iter, state->v8_profiles);
  while (state->v8_profiles != NULL && g_hash_table_iter_next (&iter, NULL, &value))
    {
      TeV8Profile *profile = value;
      guint n;
      gint64 end;
      const StrataTimedStack *stacks = strata_v8_profile_get_stacks (profile->profile, STRATA_V8_STACKS_TIMELINE, &n, &end);

      strata_v8_profile_add_repairs (profile->profile, &repairs);
      if (n == 0)
        continue;
      strata_trace_event_nest_stacks (state, profile->thread, stacks, n, end);
      n_samples += n;
      n_profiles++;
    }
  strata_v8_repairs_report (&repairs, state->trace);
  strata_trace_add_count_diagnostic (state->trace, state->n_bad_profile_chunks,
                                     /* Translators: %s is a count */
                                     g_dngettext (GETTEXT_PACKAGE, "%s profile event had args that could not be read and was dropped.",
                                                  "%s profile events had args that could not be read and were dropped.",
                                                  state->n_bad_profile_chunks));
  if (n_profiles > 0)
    {
      g_autofree char *samples = strata_units_format_count (n_samples);
      g_autofree char *profiles = strata_units_format_count (n_profiles);
      /* Translators: JavaScript samples read from a trace: "19,779 in 2 profiles" */
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s in %s profile", "%s in %s profiles", n_profiles),
                                               samples, profiles);

      strata_trace_add_metadata (state->trace, _("JavaScript samples"), text);
    }
}
