/* strata-event-table.c: a Trace Event file's events as one list
 *
 * What Perfetto's slice table and Firefox Profiler's marker table show:
 * every event the file holds (slices, instants, async and object events)
 * in one list sortable by start, duration, name, category and thread,
 * cut to a time range and filtered by text. Calls laid out from
 * JavaScript samples are not events of the file and stay out, as do the
 * events that carried the samples.
 *
 * A file can hold millions of events, so the list is an order over one
 * compact array of references (12 bytes an event), sorted by radix on
 * 64-bit keys; its rows are made only when a view asks for them. Args
 * are read back from the file for the rows on show, many in one pass.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "strata-description.h"
#include "strata-event-args.h"
#include "strata-event-table-row.h"
#include "strata-event-table.h"
#include "strata-radix-sort.h"

/* Args kept in memory at most; the rows on show are a few dozen. */
#define MAX_CACHED_ARGS 20000

struct _StrataEventTable
{
  GObject               parent_instance;

  StrataTrace          *trace;
  GArray               *entries;    /* StrataEventTableEntry, by start */
  guint32              *order;      /* the list: entries in range and filter, sorted */
  guint                 n_shown;
  gboolean              has_range;
  gint64                range_start;
  gint64                range_end;
  char                 *filter;     /* casefolded; NULL for none */
  GHashTable           *filter_hits;  /* string id → 1 no, 2 yes */
  gboolean             *thread_hits;  /* per label */
  char                **labels;     /* threads, then processes */
  StrataEventTableSort  sort;
  gboolean              descending;

  GHashTable           *args;       /* source (guint64 *) → its args on a line */
  GArray               *wanted;     /* guint64 sources asked for, not read yet */
  GHashTable           *wanted_set;
  GCancellable         *reading;
  guint                 read_idle;
};

static void strata_event_table_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrataEventTable, strata_event_table, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, strata_event_table_model_init))

enum
{
  ARGS_READ,
  N_SIGNALS,
};

static guint signals[N_SIGNALS];

static GType
get_item_type (GListModel *model)
{
  return STRATA_TYPE_EVENT_TABLE_ROW;
}

static guint
get_n_items (GListModel *model)
{
  return STRATA_EVENT_TABLE (model)->n_shown;
}

static gpointer
get_item (GListModel *model,
          guint       position)
{
  StrataEventTable *self = STRATA_EVENT_TABLE (model);

  if (position >= self->n_shown)
    return NULL;
  return strata_event_table_row_new (strata_event_table_get (self, position));
}

static void
strata_event_table_model_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

static void
strata_event_table_dispose (GObject *object)
{
  StrataEventTable *self = STRATA_EVENT_TABLE (object);

  g_cancellable_cancel (self->reading);
  g_clear_object (&self->reading);
  g_clear_handle_id (&self->read_idle, g_source_remove);
  G_OBJECT_CLASS (strata_event_table_parent_class)->dispose (object);
}

static void
strata_event_table_finalize (GObject *object)
{
  StrataEventTable *self = STRATA_EVENT_TABLE (object);

  g_clear_pointer (&self->entries, g_array_unref);
  g_free (self->order);
  g_free (self->filter);
  g_clear_pointer (&self->filter_hits, g_hash_table_unref);
  g_free (self->thread_hits);
  g_strfreev (self->labels);
  g_clear_pointer (&self->args, g_hash_table_unref);
  g_clear_pointer (&self->wanted, g_array_unref);
  g_clear_pointer (&self->wanted_set, g_hash_table_unref);
  g_clear_object (&self->trace);
  G_OBJECT_CLASS (strata_event_table_parent_class)->finalize (object);
}

static void
strata_event_table_class_init (StrataEventTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = strata_event_table_dispose;
  object_class->finalize = strata_event_table_finalize;

  /**
   * StrataEventTable::args-read:
   *
   * Args asked for by strata_event_table_entry_args() came in: cells
   * showing them ask again.
   */
  signals[ARGS_READ] =
    g_signal_new ("args-read", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
strata_event_table_init (StrataEventTable *self)
{
  self->args = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  self->wanted = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->wanted_set = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
}

/* ---- An entry's figures ---- */

static const StrataSpanTable *
entry_table (StrataEventTable            *self,
             const StrataEventTableEntry *entry)
{
  return strata_trace_get_thread (self->trace, entry->thread)->spans;
}

gint64
strata_event_table_entry_start (StrataEventTable            *self,
                                const StrataEventTableEntry *entry)
{
  if (entry->thread == STRATA_NO_THREAD)
    return strata_trace_get_event (self->trace, entry->index)->start;
  return strata_span_table_start (entry_table (self, entry), entry->depth, entry->index);
}

gint64
strata_event_table_entry_duration (StrataEventTable            *self,
                                   const StrataEventTableEntry *entry)
{
  if (entry->thread == STRATA_NO_THREAD)
    {
      const StrataEvent *event = strata_trace_get_event (self->trace, entry->index);

      return event->end - event->start;
    }
  return strata_span_table_duration (entry_table (self, entry), entry->depth, entry->index);
}

static guint32
entry_name_id (StrataEventTable            *self,
               const StrataEventTableEntry *entry)
{
  if (entry->thread == STRATA_NO_THREAD)
    return strata_trace_get_event (self->trace, entry->index)->name;
  return strata_trace_get_shown_method (self->trace, entry_table (self, entry)->calls[entry->depth][entry->index].method)->display_name;
}

static guint32
entry_category_id (StrataEventTable            *self,
                   const StrataEventTableEntry *entry)
{
  if (entry->thread == STRATA_NO_THREAD)
    return strata_trace_get_event (self->trace, entry->index)->category;
  return strata_trace_get_method (self->trace, entry_table (self, entry)->calls[entry->depth][entry->index].method)->class_name;
}

/* Which of the labels: the thread's, or the process's for an event on
 * no thread. */
static guint
entry_label (StrataEventTable            *self,
             const StrataEventTableEntry *entry)
{
  const StrataEvent *event;

  if (entry->thread != STRATA_NO_THREAD)
    return entry->thread;
  event = strata_trace_get_event (self->trace, entry->index);
  if (event->thread != STRATA_NO_THREAD)
    return event->thread;
  return strata_trace_get_n_threads (self->trace) + event->process;
}

static guint64
entry_source (StrataEventTable            *self,
              const StrataEventTableEntry *entry)
{
  if (entry->thread == STRATA_NO_THREAD)
    return strata_trace_get_event (self->trace, entry->index)->source;
  return strata_span_table_get_source (entry_table (self, entry), entry->depth, entry->index);
}

const char *
strata_event_table_entry_name (StrataEventTable            *self,
                               const StrataEventTableEntry *entry)
{
  return strata_trace_get_string (self->trace, entry_name_id (self, entry));
}

const char *
strata_event_table_entry_category (StrataEventTable            *self,
                                   const StrataEventTableEntry *entry)
{
  return strata_trace_get_string (self->trace, entry_category_id (self, entry));
}

const char *
strata_event_table_entry_thread (StrataEventTable            *self,
                                 const StrataEventTableEntry *entry)
{
  return self->labels[entry_label (self, entry)];
}

/* ---- Building ---- */

static void
add_calls_of (StrataEventTable *self,
              guint32           thread)
{
  const StrataSpanTable *table = strata_trace_get_thread (self->trace, thread)->spans;

  for (guint32 d = 0; table != NULL && d < table->n_depths; d++)
    {
      /* Only the calls that came from an event of the file: the others
       * were laid out from samples. */
      if (table->sparse_sources != NULL)
        for (guint32 i = 0; i < table->sparse_sources[d].n; i++)
          g_array_append_val (self->entries, ((StrataEventTableEntry) { thread, d, table->sparse_sources[d].index[i] }));
      else
        for (guint32 i = 0; i < table->n_spans[d]; i++)
          if (table->sources == NULL || table->sources[d][i] != STRATA_NO_SOURCE)
            g_array_append_val (self->entries, ((StrataEventTableEntry) { thread, d, i }));
    }
}

/* A signed time as a key that sorts as unsigned. */
static inline guint64
time_key (gint64 time)
{
  return (guint64) time ^ ((guint64) 1 << 63);
}

static void
order_entries_by_start (StrataEventTable *self)
{
  guint n = self->entries->len;
  g_autofree guint64 *keys = g_new (guint64, MAX (n, 1));
  g_autofree guint32 *places = g_new (guint32, MAX (n, 1));
  GArray *sorted = g_array_sized_new (FALSE, FALSE, sizeof (StrataEventTableEntry), n);

  for (guint i = 0; i < n; i++)
    {
      keys[i] = time_key (strata_event_table_entry_start (self, &g_array_index (self->entries, StrataEventTableEntry, i)));
      places[i] = i;
    }
  strata_radix_sort_pairs (keys, places, n);
  for (guint i = 0; i < n; i++)
    g_array_append_val (sorted, g_array_index (self->entries, StrataEventTableEntry, places[i]));
  g_array_unref (self->entries);
  self->entries = sorted;
}

static void
make_labels (StrataEventTable *self)
{
  guint n_threads = strata_trace_get_n_threads (self->trace);
  guint n_processes = strata_trace_get_n_processes (self->trace);

  self->labels = g_new0 (char *, n_threads + n_processes + 1);
  for (guint t = 0; t < n_threads; t++)
    self->labels[t] = strata_describe_thread_short (self->trace, t);
  for (guint p = 0; p < n_processes; p++)
    self->labels[n_threads + p] = strata_describe_process_short (self->trace, p);
}

static void refilter (StrataEventTable *self);

/* V8's Profile and ProfileChunk events hold JavaScript samples, which
 * are listed as the calls they became, not as events. */
static gboolean
carries_samples (StrataTrace       *trace,
                 const StrataEvent *event)
{
  const char *name;

  if (event->phase != 'P')
    return FALSE;
  name = strata_trace_get_string (trace, event->name);
  return strcmp (name, "Profile") == 0 || strcmp (name, "ProfileChunk") == 0;
}

/**
 * strata_event_table_new:
 *
 * Returns: (transfer full): every event of @trace, by start
 */
StrataEventTable *
strata_event_table_new (StrataTrace *trace)
{
  StrataEventTable *self = g_object_new (STRATA_TYPE_EVENT_TABLE, NULL);
  guint n_events = strata_trace_get_n_events (trace);

  self->trace = g_object_ref (trace);
  self->entries = g_array_new (FALSE, FALSE, sizeof (StrataEventTableEntry));
  for (guint t = 0; t < strata_trace_get_n_threads (trace); t++)
    add_calls_of (self, t);
  for (guint e = 0; e < n_events; e++)
    if (!carries_samples (trace, strata_trace_get_event (trace, e)))
      g_array_append_val (self->entries, ((StrataEventTableEntry) { STRATA_NO_THREAD, 0, e }));
  order_entries_by_start (self);
  make_labels (self);
  self->order = g_new (guint32, MAX (self->entries->len, 1));
  refilter (self);
  return self;
}

StrataTrace *
strata_event_table_get_trace (StrataEventTable *self)
{
  return self->trace;
}

/* How many events the file holds, whatever the range and filter. */
guint
strata_event_table_get_n_all (StrataEventTable *self)
{
  return self->entries->len;
}

/* The event at @position of the list (in its range, filter and order). */
const StrataEventTableEntry *
strata_event_table_get (StrataEventTable *self,
                        guint             position)
{
  g_return_val_if_fail (position < self->n_shown, NULL);

  return &g_array_index (self->entries, StrataEventTableEntry, self->order[position]);
}

/* ---- Range, filter and order ---- */

static gboolean
text_matches (StrataEventTable *self,
              const char       *text)
{
  g_autofree char *folded = g_utf8_casefold (text, -1);

  return strstr (folded, self->filter) != NULL;
}

static gboolean
string_matches (StrataEventTable *self,
                guint32           id)
{
  gpointer hit = g_hash_table_lookup (self->filter_hits, GUINT_TO_POINTER (id));

  if (hit == NULL)
    {
      hit = GUINT_TO_POINTER (text_matches (self, strata_trace_get_string (self->trace, id)) ? 2 : 1);
      g_hash_table_insert (self->filter_hits, GUINT_TO_POINTER (id), hit);
    }
  return GPOINTER_TO_UINT (hit) == 2;
}

static gboolean
entry_matches (StrataEventTable            *self,
               const StrataEventTableEntry *entry)
{
  if (self->has_range)
    {
      gint64 start = strata_event_table_entry_start (self, entry);
      gint64 end = start + strata_event_table_entry_duration (self, entry);

      if (end < self->range_start || start > self->range_end)
        return FALSE;
    }
  if (self->filter == NULL)
    return TRUE;
  return self->thread_hits[entry_label (self, entry)] || string_matches (self, entry_name_id (self, entry)) ||
         string_matches (self, entry_category_id (self, entry));
}

typedef struct
{
  const char *text;
  guint       place;
} Labelled;

static int
compare_labelled (const void *a,
                  const void *b)
{
  return g_utf8_collate (((const Labelled *) a)->text, ((const Labelled *) b)->text);
}

/* Each string's rank among those of one column on show. */
static GHashTable *
rank_strings (StrataEventTable *self,
              guint32 (*id_of) (StrataEventTable *, const StrataEventTableEntry *))
{
  GHashTable *ranks = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) by_text = g_array_new (FALSE, FALSE, sizeof (Labelled));

  for (guint i = 0; i < self->n_shown; i++)
    {
      guint32 id = id_of (self, strata_event_table_get (self, i));

      if (g_hash_table_insert (ranks, GUINT_TO_POINTER (id), NULL))
        g_array_append_val (by_text, ((Labelled) { strata_trace_get_string (self->trace, id), id }));
    }
  if (by_text->len > 1)
    qsort (by_text->data, by_text->len, sizeof (Labelled), compare_labelled);
  for (guint r = 0; r < by_text->len; r++)
    g_hash_table_insert (ranks, GUINT_TO_POINTER (g_array_index (by_text, Labelled, r).place), GUINT_TO_POINTER (r));
  return ranks;
}

static guint64
sort_key (StrataEventTable            *self,
          const StrataEventTableEntry *entry,
          GHashTable                  *ranks,
          const guint                 *label_ranks)
{
  switch (self->sort)
    {
    case STRATA_EVENT_TABLE_BY_DURATION:
      return time_key (strata_event_table_entry_duration (self, entry));
    case STRATA_EVENT_TABLE_BY_NAME:
      return GPOINTER_TO_UINT (g_hash_table_lookup (ranks, GUINT_TO_POINTER (entry_name_id (self, entry))));
    case STRATA_EVENT_TABLE_BY_CATEGORY:
      return GPOINTER_TO_UINT (g_hash_table_lookup (ranks, GUINT_TO_POINTER (entry_category_id (self, entry))));
    case STRATA_EVENT_TABLE_BY_THREAD:
      return label_ranks[entry_label (self, entry)];
    case STRATA_EVENT_TABLE_BY_START:
    default:
      return time_key (strata_event_table_entry_start (self, entry));
    }
}

/* Each label's rank among the labels. */
static guint *
rank_labels (StrataEventTable *self)
{
  guint n = g_strv_length (self->labels);
  g_autofree Labelled *by_text = g_new (Labelled, MAX (n, 1));
  guint *ranks = g_new (guint, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    by_text[i] = (Labelled) { self->labels[i], i };
  qsort (by_text, n, sizeof (Labelled), compare_labelled);
  for (guint r = 0; r < n; r++)
    ranks[by_text[r].place] = r;
  return ranks;
}

/* Orders the list by the sort key, equal keys by start (the entries'
 * own order, which the list starts from). */
static void
apply_sort (StrataEventTable *self)
{
  g_autoptr(GHashTable) ranks = NULL;
  g_autofree guint *label_ranks = NULL;
  g_autofree guint64 *keys = NULL;

  if (self->sort == STRATA_EVENT_TABLE_BY_NAME)
    ranks = rank_strings (self, entry_name_id);
  else if (self->sort == STRATA_EVENT_TABLE_BY_CATEGORY)
    ranks = rank_strings (self, entry_category_id);
  else if (self->sort == STRATA_EVENT_TABLE_BY_THREAD)
    label_ranks = rank_labels (self);
  if (self->sort == STRATA_EVENT_TABLE_BY_START && !self->descending)
    return;
  keys = g_new (guint64, MAX (self->n_shown, 1));
  for (guint i = 0; i < self->n_shown; i++)
    {
      guint64 key = sort_key (self, strata_event_table_get (self, i), ranks, label_ranks);

      keys[i] = self->descending ? ~key : key;
    }
  strata_radix_sort_pairs (keys, self->order, self->n_shown);
}

/* The list anew from the entries: in range, matching, sorted. */
static void
refilter (StrataEventTable *self)
{
  guint old_n = self->n_shown;

  self->n_shown = 0;
  for (guint i = 0; i < self->entries->len; i++)
    if (entry_matches (self, &g_array_index (self->entries, StrataEventTableEntry, i)))
      self->order[self->n_shown++] = i;
  apply_sort (self);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, old_n, self->n_shown);
}

/* Keeps the events that overlap @start to @end (instants at either end
 * too). */
void
strata_event_table_set_range (StrataEventTable *self,
                              gint64            start,
                              gint64            end)
{
  g_return_if_fail (STRATA_IS_EVENT_TABLE (self));

  if (self->has_range && self->range_start == start && self->range_end == end)
    return;
  self->has_range = TRUE;
  self->range_start = start;
  self->range_end = end;
  refilter (self);
}

void
strata_event_table_clear_range (StrataEventTable *self)
{
  g_return_if_fail (STRATA_IS_EVENT_TABLE (self));

  if (!self->has_range)
    return;
  self->has_range = FALSE;
  refilter (self);
}

/**
 * strata_event_table_set_filter:
 * @text: (nullable): kept are the events whose name, category or thread
 *   holds it, whatever the case; %NULL or "" keeps all
 */
void
strata_event_table_set_filter (StrataEventTable *self,
                               const char       *text)
{
  guint n_labels;

  g_return_if_fail (STRATA_IS_EVENT_TABLE (self));

  g_clear_pointer (&self->filter, g_free);
  g_clear_pointer (&self->filter_hits, g_hash_table_unref);
  g_clear_pointer (&self->thread_hits, g_free);
  if (text != NULL && *text != '\0')
    {
      self->filter = g_utf8_casefold (text, -1);
      self->filter_hits = g_hash_table_new (NULL, NULL);
      n_labels = g_strv_length (self->labels);
      self->thread_hits = g_new (gboolean, MAX (n_labels, 1));
      for (guint i = 0; i < n_labels; i++)
        self->thread_hits[i] = text_matches (self, self->labels[i]);
    }
  refilter (self);
}

void
strata_event_table_sort (StrataEventTable     *self,
                         StrataEventTableSort  sort,
                         gboolean              descending)
{
  g_return_if_fail (STRATA_IS_EVENT_TABLE (self));

  if (self->sort == sort && self->descending == descending)
    return;
  self->sort = sort;
  self->descending = descending;
  refilter (self);
}

/* Returns: the position of @entry in the list, or
 *   GTK_INVALID_LIST_POSITION's value (G_MAXUINT) when it is not shown */
guint
strata_event_table_find (StrataEventTable            *self,
                         const StrataEventTableEntry *entry)
{
  g_return_val_if_fail (STRATA_IS_EVENT_TABLE (self), G_MAXUINT);

  for (guint i = 0; i < self->n_shown; i++)
    if (memcmp (strata_event_table_get (self, i), entry, sizeof *entry) == 0)
      return i;
  return G_MAXUINT;
}

/* ---- Args, read back for the rows on show ---- */

typedef struct
{
  StrataTrace *trace;
  guint64 *sources;
  guint    n;
} ReadArgs;

static void
read_args_free (gpointer data)
{
  ReadArgs *read = data;

  g_object_unref (read->trace);
  g_free (read->sources);
  g_free (read);
}

static void
read_args_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  ReadArgs *read = task_data;
  GError *error = NULL;
  char **lines = strata_event_args_summarize (read->trace, read->sources, read->n, cancellable, &error);

  if (lines == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, lines, (GDestroyNotify) g_strfreev);
}

static void start_reading (StrataEventTable *self);

static void
args_read_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      data)
{
  StrataEventTable *self = STRATA_EVENT_TABLE (object);
  ReadArgs *read = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = g_task_propagate_pointer (G_TASK (result), &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_clear_object (&self->reading);
  if (g_hash_table_size (self->args) > MAX_CACHED_ARGS)
    g_hash_table_remove_all (self->args);
  /* A file that cannot be read again shows why in each cell. */
  for (guint i = 0; i < read->n; i++)
    g_hash_table_insert (self->args, g_memdup2 (&read->sources[i], sizeof (guint64)),
                         g_strdup (lines != NULL ? lines[i] : error->message));
  g_signal_emit (self, signals[ARGS_READ], 0);
  if (self->wanted->len > 0)
    start_reading (self);
}

static int
compare_sources (gconstpointer a,
                 gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

static void
start_reading (StrataEventTable *self)
{
  g_autoptr(GTask) task = NULL;
  ReadArgs *read = g_new0 (ReadArgs, 1);

  self->reading = g_cancellable_new ();
  task = g_task_new (self, self->reading, args_read_cb, NULL);
  read->trace = g_object_ref (self->trace);
  read->n = self->wanted->len;
  read->sources = (guint64 *) g_array_steal (self->wanted, NULL);
  qsort (read->sources, read->n, sizeof (guint64), compare_sources);
  g_hash_table_remove_all (self->wanted_set);
  g_task_set_task_data (task, read, read_args_free);
  g_task_run_in_thread (task, read_args_thread);
}

static gboolean
read_wanted_cb (gpointer data)
{
  StrataEventTable *self = data;

  self->read_idle = 0;
  if (self->reading == NULL && self->wanted->len > 0)
    start_reading (self);
  return G_SOURCE_REMOVE;
}

/**
 * strata_event_table_entry_args:
 *
 * Returns: (nullable): the event's args on one line ("" for none); %NULL
 *   while they are being read, after which StrataEventTable::args-read
 *   is emitted
 */
const char *
strata_event_table_entry_args (StrataEventTable            *self,
                               const StrataEventTableEntry *entry)
{
  guint64 source = entry_source (self, entry);
  const char *line;

  if (source == STRATA_NO_SOURCE || strata_trace_get_file (self->trace) == NULL)
    return "";
  if ((line = g_hash_table_lookup (self->args, &source)) != NULL)
    return line;
  if (g_hash_table_add (self->wanted_set, g_memdup2 (&source, sizeof source)))
    g_array_append_val (self->wanted, source);
  if (self->read_idle == 0)
    self->read_idle = g_idle_add (read_wanted_cb, self);
  return NULL;
}
