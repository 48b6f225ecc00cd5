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

#include "strata-json-scan.h"
#include "strata-json-skim.h"
#include "strata-trace-event-private.h"
#include "strata-units.h"
#include "strata-v8-stacks.h"
#include "strata-v8-text.h"

/* A group of samples takes the room of two of the numbers it is kept among. */
#define GROUP_NUMBERS (sizeof (StrataV8SampleGroup) / sizeof (gint64))
G_STATIC_ASSERT (sizeof (StrataV8SampleGroup) % sizeof (gint64) == 0);

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

/* By the value's word when that is all of it (the scanner read it):
 * its text may be on another core. */
static gboolean
text_is (const GString *text,
         const TeValue *value,
         gboolean       words_read)
{
  guint64 word = 0;

  /* An absent pid or id has no text at all. */
  if (text == NULL || text->len != value->text.len)
    return FALSE;
  if (text->len == 0)
    return TRUE;
  if (!words_read || text->len > sizeof word)
    return memcmp (text->str, value->text.start, text->len) == 0;
  memcpy (&word, text->str, text->len);
  return word == value->word;
}

/* The profile of @fields' process and id, made on first sight. */
static TeV8Profile *
find_profile (TeState        *state,
              const TeFields *fields,
              guint           thread)
{
  char buffer[256];
  g_autofree char *long_key = NULL;
  const char *key = buffer;
  TeV8Profile *profile;

  /* Looked up for every chunk: made on the stack unless it is long. */
  if (fields->pid.text.len + fields->id.text.len + 2 <= sizeof buffer)
    g_snprintf (buffer, sizeof buffer, "%.*s:%.*s", (int) fields->pid.text.len, fields->pid.text.start,
                (int) fields->id.text.len, fields->id.text.start);
  else
    key = long_key = g_strdup_printf ("%.*s:%.*s", (int) MIN (fields->pid.text.len, G_MAXINT / 2), fields->pid.text.start,
                                      (int) MIN (fields->id.text.len, G_MAXINT / 2), fields->id.text.start);
  if (state->v8_profiles == NULL)
    state->v8_profiles = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, te_v8_profile_free);
  if ((profile = g_hash_table_lookup (state->v8_profiles, key)) != NULL)
    return profile;
  profile = g_new0 (TeV8Profile, 1);
  profile->profile = strata_v8_profile_new (frame_method, state);
  profile->thread = thread;
  g_hash_table_insert (state->v8_profiles, g_strdup (key), profile);
  return profile;
}

/* The profile an event belongs to, by process and id, made on first
 * sight; a recording's hundreds of thousands of chunks are nearly all
 * of the profile the one before was of. */
static TeV8Profile *
profile_of (TeState        *state,
            const TeFields *fields,
            guint           thread)
{
  TeV8Profile *profile;

  if (state->last_profile != NULL && text_is (state->last_profile_pid, &fields->pid, fields->words_read) &&
      text_is (state->last_profile_id, &fields->id, fields->words_read))
    return state->last_profile;
  profile = find_profile (state, fields, thread);
  if (state->last_profile_pid == NULL)
    {
      state->last_profile_pid = g_string_new (NULL);
      state->last_profile_id = g_string_new (NULL);
    }
  g_string_truncate (state->last_profile_pid, 0);
  g_string_append_len (state->last_profile_pid, fields->pid.text.start, fields->pid.text.len);
  g_string_truncate (state->last_profile_id, 0);
  g_string_append_len (state->last_profile_id, fields->id.text.start, fields->id.text.len);
  state->last_profile = profile;
  return profile;
}

/* A name that fits its words once read is all in them: its text may be
 * on another core. */
static gboolean
is_named (const TeFields *fields,
          const char     *name)
{
  gsize len = strlen (name);

  if (!fields->has_name || fields->name.escaped || fields->name.len != len)
    return FALSE;
  if (fields->words_read && len <= sizeof fields->name_words)
    return memcmp (fields->name_words.w, name, len) == 0;
  return memcmp (fields->name.start, name, len) == 0;
}

/* What a Profile or ProfileChunk event's args hold, found in the text:
 * a chunk's samples are most of a recording's bytes, and are read
 * straight into arrays of numbers; only its few new nodes are parsed. */
typedef struct
{
  TeProfileArgs *args;
  GArray        *numbers;     /* gint64 */
  gboolean       has_data;
  gboolean       has_ids;
  gboolean       regroup;     /* samples came after deltas grouped as read */
} ChunkScan;

/* An array of numbers as a run of @numbers, from @at, @n long. */
static StrataJsonStatus
read_run (GArray      *numbers,
          const char  *p,
          const char  *end,
          gint64       fallback,
          guint       *at,
          guint       *n,
          const char **value_end)
{
  StrataJsonStatus status;

  *at = numbers->len;
  status = strata_v8_read_integers (p, end, numbers, fallback, value_end);
  *n = numbers->len - *at;
  return status;
}

static StrataJsonStatus
cpu_profile_member (const char  *key,
                    gsize        key_len,
                    const char  *p,
                    const char  *end,
                    gpointer     data,
                    const char **value_end)
{
  ChunkScan *scan = data;
  StrataJsonStatus status;

  if (KEY_IS ("samples"))
    {
      scan->has_ids = TRUE;
      scan->regroup |= scan->args->grouped_as_read;
      scan->args->grouped_as_read = FALSE;
      return read_run (scan->numbers, p, end, G_MININT64, &scan->args->ids_at, &scan->args->n_ids, value_end);
    }
  if (!KEY_IS ("nodes") || *p != '[')
    return strata_json_skip_value (p, end, value_end);
  /* The loading thread reads the nodes: here only where they end. */
  status = strata_json_skim_container (p, end, value_end);
  if (status == STRATA_JSON_OK)
    {
      scan->args->nodes = p;
      scan->args->nodes_end = *value_end;
    }
  return status;
}

/* Whether the groups of @n_ids samples fit after @numbers: beyond an
 * array's reach, and no recording writes a billion samples a chunk. */
static gboolean
groups_fit (const GArray *numbers,
            guint         n_ids)
{
  return n_ids <= (G_MAXUINT - numbers->len) / GROUP_NUMBERS;
}

/* The groups of @args's samples go after @numbers, in room for the most
 * there can be: where they start. */
static StrataV8SampleGroup *
reserve_groups (GArray        *numbers,
                TeProfileArgs *args)
{
  args->groups_at = numbers->len;
  g_array_set_size (numbers, numbers->len + args->n_ids * GROUP_NUMBERS);
  return (StrataV8SampleGroup *) &g_array_index (numbers, gint64, args->groups_at);
}

/* The @n_groups written stay, the room past them goes. */
static void
keep_groups (GArray        *numbers,
             TeProfileArgs *args,
             guint          n_groups)
{
  args->n_groups = n_groups;
  g_array_set_size (numbers, args->groups_at + n_groups * GROUP_NUMBERS);
}

typedef struct
{
  StrataV8Grouper grouper;
  guint64         n_deltas;
} DeltaGrouping;

static gboolean
group_deltas_block (const gint64 *values,
                    guint         n,
                    const char   *at,
                    gpointer      data)
{
  DeltaGrouping *grouping = data;

  strata_v8_grouper_add_deltas (&grouping->grouper, values, n);
  grouping->n_deltas += n;
  return TRUE;
}

/* Deltas whose samples were read before them (Chrome writes "samples"
 * first) go straight into groups, not into @scan's numbers: half a
 * recording's numbers need not be written and read again. Their text
 * is kept for the rare group that must be added a sample at a time. */
static StrataJsonStatus
group_deltas_as_read (ChunkScan   *scan,
                      const char  *p,
                      const char  *end,
                      const char **value_end)
{
  TeProfileArgs *args = scan->args;
  DeltaGrouping grouping = { { 0 }, 0 };
  StrataV8SampleGroup *groups = reserve_groups (scan->numbers, args);
  StrataJsonStatus status;

  strata_v8_grouper_init (&grouping.grouper, &g_array_index (scan->numbers, gint64, args->ids_at), args->n_ids, groups);
  status = strata_v8_read_integers_with (p, end, 0, group_deltas_block, &grouping, value_end);
  keep_groups (scan->numbers, args, strata_v8_grouper_finish (&grouping.grouper));
  args->n_deltas = (guint) MIN (grouping.n_deltas, G_MAXUINT);
  args->grouped_as_read = TRUE;
  args->deltas_text = p;
  args->deltas_end = *value_end;
  scan->regroup = FALSE;
  return status;
}

static StrataJsonStatus
data_member (const char  *key,
             gsize        key_len,
             const char  *p,
             const char  *end,
             gpointer     data,
             const char **value_end)
{
  ChunkScan *scan = data;

  if (KEY_IS ("cpuProfile") && *p == '{')
    return strata_json_scan_object (p, end, cpu_profile_member, scan, value_end);
  if (KEY_IS ("timeDeltas"))
    {
      if (scan->has_ids && groups_fit (scan->numbers, scan->args->n_ids))
        return group_deltas_as_read (scan, p, end, value_end);
      scan->args->grouped_as_read = FALSE;
      scan->args->deltas_text = p;
      return read_run (scan->numbers, p, end, 0, &scan->args->deltas_at, &scan->args->n_deltas, value_end);
    }
  if (KEY_IS ("startTime"))
    {
      scan->args->has_start = TRUE;
      return strata_v8_read_integer (p, end, 0, &scan->args->start, value_end);
    }
  return strata_json_skip_value (p, end, value_end);
}

static StrataJsonStatus
args_member (const char  *key,
             gsize        key_len,
             const char  *p,
             const char  *end,
             gpointer     data,
             const char **value_end)
{
  ChunkScan *scan = data;

  if (KEY_IS ("data") && *p == '{')
    {
      scan->has_data = TRUE;
      return strata_json_scan_object (p, end, data_member, scan, value_end);
    }
  return strata_json_skip_value (p, end, value_end);
}

gboolean
te_is_profile_event (const TeFields *fields)
{
  return is_named (fields, "ProfileChunk") || is_named (fields, "Profile");
}

/**
 * te_read_profile_args:
 * @numbers: (inout): where the samples and deltas go, after what it holds
 *
 * Reads a profile event's args, without side effects: the scanner reads
 * them ahead on its thread.
 */
void
te_read_profile_args (const TeFields *fields,
                      GArray         *numbers,
                      TeProfileArgs  *args)
{
  const char *args_end;

  *args = (TeProfileArgs) { 0 };
  if (fields->args != NULL)
    te_read_profile_args_at (fields->args, fields->args_end, numbers, args, &args_end);
}

/**
 * te_read_profile_args_at:
 * @p: an event's args
 * @args_end: (out): where they end
 *
 * As te_read_profile_args(), from the text of the args, as the scan
 * reads them.
 *
 * Returns: how the args read, as JSON
 */
StrataJsonStatus
te_read_profile_args_at (const char     *p,
                         const char     *end,
                         GArray         *numbers,
                         TeProfileArgs  *args,
                         const char    **args_end)
{
  ChunkScan scan = { args, numbers, FALSE, FALSE, FALSE };
  StrataJsonStatus status;

  *args = (TeProfileArgs) { 0 };
  if (*p != '{')
    return strata_json_skip_value (p, end, args_end);
  status = strata_json_scan_object (p, end, args_member, &scan, args_end);
  args->ok = status == STRATA_JSON_OK && scan.has_data;
  /* Samples that came again after their deltas were grouped: the
   * deltas are read again, and grouped with them below. */
  if (args->ok && scan.regroup)
    {
      const char *deltas_end;

      read_run (numbers, args->deltas_text, args->deltas_end, 0, &args->deltas_at, &args->n_deltas, &deltas_end);
    }
  if (!groups_fit (numbers, args->n_ids))
    args->ok = FALSE;
  if (args->ok && args->n_ids > 0 && !args->grouped_as_read)
    {
      StrataV8SampleGroup *groups = reserve_groups (numbers, args);
      const gint64 *values = (const gint64 *) numbers->data;

      keep_groups (numbers, args, strata_v8_group_samples_into (values + args->ids_at, args->n_ids, values + args->deltas_at,
                                                                args->n_deltas, groups));
    }
  return status;
}

typedef struct
{
  const TeProfileArgs *args;
  GArray             **values;
} DeltasText;

/* StrataV8Deltas.read: the deltas grouped as read, read again from the
 * text, which stays until the event has been taken. */
static const gint64 *
read_deltas_again (gpointer  data,
                   guint    *n)
{
  DeltasText *text = data;
  const char *deltas_end;

  *text->values = g_array_new (FALSE, FALSE, sizeof (gint64));
  strata_v8_read_integers (text->args->deltas_text, text->args->deltas_end, *text->values, 0, &deltas_end);
  *n = (*text->values)->len;
  return (const gint64 *) (*text->values)->data;
}

/**
 * strata_trace_event_read_profile:
 * @thread: the thread of the event
 *
 * Reads a "Profile" or "ProfileChunk" event's args into its profile,
 * as the scanner read them or now; other events are left alone. A chunk
 * whose args cannot be read is counted.
 *
 * Returns: whether the event was one, and read: its samples become
 *   calls, and it is no event of its own
 */
gboolean
strata_trace_event_read_profile (TeState        *state,
                                 const TeFields *fields,
                                 guint           thread)
{
  gboolean chunk = is_named (fields, "ProfileChunk");
  g_autoptr(GArray) scratch = NULL;
  const gint64 *numbers;
  TeProfileArgs read;
  const TeProfileArgs *args = fields->profile_args;
  TeV8Profile *profile;

  if (!chunk && !is_named (fields, "Profile"))
    return FALSE;
  if (args == NULL)
    {
      scratch = g_array_new (FALSE, FALSE, sizeof (gint64));
      te_read_profile_args (fields, scratch, &read);
      args = &read;
    }
  if (!args->ok)
    {
      state->n_bad_profile_chunks++;
      return FALSE;
    }
  profile = profile_of (state, fields, thread);
  if (!chunk)
    {
      strata_v8_profile_set_start (profile->profile, args->start);
      return TRUE;
    }
  if (args->nodes != NULL && !strata_v8_profile_add_nodes_text (profile->profile, args->nodes, args->nodes_end))
    state->n_bad_profile_chunks++;
  numbers = fields->profile_args != NULL ? fields->profile_args_numbers : (const gint64 *) scratch->data;
  /* A chunk of nodes alone has no numbers at all. */
  if (numbers != NULL)
    {
      g_autoptr(GArray) reread = NULL;
      DeltasText text = { args, &reread };
      StrataV8Deltas deltas = { numbers + args->deltas_at, args->n_deltas, NULL, NULL };

      if (args->grouped_as_read)
        deltas = (StrataV8Deltas) { NULL, 0, read_deltas_again, &text };
      strata_v8_profile_add_sample_groups (profile->profile, (const StrataV8SampleGroup *) (numbers + args->groups_at), args->n_groups,
                                           numbers + args->ids_at, args->n_ids, &deltas);
    }
  return TRUE;
}

/* What one worker laid out, summed when both are done. */
typedef struct
{
  TeState         *state;
  GPtrArray       *by_thread;   /* per thread: its TeV8Profiles, or NULL */
  gint             next;        /* the next thread to lay out */
  guint64          total;       /* samples of all threads */
  TeNestTotals     totals[2];
  StrataV8Repairs  repairs[2];
  guint64          n_samples[2];
  guint64          n_profiles[2];
  StrataLoadGuard  guards[2];
} ProfileWork;

/* A thread's profiles, the last laying out all its calls at once.
 * Returns FALSE if the load was cancelled meanwhile. */
static gboolean
nest_thread (ProfileWork *work,
             guint        worker,
             GPtrArray   *profiles)
{
  guint64 n_thread = 0;
  gboolean may_cut;

  for (guint i = 0; i < profiles->len; i++)
    n_thread += strata_v8_profile_get_n_samples (((TeV8Profile *) g_ptr_array_index (profiles, i))->profile);
  /* A thread with most of the samples is cut in two to keep both cores
   * busy; other threads keep them busy otherwise. */
  may_cut = n_thread * 2 > work->total;
  for (guint i = 0; i < profiles->len; i++)
    {
      TeV8Profile *profile = g_ptr_array_index (profiles, i);
      StrataV8Stacks stacks;
      guint n;
      gint64 end;

      strata_v8_stacks_init (&stacks, profile->profile, STRATA_V8_STACKS_TIMELINE, &n, &end);
      strata_v8_stacks_consume (&stacks);
      if (n > 0 && !strata_trace_event_nest_stacks (work->state, profile->thread, &stacks, end, i + 1 == profiles->len,
                                                    may_cut, &work->totals[worker]))
        {
          strata_v8_stacks_clear (&stacks);
          return FALSE;
        }
      strata_v8_stacks_clear (&stacks);
      strata_v8_profile_add_repairs (profile->profile, &work->repairs[worker]);
      if (n == 0)
        continue;
      work->n_samples[worker] += strata_v8_profile_get_n_samples (profile->profile);
      strata_v8_profile_drop_samples (profile->profile);
      work->n_profiles[worker]++;
    }
  return TRUE;
}

static void
nest_threads_guarded (ProfileWork *work,
                      guint        worker)
{
  StrataLoadGuard *guard = &work->guards[worker];

  if (STRATA_LOAD_GUARD_FAULTED (guard))
    return;
  for (;;)
    {
      gint thread = g_atomic_int_add (&work->next, 1);

      if (thread >= (gint) work->by_thread->len)
        break;
      if (g_ptr_array_index (work->by_thread, thread) != NULL &&
          !nest_thread (work, worker, g_ptr_array_index (work->by_thread, thread)))
        break;
    }
  strata_load_guard_pop (guard);
}

static gpointer
nest_worker (gpointer data)
{
  nest_threads_guarded (data, 1);
  return NULL;
}

static void
free_profiles (gpointer data)
{
  if (data != NULL)
    g_ptr_array_unref (data);
}

/* Each thread's profiles, in the table's order; the samples counted. */
static guint64
group_by_thread (TeState   *state,
                 GPtrArray *by_thread)
{
  GHashTableIter iter;
  gpointer value;
  guint64 total = 0;

  g_ptr_array_set_size (by_thread, state->threads->len);
  g_hash_table_iter_init (&iter, state->v8_profiles);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      TeV8Profile *profile = value;
      GPtrArray *profiles = g_ptr_array_index (by_thread, profile->thread);

      if (profiles == NULL)
        g_ptr_array_index (by_thread, profile->thread) = profiles = g_ptr_array_new ();
      /* Those without samples come first: only the last lays out. */
      if (strata_v8_profile_get_n_samples (profile->profile) == 0)
        g_ptr_array_insert (profiles, 0, profile);
      else
        g_ptr_array_add (profiles, profile);
      total += strata_v8_profile_get_n_samples (profile->profile);
    }
  return total;
}

/* Below this, one core lays out every thread's samples. */
#define PARALLEL_MIN_SAMPLES 100000

/* Threads' samples laid out on both cores. Returns FALSE with @error
 * set if memory ran out on either. */
static gboolean
nest_all (ProfileWork  *work,
          GError      **error)
{
  guint n_threads = 0;
  GThread *helper = NULL;
  guint64 total = work->total = group_by_thread (work->state, work->by_thread);

  for (guint t = 0; t < work->by_thread->len; t++)
    n_threads += g_ptr_array_index (work->by_thread, t) != NULL;
  if (n_threads > 1 && total >= PARALLEL_MIN_SAMPLES)
    helper = g_thread_try_new ("strata-nest", nest_worker, work, NULL);
  nest_threads_guarded (work, 0);
  if (helper != NULL)
    g_thread_join (helper);
  for (guint w = 0; w < G_N_ELEMENTS (work->guards); w++)
    if (work->guards[w].fault != STRATA_LOAD_FAULT_NONE)
      {
        strata_load_guard_set_error (&work->guards[w], error);
        return FALSE;
      }
  return !g_cancellable_set_error_if_cancelled (work->state->job->cancellable, error);
}

/**
 * strata_trace_event_build_profiles:
 *
 * Each profile's samples laid out as calls of the thread that recorded
 * them, threads on both cores. Runs before the span tables are built.
 *
 * Returns: %FALSE with @error set if memory ran out
 */
gboolean
strata_trace_event_build_profiles (TeState  *state,
                                   GError  **error)
{
  g_autoptr(GPtrArray) by_thread = g_ptr_array_new_with_free_func (free_profiles);
  ProfileWork work = { .state = state, .by_thread = by_thread, .totals = { { 0, G_MININT64 }, { 0, G_MININT64 } } };
  StrataV8Repairs repairs = { 0 };
  guint64 n_samples = 0, n_profiles = 0;

  if (state->v8_profiles == NULL && state->n_bad_profile_chunks == 0)
    return TRUE;
  if (state->v8_profiles != NULL && !nest_all (&work, error))
    return FALSE;
  for (guint w = 0; w < 2; w++)
    {
      repairs.n_unknown_samples += work.repairs[w].n_unknown_samples;
      repairs.n_reordered += work.repairs[w].n_reordered;
      repairs.n_cut_stacks += work.repairs[w].n_cut_stacks;
      n_samples += work.n_samples[w];
      n_profiles += work.n_profiles[w];
      state->n_clipped += work.totals[w].n_clipped;
      state->last_time = MAX (state->last_time, work.totals[w].last_time);
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
  return TRUE;
}
