/* strata-speedscope.c: speedscope's own file format, read
 *
 * speedscope (https://www.speedscope.app/file-format-schema.json) keeps
 * frames once ("shared.frames": name, and file, line and column where
 * known) and profiles that use them by index: "evented" ones as open and
 * close events at values on an axis, "sampled" ones as stacks (root
 * first) with a weight each. Each profile becomes a thread: events become
 * calls as written; samples are laid end to end in their order, each as
 * long as its weight, consecutive samples that share callers one call of
 * each, as speedscope's time order draws them. Axes in time units go on
 * the wall clock in nanoseconds; bytes and plain counts become weights,
 * drawn one unit to a millisecond.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "strata-error.h"
#include "strata-format-private.h"
#include "strata-json-scan.h"
#include "strata-stack-layout.h"
#include "strata-trace-private.h"

#define SCHEMA "speedscope.app/file-format-schema.json"
#define MAX_DEPTH 64
#define MAX_STACK 100000
/* Values past this from an axis's start are held there: sums of times
 * stay far inside 64 bits. */
#define MAX_TIME ((gint64) 1 << 56)

typedef struct
{
  StrataTrace *trace;
  guint        process;
  guint32     *methods;     /* per frame */
  guint        n_frames;
  gboolean     time_axis;   /* every profile's unit is one of time */
  guint64      n_bad_events;
  guint64      n_unclosed;
  guint64      n_bad_samples;
  guint        n_skipped_profiles;
} Reader;

StrataSniff
strata_speedscope_sniff (const guint8  *data,
                         gsize          len,
                         gboolean       complete,
                         GError       **error)
{
  gsize i = 0;

  while (i < len && g_ascii_isspace (data[i]))
    i++;
  if (i >= len || data[i] != '{')
    return STRATA_SNIFF_NO;
  return g_strstr_len ((const char *) data, MIN (len, 4096), SCHEMA) != NULL ? STRATA_SNIFF_YES : STRATA_SNIFF_NO;
}

/* ns per unit of an axis; 0 for units that are not time. */
static double
ns_per_unit (const char *unit)
{
  static const struct { const char *unit; double ns; } units[] = {
    { "nanoseconds", 1 }, { "microseconds", 1e3 }, { "milliseconds", 1e6 }, { "seconds", 1e9 },
  };

  for (guint i = 0; unit != NULL && i < G_N_ELEMENTS (units); i++)
    if (strcmp (unit, units[i].unit) == 0)
      return units[i].ns;
  return 0;
}

static const char *
member_string (JsonObject *object,
               const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
         ? json_node_get_string (node) : NULL;
}

static gboolean
member_number (JsonObject *object,
               const char *name,
               double     *value)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    *value = (double) json_node_get_int (node);
  else if (json_node_get_value_type (node) == G_TYPE_DOUBLE)
    *value = json_node_get_double (node);
  else
    return FALSE;
  return isfinite (*value);
}

static JsonObject *
member_object (JsonObject *object,
               const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

static JsonArray *
member_array (JsonObject *object,
              const char *name)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, name) : NULL;

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

/* ---- Frames ---- */

static void
read_frames (Reader     *self,
             JsonArray  *frames)
{
  StrataStringPool *pool = strata_trace_get_pool (self->trace);

  self->n_frames = frames != NULL ? json_array_get_length (frames) : 0;
  self->methods = g_new (guint32, MAX (self->n_frames, 1));
  for (guint i = 0; i < self->n_frames; i++)
    {
      JsonNode *node = json_array_get_element (frames, i);
      JsonObject *frame = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *name = member_string (frame, "name");
      const char *file = member_string (frame, "file");
      g_autofree char *valid = g_utf8_make_valid (name != NULL && *name ? name : _("(unnamed)"), -1);
      StrataMethod method = { .raw_id = i, .line = -1 };
      double line;

      method.name = strata_string_pool_intern (pool, valid);
      method.display_name = method.name;
      if (file != NULL)
        {
          g_autofree char *valid_file = g_utf8_make_valid (file, -1);

          method.source_file = strata_string_pool_intern (pool, valid_file);
        }
      if (member_number (frame, "line", &line) && line >= 0 && line < G_MAXINT32)
        method.line = (gint32) line;
      self->methods[i] = strata_trace_add_method (self->trace, &method);
    }
}

/* ---- Evented profiles ---- */

typedef struct
{
  guint32 frame;
  guint32 first_child;
  gint64  start;
} Open;

typedef struct
{
  GPtrArray *depths;   /* GArray of StrataSpan per depth */
  GArray    *open;     /* Open */
} Calls;

static void
close_top (Reader *self,
           Calls  *calls,
           gint64  at)
{
  Open *top = &g_array_index (calls->open, Open, calls->open->len - 1);
  guint depth = calls->open->len - 1;
  StrataSpan span = { top->start, MAX (at, top->start), self->methods[top->frame], top->first_child };

  g_array_append_val (g_ptr_array_index (calls->depths, depth), span);
  g_array_set_size (calls->open, depth);
}

static void
open_call (Reader  *self,
           Calls   *calls,
           guint32  frame,
           gint64   at)
{
  guint depth = calls->open->len;
  Open call = { frame, 0, at };

  while (calls->depths->len < depth + 2)
    g_ptr_array_add (calls->depths, g_array_new (FALSE, FALSE, sizeof (StrataSpan)));
  call.first_child = ((GArray *) g_ptr_array_index (calls->depths, depth + 1))->len;
  g_array_append_val (calls->open, call);
}

/* One event; a close that is not of the innermost open frame closes
 * everything above the one it names (or nothing, when none is open). */
static void
take_event (Reader     *self,
            Calls      *calls,
            JsonObject *event,
            gint64      at)
{
  const char *type = member_string (event, "type");
  double frame_value;
  guint32 frame;
  guint depth;

  if (type == NULL || !member_number (event, "frame", &frame_value) || frame_value < 0 || frame_value >= self->n_frames)
    {
      self->n_bad_events++;
      return;
    }
  frame = (guint32) frame_value;
  if (strcmp (type, "O") == 0 && calls->open->len < MAX_STACK)
    open_call (self, calls, frame, at);
  else if (strcmp (type, "C") == 0)
    {
      for (depth = calls->open->len; depth > 0 && g_array_index (calls->open, Open, depth - 1).frame != frame; depth--)
        ;
      if (depth == 0 || depth != calls->open->len)
        self->n_bad_events++;
      while (depth > 0 && calls->open->len >= depth)
        close_top (self, calls, at);
    }
  else
    self->n_bad_events++;
}

/* The spans, cut to their depths, become the thread's table. */
static void
finish_calls (Reader *self,
              Calls  *calls,
              guint   thread)
{
  StrataThread *info = strata_trace_peek_thread (self->trace, thread);
  guint n_depths = calls->depths->len;
  g_autofree guint32 *counts = NULL;
  g_autofree StrataSpan **spans = NULL;

  while (n_depths > 0 && ((GArray *) g_ptr_array_index (calls->depths, n_depths - 1))->len == 0)
    n_depths--;
  if (n_depths == 0)
    return;
  counts = g_new (guint32, n_depths);
  spans = g_new (StrataSpan *, n_depths);
  for (guint d = 0; d < n_depths; d++)
    {
      GArray *depth = g_ptr_array_index (calls->depths, d);

      counts[d] = depth->len;
      spans[d] = (StrataSpan *) g_array_free (depth, FALSE);
      calls->depths->pdata[d] = NULL;
      strata_trace_adopt_block (self->trace, spans[d]);
    }
  info->spans = strata_span_table_new_by_depth (1, n_depths, counts, spans, NULL, NULL);
  info->first_time[0] = strata_span_table_start (info->spans, 0, 0);
  info->last_time[0] = strata_span_table_end (info->spans, 0, counts[0] - 1);
}

static void
read_evented (Reader     *self,
              JsonObject *profile,
              guint       thread,
              double      scale,
              double      origin)
{
  JsonArray *events = member_array (profile, "events");
  Calls calls = { g_ptr_array_new (), g_array_new (FALSE, FALSE, sizeof (Open)) };
  gint64 last = 0;

  for (guint i = 0; events != NULL && i < json_array_get_length (events); i++)
    {
      JsonNode *node = json_array_get_element (events, i);
      JsonObject *event = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      double at;

      if (!member_number (event, "at", &at))
        {
          self->n_bad_events++;
          continue;
        }
      /* Times hold where they would run backwards. */
      last = MAX (last, (gint64) CLAMP ((at - origin) * scale, 0, MAX_TIME));
      take_event (self, &calls, event, last);
    }
  self->n_unclosed += calls.open->len;
  while (calls.open->len > 0)
    close_top (self, &calls, last);
  finish_calls (self, &calls, thread);
  for (guint d = 0; d < calls.depths->len; d++)
    if (calls.depths->pdata[d] != NULL)
      g_array_unref (calls.depths->pdata[d]);
  g_ptr_array_unref (calls.depths);
  g_array_unref (calls.open);
}

/* ---- Sampled profiles ---- */

typedef struct
{
  Reader    *reader;
  JsonArray *samples;
  JsonArray *weights;
  double     scale;
  guint      next;
  gint64     time;
  GArray    *frames;    /* guint32 methods, innermost first */
} Samples;

static gboolean
next_sample (gpointer          data,
             StrataTimedStack *stack)
{
  Samples *self = data;

  while (self->next < json_array_get_length (self->samples))
    {
      guint i = self->next++;
      JsonNode *node = json_array_get_element (self->samples, i);
      JsonArray *frames = JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
      JsonNode *weight_node = i < json_array_get_length (self->weights) ? json_array_get_element (self->weights, i) : NULL;
      double weight = weight_node != NULL && JSON_NODE_HOLDS_VALUE (weight_node) ? json_node_get_double (weight_node) : -1;
      guint n = frames != NULL ? json_array_get_length (frames) : 0;
      gboolean ok = frames != NULL && isfinite (weight) && weight >= 0 && n <= MAX_STACK;

      g_array_set_size (self->frames, 0);
      for (guint f = n; ok && f > 0; f--)
        {
          JsonNode *index = json_array_get_element (frames, f - 1);
          gint64 frame = JSON_NODE_HOLDS_VALUE (index) ? json_node_get_int (index) : -1;

          ok = frame >= 0 && frame < self->reader->n_frames;
          if (ok)
            g_array_append_val (self->frames, self->reader->methods[frame]);
        }
      if (!ok)
        {
          self->reader->n_bad_samples++;
          continue;
        }
      *stack = (StrataTimedStack) { self->time, (const guint32 *) self->frames->data, self->frames->len, self->time, 0 };
      self->time = MIN (self->time + (gint64) (weight * self->scale), MAX_TIME);
      return TRUE;
    }
  return FALSE;
}

static void
read_sampled (Reader     *self,
              JsonObject *profile,
              guint       thread,
              double      scale)
{
  Samples samples = { self, member_array (profile, "samples"), member_array (profile, "weights"), scale, 0, 0,
                      g_array_new (FALSE, FALSE, sizeof (guint32)) };

  if (samples.samples == NULL || samples.weights == NULL)
    self->n_skipped_profiles++;
  else
    {
      /* The end is known once every sample is weighed: a first pass. */
      Samples count = samples;
      StrataTimedStack stack;
      guint64 n_bad = self->n_bad_samples;

      count.frames = g_array_new (FALSE, FALSE, sizeof (guint32));
      while (next_sample (&count, &stack))
        ;
      g_array_unref (count.frames);
      /* The second pass counts them. */
      self->n_bad_samples = n_bad;
      strata_stack_layout_timed (self->trace, thread, next_sample, &samples, count.time);
    }
  g_array_unref (samples.frames);
}

/* ---- The file ---- */

static void
read_profile (Reader     *self,
              JsonObject *profile,
              guint       index)
{
  const char *type = member_string (profile, "type");
  const char *name = member_string (profile, "name");
  double scale = self->time_axis ? ns_per_unit (member_string (profile, "unit")) : 1e6;
  double origin = 0;
  g_autofree char *label = name != NULL ? g_utf8_make_valid (name, -1)
                                        /* Translators: a profile of a speedscope file, by its number */
                                        : g_strdup_printf (_("Profile %u"), index + 1);
  guint thread = strata_trace_add_thread (self->trace, self->process, index + 1, label);

  member_number (profile, "startValue", &origin);
  if (g_strcmp0 (type, "evented") == 0)
    read_evented (self, profile, thread, scale, origin);
  else if (g_strcmp0 (type, "sampled") == 0)
    read_sampled (self, profile, thread, scale);
  else
    self->n_skipped_profiles++;
}

/* Time units on every profile put the file on the wall clock; any other
 * makes its values weights. */
static void
choose_axis (Reader    *self,
             JsonArray *profiles)
{
  StrataClockKind kind;

  self->time_axis = json_array_get_length (profiles) > 0;
  for (guint i = 0; i < json_array_get_length (profiles); i++)
    {
      JsonNode *node = json_array_get_element (profiles, i);

      if (!JSON_NODE_HOLDS_OBJECT (node) || ns_per_unit (member_string (json_node_get_object (node), "unit")) == 0)
        self->time_axis = FALSE;
    }
  kind = self->time_axis ? STRATA_CLOCK_WALL : STRATA_CLOCK_SAMPLES;
  strata_trace_set_clocks (self->trace, 1, &kind);
  strata_trace_set_calls_are_samples (self->trace, !self->time_axis);
}

static void
report (Reader *self)
{
  strata_trace_add_count_diagnostic (self->trace, self->n_bad_events,
                                     /* Translators: %s is a count of events of a speedscope profile */
                                     ngettext ("%s open or close event did not fit its profile and was left out or repaired.",
                                               "%s open or close events did not fit their profiles and were left out or repaired.",
                                               (gulong) MIN (self->n_bad_events, G_MAXULONG)));
  strata_trace_add_count_diagnostic (self->trace, self->n_unclosed,
                                     /* Translators: %s is a count of calls */
                                     ngettext ("%s frame was never closed; it ends with its profile.",
                                               "%s frames were never closed; they end with their profiles.",
                                               (gulong) MIN (self->n_unclosed, G_MAXULONG)));
  strata_trace_add_count_diagnostic (self->trace, self->n_bad_samples,
                                     /* Translators: %s is a count of samples */
                                     ngettext ("%s sample named no known frames or had no weight and was left out.",
                                               "%s samples named no known frames or had no weight and were left out.",
                                               (gulong) MIN (self->n_bad_samples, G_MAXULONG)));
  strata_trace_add_count_diagnostic (self->trace, self->n_skipped_profiles,
                                     /* Translators: %s is a count of profiles of a speedscope file */
                                     ngettext ("%s profile is of no kind Strata reads and was left out.",
                                               "%s profiles are of no kind Strata reads and were left out.",
                                               self->n_skipped_profiles));
  if (!self->time_axis)
    strata_trace_add_note (self->trace, _("The profiles' values are not times: they are shown as weights, "
                                          "one unit drawn as a millisecond."));
}

/* json-glib parses by recursion: no value deeper than a speedscope file
 * has goes to it. */
static JsonParser *
parse (const guint8  *data,
       gsize          len,
       GError       **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  const char *end;
  guint64 depth = 0;

  strata_json_skip_value_depth ((const char *) data, (const char *) data + len, &end, &depth);
  if (depth > MAX_DEPTH)
    {
      g_set_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                   /* Translators: %u is a number of levels */
                   _("The file nests values more than %u levels deep, which no speedscope file does."), MAX_DEPTH);
      return NULL;
    }
  if (!json_parser_load_from_data (parser, (const char *) data, len, error))
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    {
      g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                           _("The speedscope file is not a JSON object."));
      return NULL;
    }
  return g_steal_pointer (&parser);
}

/**
 * strata_speedscope_load:
 *
 * Reads a speedscope file: each profile a thread of one process.
 */
StrataTrace *
strata_speedscope_load (StrataLoadJob  *job,
                        GError        **error)
{
  g_autoptr(StrataTrace) trace = strata_trace_new (STRATA_FORMAT_SPEEDSCOPE);
  g_autoptr(JsonParser) parser = NULL;
  JsonObject *root;
  JsonArray *profiles;
  const char *name;
  Reader self = { .trace = trace };

  if (!strata_load_job_update (job, 0.05, _("Reading profiles…"), error) ||
      !(parser = parse (g_bytes_get_data (job->bytes, NULL), g_bytes_get_size (job->bytes), error)))
    return NULL;
  root = json_node_get_object (json_parser_get_root (parser));
  profiles = member_array (root, "profiles");
  if (profiles == NULL || json_array_get_length (profiles) == 0)
    {
      g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                           _("The speedscope file has no profiles."));
      return NULL;
    }
  name = member_string (root, "name");
  self.process = strata_trace_add_process (trace, 0, name != NULL ? name : "speedscope");
  read_frames (&self, member_array (member_object (root, "shared"), "frames"));
  choose_axis (&self, profiles);
  for (guint i = 0; i < json_array_get_length (profiles); i++)
    {
      JsonNode *node = json_array_get_element (profiles, i);

      if (JSON_NODE_HOLDS_OBJECT (node))
        read_profile (&self, json_node_get_object (node), i);
      else
        self.n_skipped_profiles++;
      if (!strata_load_job_update (job, 0.1 + 0.85 * (i + 1) / json_array_get_length (profiles), _("Reading profiles…"), error))
        {
          g_free (self.methods);
          return NULL;
        }
    }
  report (&self);
  g_free (self.methods);
  strata_trace_finish (trace);
  return g_steal_pointer (&trace);
}
