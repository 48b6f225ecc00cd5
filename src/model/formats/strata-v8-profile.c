/* strata-v8-profile.c: V8's sampling profile, as stacks at known times
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "strata-load-guard.h"
#include "strata-memory.h"
#include "strata-trace-private.h"
#include "strata-v8-profile-private.h"
#include "strata-id-map.h"

/* Node ids below this are looked up in an array. */
#define MAX_DENSE_ID (1 << 22)
/* Microseconds kept far from the ends of gint64 once made nanoseconds,
 * and within a sample's 53 bits. */
#define MAX_MICROS ((G_GINT64_CONSTANT (1) << 52) - 1)

typedef struct
{
  const char *text;
  gsize       len;
} FrameText;

typedef struct
{
  guint32 method;
  guint8  kind;
} KnownFrame;

/* Sixteen bytes a step, in two lanes that do not wait on each other: a
 * node's frame is a hundred bytes or more, and a byte-at-a-time hash of
 * it cost more than parsing it. */
static guint
frame_text_hash (gconstpointer data)
{
  const FrameText *key = data;
  guint64 hash = key->len * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15), other = ~hash, word, next;
  gsize i = 0;

  for (; i + 16 <= key->len; i += 16)
    {
      memcpy (&word, key->text + i, sizeof word);
      memcpy (&next, key->text + i + 8, sizeof next);
      hash = (hash ^ word) * G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
      other = (other ^ next) * G_GUINT64_CONSTANT (0xc4ceb9fe1a85ec53);
      hash ^= hash >> 32;
      other ^= other >> 29;
    }
  hash ^= other * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  /* The rest as the last eight bytes, some of them hashed already. */
  if (i < key->len && key->len >= 8)
    {
      memcpy (&word, key->text + key->len - 8, sizeof word);
      hash = (hash ^ word) * G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
      i = key->len;
    }
  for (; i < key->len; i++)
    hash = (hash ^ (guint8) key->text[i]) * G_GUINT64_CONSTANT (0xc4ceb9fe1a85ec53);
  return (guint) (hash ^ (hash >> 29));
}

static gboolean
frame_text_equal (gconstpointer a,
                  gconstpointer b)
{
  const FrameText *x = a, *y = b;

  return x->len == y->len && memcmp (x->text, y->text, x->len) == 0;
}

/* A call frame as a node gives it: deep profiles have millions of nodes
 * over a few hundred frames, each named and interned once. */
typedef struct
{
  const char *function;
  const char *url;
  gint64      line;
  gint64      column;
} FrameKey;

static guint
frame_key_hash (gconstpointer data)
{
  const FrameKey *key = data;

  return g_str_hash (key->function) * 31u + g_str_hash (key->url) * 7u + (guint) key->line * 131u + (guint) key->column;
}

static gboolean
frame_key_equal (gconstpointer a,
                 gconstpointer b)
{
  const FrameKey *x = a, *y = b;

  return x->line == y->line && x->column == y->column && strcmp (x->function, y->function) == 0 && strcmp (x->url, y->url) == 0;
}

/* A key that owns its texts, in one block. */
static FrameKey *
frame_key_copy (const FrameKey *key)
{
  gsize function_len = strlen (key->function) + 1, url_len = strlen (key->url) + 1;
  FrameKey *copy = g_malloc (sizeof (FrameKey) + function_len + url_len);
  char *text = (char *) (copy + 1);

  memcpy (text, key->function, function_len);
  memcpy (text + function_len, key->url, url_len);
  *copy = (FrameKey) { text, text + function_len, key->line, key->column };
  return copy;
}

StrataV8Profile *
strata_v8_profile_new (StrataV8MethodFunc method_func,
                       gpointer           data)
{
  StrataV8Profile *self = g_new0 (StrataV8Profile, 1);

  self->method_func = method_func;
  self->data = data;
  self->nodes = g_array_new (FALSE, FALSE, sizeof (Node));
  self->index_of = g_hash_table_new_full (strata_int64_hash, g_int64_equal, g_free, NULL);
  self->dense = g_array_new (FALSE, TRUE, sizeof (guint32));
  self->first_time = G_MAXINT64;
  self->last_time = G_MININT64;
  self->samples = g_array_new (FALSE, FALSE, sizeof (Sample));
  self->end = G_MININT64;
  self->ordered = TRUE;
  self->frame_methods = g_hash_table_new_full (frame_key_hash, frame_key_equal, g_free, NULL);
  self->frame_texts = g_hash_table_new_full (frame_text_hash, frame_text_equal, g_free, NULL);
  self->frames = g_array_new (FALSE, FALSE, sizeof (KnownFrame));
  return self;
}

void
strata_v8_profile_free (StrataV8Profile *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->nodes);
  g_hash_table_unref (self->index_of);
  g_array_unref (self->dense);
  g_array_unref (self->samples);
  g_hash_table_unref (self->frame_methods);
  g_hash_table_unref (self->frame_texts);
  g_array_unref (self->frames);
  g_free (self);
}

/**
 * strata_v8_frame_label:
 *
 * Returns: (transfer full): "work (file:///app.js:12:5)", as DevTools
 *   names a frame: line and column from 1; a frame without a name is
 *   "(anonymous)"
 */
char *
strata_v8_frame_label (const char *function,
                       const char *url,
                       gint64      line,
                       gint64      column)
{
  const char *name = *function != '\0' ? function : "(anonymous)";

  if (*url == '\0')
    return g_strdup (name);
  if (line < 0)
    return g_strdup_printf ("%s (%s)", name, url);
  return g_strdup_printf ("%s (%s:%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT ")", name, url, line + 1, column + 1);
}

void
strata_v8_profile_set_start (StrataV8Profile *self,
                             gint64           start_us)
{
  self->time = CLAMP (start_us, -MAX_MICROS, MAX_MICROS);
}

void
strata_v8_profile_set_end (StrataV8Profile *self,
                           gint64           end_us)
{
  self->end = CLAMP (end_us, -MAX_MICROS, MAX_MICROS);
}

static guint32
node_index (StrataV8Profile *self,
            gint64           id)
{
  gpointer found;

  /* V8 numbers its nodes from 1: most are found in a plain array. */
  if (id >= 0 && id < MAX_DENSE_ID)
    {
      guint32 index = (guint64) id < self->dense->len ? g_array_index (self->dense, guint32, id) : 0;

      return index != 0 ? index - 1 : NO_NODE;
    }
  found = g_hash_table_lookup (self->index_of, &id);
  return found != NULL ? GPOINTER_TO_UINT (found) - 1 : NO_NODE;
}

static NodeKind
node_kind (const char *function)
{
  if (g_str_equal (function, "(idle)"))
    return NODE_IDLE;
  if (g_str_equal (function, "(program)"))
    return NODE_PROGRAM;
  if (g_str_equal (function, "(garbage collector)"))
    return NODE_GC;
  return NODE_FRAME;
}

static guint32
frame_method (StrataV8Profile *self,
              const char      *function,
              const char      *url,
              gint64           line,
              gint64           column)
{
  FrameKey key = { function, url, line, column };
  gpointer found = g_hash_table_lookup (self->frame_methods, &key);
  guint32 method;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  method = self->method_func (self->data, function, url, line, column);
  g_hash_table_insert (self->frame_methods, frame_key_copy (&key), GUINT_TO_POINTER (method + 1));
  return method;
}

/**
 * strata_v8_profile_find_frame_text:
 * @text: a call frame's text, as a node gives it
 *
 * Returns: the frame's number + 1 for #StrataV8NodeValues.known_frame,
 *   or 0 when it is new
 */
guint32
strata_v8_profile_find_frame_text (StrataV8Profile *self,
                                   const char      *text,
                                   gsize            len)
{
  FrameText key = { text, len };

  return GPOINTER_TO_UINT (g_hash_table_lookup (self->frame_texts, &key));
}

/* A frame just named, known by its text from now on. */
static void
remember_frame_text (StrataV8Profile          *self,
                     const StrataV8NodeValues *values,
                     const Node               *node)
{
  FrameText *key = g_malloc (sizeof (FrameText) + values->frame_len);
  KnownFrame frame = { node->method, node->kind };

  memcpy (key + 1, values->frame_text, values->frame_len);
  *key = (FrameText) { (const char *) (key + 1), values->frame_len };
  g_array_append_val (self->frames, frame);
  if (!g_hash_table_insert (self->frame_texts, key, GUINT_TO_POINTER (self->frames->len)))
    g_warn_if_reached ();
}

/* A node; one without an id has no frame and can be no parent. */
static void
add_node (StrataV8Profile          *self,
          const StrataV8NodeValues *values)
{
  const char *function = values->function != NULL ? values->function : "";
  Node node = { NO_NODE, NO_PARENT, NODE_FRAME };
  gint64 id = values->id;

  if (values->known_frame > 0)
    {
      const KnownFrame *known = &g_array_index (self->frames, KnownFrame, values->known_frame - 1);

      node.kind = known->kind;
      node.method = values->has_id ? known->method : NO_NODE;
    }
  else
    {
      node.kind = node_kind (function);
      if (values->has_id && node.kind != NODE_IDLE && !g_str_equal (function, "(root)"))
        node.method = frame_method (self, function, values->url != NULL ? values->url : "", values->line, values->column);
      /* Only a node with an id names its frame's method. */
      if (values->has_id && values->frame_text != NULL && strata_v8_profile_find_frame_text (self, values->frame_text, values->frame_len) == 0)
        remember_frame_text (self, values, &node);
    }
  g_array_append_val (self->nodes, node);
  if (!values->has_id)
    return;
  /* Of two nodes with one id, the first is found. Small ids, as V8
   * gives them, are looked up in an array; others in a table. */
  if (id >= 0 && id < MAX_DENSE_ID)
    {
      if ((guint64) id >= self->dense->len)
        g_array_set_size (self->dense, MAX ((guint64) id + 1, self->dense->len * 2));
      if (g_array_index (self->dense, guint32, id) == 0)
        g_array_index (self->dense, guint32, id) = self->nodes->len;
    }
  else if (!g_hash_table_contains (self->index_of, &id))
    g_hash_table_insert (self->index_of, g_memdup2 (&id, sizeof id), GUINT_TO_POINTER (self->nodes->len));
}

/* Parents from each node's "children" (a .cpuprofile) or "parent" (a
 * Trace Event ProfileChunk, whose parents came in earlier chunks). */
static void
link_parents (StrataV8Profile          *self,
              const StrataV8NodeValues *values,
              guint                     n,
              guint                     first)
{
  for (guint i = 0; i < n; i++)
    {
      guint32 parent = values[i].has_id ? node_index (self, values[i].parent) : NO_NODE;

      if (parent != NO_NODE && parent != first + i)
        g_array_index (self->nodes, Node, first + i).parent = parent;
      for (guint c = 0; values[i].has_id && c < values[i].n_children; c++)
        {
          guint32 child = node_index (self, values[i].children[c]);

          if (child != NO_NODE && child != first + i)
            g_array_index (self->nodes, Node, child).parent = first + i;
        }
    }
}

/**
 * strata_v8_profile_add_node_values:
 *
 * Adds nodes read by the caller; their parents may be among them.
 */
void
strata_v8_profile_add_node_values (StrataV8Profile          *self,
                                   const StrataV8NodeValues *values,
                                   guint                     n)
{
  guint first = self->nodes->len;

  /* Their samples are dropped as samples of unknown nodes, and said. */
  if (n > MAX_NODES - first)
    return;
  for (guint i = 0; i < n; i++)
    add_node (self, &values[i]);
  link_parents (self, values, n, first);
}

/* Room for @more samples after the @self->samples there are, which it
 * returns the number of: the caller writes them there, and sets the
 * length it reached (a call per sample cost more than the rest). */
static guint
reserve_samples (StrataV8Profile *self,
                 guint            more)
{
  guint n = self->samples->len;

  if (more > G_MAXUINT - n)
    strata_load_guard_out_of_memory (((gsize) n + more) * sizeof (Sample));
  g_array_set_size (self->samples, n + more);
  return n;
}

/* A sample of node @node, @delta µs after the one before, after the @n
 * samples at @samples (room for it reserved). A sample of the node of
 * the sample before it, later than it, only makes that one last longer:
 * it is counted, not kept. */
static inline void
add_sample (StrataV8Profile *self,
            Sample          *samples,
            guint           *n,
            guint32          node,
            gint64           delta)
{
  Sample *last = *n > 0 ? &samples[*n - 1] : NULL;

  self->time = CLAMP (self->time + CLAMP (delta, -MAX_MICROS, MAX_MICROS), -MAX_MICROS, MAX_MICROS);
  if (node == NO_NODE)
    {
      self->n_unknown_samples++;
      return;
    }
  self->n_read++;
  /* Only a run at the end of time so far may grow: a sample put back in
   * order may fall inside an earlier one. */
  if (last != NULL && sample_node (last) == node && sample_run_end (last) == self->last_time &&
      self->time >= self->last_time && sample_run_fits (last, 1, self->time))
    {
      sample_run_grow (last, 1, self->time);
      self->last_time = self->time;
      return;
    }
  self->first_time = MIN (self->first_time, self->time);
  self->last_time = MAX (self->last_time, self->time);
  if (last != NULL && self->time < sample_time (last))
    {
      self->ordered = FALSE;
      self->n_reordered++;
    }
  samples[(*n)++] = sample_new (self->time, node);
}

/**
 * strata_v8_profile_add_sample_values:
 * @ids: each sample's node id; G_MININT64 for one that is not a number
 * @deltas: the microseconds from the sample before to each
 *
 * Each sample's node and time, from the time of the one before.
 */
void
strata_v8_profile_add_sample_values (StrataV8Profile *self,
                                     const gint64    *ids,
                                     guint            n_ids,
                                     const gint64    *deltas,
                                     guint            n_deltas)
{
  guint n = reserve_samples (self, n_ids);
  Sample *samples = (Sample *) self->samples->data;

  for (guint i = 0; i < n_ids; i++)
    add_sample (self, samples, &n, node_index (self, ids[i]), i < n_deltas ? deltas[i] : 0);
  g_array_set_size (self->samples, n);
}

/* Groups of strata_v8_group_samples(): their sums far from the clamps. */
#define MAX_GROUP_TIME (G_GINT64_CONSTANT (1) << 51)

/* The @n_rest samples of @node after a group's first, @sum µs in all,
 * as growing the run they follow, if they can: TRUE if added. */
static inline gboolean
add_group_rest (StrataV8Profile *self,
                Sample          *last,
                guint32          node,
                guint            n_rest,
                gint64           sum)
{
  if (ABS (self->time) >= MAX_GROUP_TIME)
    return FALSE;
  if (node == NO_NODE)
    {
      self->time += sum;
      self->n_unknown_samples += n_rest;
      return TRUE;
    }
  if (last == NULL || sample_node (last) != node || sample_run_end (last) != self->last_time ||
      self->last_time != self->time || !sample_run_fits (last, n_rest, self->time + sum))
    return FALSE;
  self->time += sum;
  self->last_time = self->time;
  sample_run_grow (last, n_rest, self->time);
  self->n_read += n_rest;
  return TRUE;
}

/**
 * strata_v8_profile_add_sample_groups:
 * @groups: from strata_v8_group_samples() over @ids and @deltas
 *
 * As strata_v8_profile_add_sample_values(), a group at a time: its
 * first sample as that adds it, the rest, which only make it last
 * longer, at once. A group that cannot be added whole (its first sample
 * came back in time, or times run near the ends of the clock) is added a
 * sample at a time.
 */
void
strata_v8_profile_add_sample_groups (StrataV8Profile           *self,
                                     const StrataV8SampleGroup *groups,
                                     guint                      n_groups,
                                     const gint64              *ids,
                                     guint                      n_ids,
                                     StrataV8Deltas            *deltas)
{
  guint n = reserve_samples (self, n_groups);
  Sample *samples = (Sample *) self->samples->data;
  guint first = 0;

  for (guint g = 0; g < n_groups; g++)
    {
      const StrataV8SampleGroup *group = &groups[g];
      guint n_samples = group->n_samples & ~STRATA_V8_GROUP_BY_SAMPLES;
      guint at = first;

      first += n_samples;
      /* The group holds its first sample: the scanner's arrays, read
       * on another core, are touched only to add a group by samples. */
      if (!(group->n_samples & STRATA_V8_GROUP_BY_SAMPLES))
        {
          guint32 node = node_index (self, group->id);

          add_sample (self, samples, &n, node, group->delta);
          if (n_samples == 1 || add_group_rest (self, n > 0 ? &samples[n - 1] : NULL, node, n_samples - 1, group->sum))
            continue;
          at++;
          n_samples--;
        }
      if (at >= n_ids)
        continue;
      if (deltas->values == NULL && deltas->read != NULL)
        deltas->values = deltas->read (deltas->data, &deltas->n);
      if (deltas->values == NULL)
        deltas->n = 0;
      g_array_set_size (self->samples, n);
      strata_v8_profile_add_sample_values (self, &ids[at], MIN (n_samples, n_ids - at),
                                           deltas->n > at ? deltas->values + at : NULL, deltas->n > at ? deltas->n - at : 0);
      n = reserve_samples (self, n_groups - g - 1);
      samples = (Sample *) self->samples->data;
    }
  g_array_set_size (self->samples, n);
}

/**
 * strata_v8_profile_get_n_samples:
 *
 * Returns: how many samples were read (of nodes the profile has)
 */
guint64
strata_v8_profile_get_n_samples (StrataV8Profile *self)
{
  return self->n_read;
}


static int
compare_samples (gconstpointer a,
                 gconstpointer b,
                 gpointer      data)
{
  const Sample *sa = a, *sb = b;

  return sample_time (sa) < sample_time (sb) ? -1 : sample_time (sa) > sample_time (sb);
}

/* Samples whose deltas went back are few and fall a little back: each
 * is moved back to its place; many are sorted whole. Both keep samples
 * of one time in the order read. */
static void
put_in_order (StrataV8Profile *self)
{
  Sample *samples = (Sample *) self->samples->data;
  guint n = self->samples->len;

  if (self->n_reordered > n / 64)
    {
      g_qsort_with_data (samples, n, sizeof (Sample), compare_samples, NULL);
      return;
    }
  for (guint i = 1; i < n; i++)
    {
      Sample moved = samples[i];
      guint j = i;

      while (j > 0 && sample_time (&samples[j - 1]) > sample_time (&moved))
        {
          samples[j] = samples[j - 1];
          j--;
        }
      samples[j] = moved;
    }
}

/* Once the samples are walked, nodes are only found by their index:
 * the lookups reading needed go (a deep profile's ids take megabytes). */
static void
drop_lookups (StrataV8Profile *self)
{
  g_array_unref (self->dense);
  self->dense = g_array_new (FALSE, TRUE, sizeof (guint32));
  g_hash_table_unref (self->index_of);
  self->index_of = g_hash_table_new_full (strata_int64_hash, g_int64_equal, g_free, NULL);
  g_hash_table_unref (self->frame_texts);
  self->frame_texts = g_hash_table_new_full (frame_text_hash, frame_text_equal, g_free, NULL);
  g_array_set_size (self->frames, 0);
}



/* Returns: the index of the first sample taken at @time or later, of
 * samples in order */
guint
strata_v8_profile_first_sample_at (StrataV8Profile *self,
                                   gint64           time)
{
  const Sample *samples = (const Sample *) self->samples->data;
  guint low = 0, high = self->samples->len;

  g_return_val_if_fail (self->ordered, 0);
  while (low < high)
    {
      guint mid = low + (high - low) / 2;

      if (sample_time (&samples[mid]) * 1000 < time)
        low = mid + 1;
      else
        high = mid;
    }
  return low;
}

/* Returns: when the sample at @index in time order was taken, in ns */
gint64
strata_v8_profile_sample_time (StrataV8Profile *self,
                               guint            index)
{
  g_return_val_if_fail (index < self->samples->len, 0);
  return sample_time (&g_array_index (self->samples, Sample, index)) * 1000;
}






/**
 * strata_v8_profile_drop_samples:
 *
 * Lets the samples go once they are laid out; the counts and repairs
 * stay.
 */
void
strata_v8_profile_drop_samples (StrataV8Profile *self)
{
  g_array_unref (self->samples);
  self->samples = g_array_new (FALSE, FALSE, sizeof (Sample));
}

void
strata_v8_profile_add_repairs (StrataV8Profile *self,
                               StrataV8Repairs *repairs)
{
  repairs->n_unknown_samples += self->n_unknown_samples;
  repairs->n_reordered += self->n_reordered;
  repairs->n_cut_stacks += self->n_cut_stacks;
}

/* What had to be repaired, as the trace's diagnostics. */
void
strata_v8_repairs_report (const StrataV8Repairs *repairs,
                          StrataTrace           *trace)
{
  strata_trace_add_count_diagnostic (trace, repairs->n_unknown_samples,
                                     /* Translators: %s is a count */
                                     g_dngettext (GETTEXT_PACKAGE, "%s sample named a node the profile does not have and was dropped.",
                                                  "%s samples named a node the profile does not have and were dropped.",
                                                  repairs->n_unknown_samples));
  strata_trace_add_count_diagnostic (trace, repairs->n_reordered,
                                     /* Translators: %s is a count */
                                     g_dngettext (GETTEXT_PACKAGE, "%s sample came before the one recorded ahead of it and was put in time order, as DevTools does.",
                                                  "%s samples came before the ones recorded ahead of them and were put in time order, as DevTools does.",
                                                  repairs->n_reordered));
  strata_trace_add_count_diagnostic (trace, repairs->n_cut_stacks,
                                     /* Translators: %s is a count */
                                     g_dngettext (GETTEXT_PACKAGE, "%s stack deeper than 65,536 frames (or looping) was cut.",
                                                  "%s stacks deeper than 65,536 frames (or looping) were cut.", repairs->n_cut_stacks));
}

/**
 * strata_v8_profile_begin_walk:
 *
 * Readies @self for its samples to be walked (strata_v8_stacks_init()):
 * in time order, and without the lookups only reading needed.
 */
void
strata_v8_profile_begin_walk (StrataV8Profile *self)
{
  if (!self->ordered)
    put_in_order (self);
  self->ordered = TRUE;
  drop_lookups (self);
}
