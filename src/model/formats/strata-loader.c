/* strata-loader.c: read, sniff, decompress and hand over to a format loader
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "strata-error.h"
#include "strata-file.h"
#include "strata-inflater.h"
#include "strata-format-private.h"
#include "strata-loader-private.h"
#include "strata-load-guard.h"
#include "strata-memory.h"
#include "strata-trace-private.h"

#define GUNZIP_PROGRESS_SHARE 0.3

struct _StrataLoader
{
  GObject       parent_instance;

  GFile        *file;
  GMainContext *main_context;
  gboolean      started;
  guint64       scratch_limit;
  gboolean      follow_weak;

  /* Written by the worker, read by the main thread. */
  GMutex        mutex;
  double        fraction;
  char         *message;
  guint         notify_queued : 1;
};

enum {
  PROP_0,
  PROP_FILE,
  PROP_FRACTION,
  PROP_MESSAGE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (StrataLoader, strata_loader, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
strata_loader_finalize (GObject *object)
{
  StrataLoader *self = (StrataLoader *)object;

  g_clear_object (&self->file);
  g_clear_pointer (&self->main_context, g_main_context_unref);
  g_clear_pointer (&self->message, g_free);
  g_mutex_clear (&self->mutex);

  G_OBJECT_CLASS (strata_loader_parent_class)->finalize (object);
}

static void
strata_loader_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  StrataLoader *self = STRATA_LOADER (object);

  switch (prop_id)
    {
    case PROP_FILE:
      g_value_set_object (value, self->file);
      break;

    case PROP_FRACTION:
      g_value_set_double (value, strata_loader_get_fraction (self));
      break;

    case PROP_MESSAGE:
      g_value_take_string (value, strata_loader_dup_message (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strata_loader_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  StrataLoader *self = STRATA_LOADER (object);

  switch (prop_id)
    {
    case PROP_FILE:
      self->file = g_value_dup_object (value);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strata_loader_class_init (StrataLoaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = strata_loader_finalize;
  object_class->get_property = strata_loader_get_property;
  object_class->set_property = strata_loader_set_property;

  properties[PROP_FILE] =
    g_param_spec_object ("file", NULL, NULL,
                         G_TYPE_FILE,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL,
                         0, 1, 0,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  properties[PROP_MESSAGE] =
    g_param_spec_string ("message", NULL, NULL,
                         NULL,
                         (G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
strata_loader_init (StrataLoader *self)
{
  g_mutex_init (&self->mutex);
}

StrataLoader *
strata_loader_new (GFile *file)
{
  g_return_val_if_fail (G_IS_FILE (file), NULL);

  return g_object_new (STRATA_TYPE_LOADER, "file", file, NULL);
}

/**
 * strata_loader_set_follow_weak:
 * @follow: %TRUE to let the referents of weak, soft and phantom
 *   references count as kept alive by them in a heap dump
 *
 * By default they do not, as in Eclipse MAT. Set before loading.
 */
void
strata_loader_set_follow_weak (StrataLoader *self,
                               gboolean      follow)
{
  g_return_if_fail (STRATA_IS_LOADER (self));

  self->follow_weak = !!follow;
}

/**
 * strata_loader_set_scratch_limit:
 * @limit: bytes, or 0 for the free disk space less a reserve
 *
 * Caps the inflated content a gzip method trace or heap dump may put on
 * disk; tests use it to stand for a small disk.
 */
void
strata_loader_set_scratch_limit (StrataLoader *self,
                                 guint64       limit)
{
  g_return_if_fail (STRATA_IS_LOADER (self));

  self->scratch_limit = limit;
}

/**
 * strata_loader_get_file:
 *
 * Returns: (transfer none): the file being loaded
 */
GFile *
strata_loader_get_file (StrataLoader *self)
{
  g_return_val_if_fail (STRATA_IS_LOADER (self), NULL);

  return self->file;
}

double
strata_loader_get_fraction (StrataLoader *self)
{
  double fraction;

  g_return_val_if_fail (STRATA_IS_LOADER (self), 0);

  g_mutex_lock (&self->mutex);
  fraction = self->fraction;
  g_mutex_unlock (&self->mutex);

  return fraction;
}

char *
strata_loader_dup_message (StrataLoader *self)
{
  char *message;

  g_return_val_if_fail (STRATA_IS_LOADER (self), NULL);

  g_mutex_lock (&self->mutex);
  message = g_strdup (self->message);
  g_mutex_unlock (&self->mutex);

  return message;
}

static gboolean
notify_progress_cb (gpointer data)
{
  StrataLoader *self = data;

  g_mutex_lock (&self->mutex);
  self->notify_queued = FALSE;
  g_mutex_unlock (&self->mutex);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MESSAGE]);

  return G_SOURCE_REMOVE;
}

/* Called from the worker: many updates collapse into one notification on
 * the thread that started the load, so notify never runs off that thread. */
static void
strata_loader_set_progress (StrataLoader *self,
                            double        fraction,
                            const char   *message)
{
  /* Nothing is allocated under the lock: a load that runs out of memory
   * jumps out of the allocation (strata-load-guard.c). */
  g_autofree char *copy = g_strdup (message);
  gboolean queue;

  g_mutex_lock (&self->mutex);
  self->fraction = CLAMP (fraction, 0.0, 1.0);
  if (copy != NULL && g_strcmp0 (copy, self->message) != 0)
    {
      char *old = self->message;

      self->message = g_steal_pointer (&copy);
      copy = old;
    }
  queue = self->main_context != NULL && !self->notify_queued;
  self->notify_queued |= queue;
  g_mutex_unlock (&self->mutex);

  if (queue)
    {
      g_autoptr(GSource) source = g_idle_source_new ();

      g_source_set_static_name (source, "[strata-loader-progress]");
      /* Same priority as the GTask result, so progress never arrives after it. */
      g_source_set_priority (source, G_PRIORITY_DEFAULT);
      g_source_set_callback (source, notify_progress_cb,
                             g_object_ref (self), g_object_unref);
      g_source_attach (source, self->main_context);
    }
}

/**
 * strata_load_job_update:
 * @fraction: how far the format loader is, from 0 to 1
 * @message: (nullable): what it is doing, or %NULL to keep the last one
 *
 * Returns: %FALSE with @error set when the load was cancelled
 */
gboolean
strata_load_job_update (StrataLoadJob  *job,
                        double          fraction,
                        const char     *message,
                        GError        **error)
{
  strata_loader_set_progress (job->loader,
                              job->progress_base + job->progress_span * fraction,
                              message);
  return !g_cancellable_set_error_if_cancelled (job->cancellable, error);
}

static gboolean
check_file_type (GFile         *file,
                 GCancellable  *cancellable,
                 guint64       *size,
                 GError       **error)
{
  g_autoptr(GFileInfo) info = NULL;
  GError *local_error = NULL;

  info = g_file_query_info (file,
                            G_FILE_ATTRIBUTE_STANDARD_TYPE ","
                            G_FILE_ATTRIBUTE_STANDARD_SIZE,
                            G_FILE_QUERY_INFO_NONE, cancellable, &local_error);
  if (info == NULL)
    {
      strata_file_error_from (local_error, error);
      return FALSE;
    }

  switch (g_file_info_get_file_type (info))
    {
    case G_FILE_TYPE_REGULAR:
      break;

    case G_FILE_TYPE_DIRECTORY:
      strata_file_error_from (g_error_new (G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY, "%s", ""), error);
      return FALSE;

    default:
      strata_file_set_not_regular_error (file, error);
      return FALSE;
    }

  *size = g_file_info_get_size (info);
  if (*size == 0)
    {
      g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_EMPTY,
                           _("The file is empty."));
      return FALSE;
    }

  return TRUE;
}

/* Opens without blocking (a FIFO would wait for a writer forever), then
 * maps only a regular file: this is the check for the partner files of a
 * split trace too, which are opened here and nowhere else. */
static GMappedFile *
map_regular_file (GFile       *file,
                  const char  *path,
                  GError     **error)
{
  GError *local_error = NULL;
  GMappedFile *mapped;
  struct stat info;
  int fd = strata_file_open_regular (file, path, &info, error);

  if (fd < 0)
    return NULL;
  mapped = g_mapped_file_new_from_fd (fd, FALSE, &local_error);
  close (fd);
  /* ENOMEM: no room in the address space (a limit, or a 32-bit system). */
  if (mapped == NULL && local_error->code == G_FILE_ERROR_NOMEM)
    strata_load_fault_set_error (STRATA_LOAD_FAULT_OUT_OF_MEMORY, info.st_size, error);
  else if (mapped == NULL)
    strata_file_error_from (g_error_new_literal (G_IO_ERROR, g_io_error_from_file_error (local_error->code),
                                               local_error->message), error);
  g_clear_error (&local_error);
  return mapped;
}

static void
unwatch_mapping (gpointer data)
{
  GMappedFile *mapped = data;

  strata_load_guard_unwatch_mapping (g_mapped_file_get_contents (mapped));
  g_mapped_file_unref (mapped);
}

/**
 * strata_load_file_bytes:
 * @mapped: (out): whether the bytes map the file
 *
 * The viewer never writes to a trace: a read-only private mapping, so a
 * multi-gigabyte file costs address space, not memory.
 */
GBytes *
strata_load_file_bytes (GFile         *file,
                        GCancellable  *cancellable,
                        gboolean      *mapped_out,
                        GError       **error)
{
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(GMappedFile) mapped = NULL;
  GError *local_error = NULL;
  char *contents = NULL;
  gsize len = 0;

  *mapped_out = FALSE;

  if (path == NULL)
    {
      if (!g_file_load_contents (file, cancellable, &contents, &len, NULL, &local_error))
        {
          strata_file_error_from (local_error, error);
          return NULL;
        }
      return g_bytes_new_take (contents, len);
    }

  if (!(mapped = map_regular_file (file, path, error)))
    return NULL;

  *mapped_out = g_mapped_file_get_length (mapped) > 0;
  if (!*mapped_out)
    return g_mapped_file_get_bytes (mapped);
  /* Read after the load too (a heap dump's strings): a cut file then
   * reads as zeros, and the window says so. */
  contents = g_mapped_file_get_contents (mapped);
  len = g_mapped_file_get_length (mapped);
  strata_load_guard_watch_mapping (contents, len, path);
  return g_bytes_new_with_free_func (contents, len, unwatch_mapping, g_steal_pointer (&mapped));
}

/**
 * strata_load_job_release_pages:
 *
 * Tells the kernel the mapped pages between @from and @to were read and can
 * leave memory, so a file larger than RAM streams through it.
 */
void
strata_load_job_release_pages (StrataLoadJob *job,
                               const guint8  *from,
                               const guint8  *to)
{
  strata_memory_release_span (from, to, job->bytes_are_mapped);
}

static StrataFormatLoadFunc
find_format_loader (StrataFormat format)
{
  const StrataFormatEntry *entry = strata_format_get_entry (format);

  return entry != NULL ? entry->load : NULL;
}

static StrataTrace *
run_format_loader (StrataLoadJob  *job,
                   guint64         file_size,
                   GError        **error)
{
  StrataFormatLoadFunc load = find_format_loader (job->format);
  g_autoptr(StrataTrace) trace = NULL;

  if (load == NULL)
    {
      g_set_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_UNSUPPORTED,
                   /* Translators: %s is a format name such as “Trace Event JSON” */
                   _("It is a file in the %s format, which this version of Strata cannot read yet."),
                   strata_format_get_name (job->format));
      return NULL;
    }

  if (!(trace = load (job, error)))
    return NULL;

  strata_trace_set_source (trace, job->file, file_size);
  for (guint i = 0; i < job->diagnostics->len; i++)
    strata_trace_add_diagnostic (trace, g_ptr_array_index (job->diagnostics, i));

  return g_steal_pointer (&trace);
}

static StrataTrace *
load_content_unguarded (StrataLoader  *self,
                        GBytes        *content,
                        gboolean       mapped,
                        GCancellable  *cancellable,
                        GError       **error)
{
  g_autoptr(GBytes) bytes = g_bytes_ref (content);
  g_autoptr(GPtrArray) diagnostics = g_ptr_array_new_with_free_func (g_free);
  StrataCompression compression;
  StrataLoadJob job = {
    .loader = self,
    .cancellable = cancellable,
    .file = self->file,
    .progress_span = 1,
    .diagnostics = diagnostics,
    .bytes_are_mapped = mapped,
    .scratch_limit = self->scratch_limit,
    .follow_weak = self->follow_weak,
  };
  guint64 file_size = g_bytes_get_size (content);
  const guint8 *data;
  gsize len;

  data = g_bytes_get_data (bytes, &len);
  job.format = strata_format_sniff (data, len, &compression, error);
  if (job.format == STRATA_FORMAT_UNKNOWN)
    return NULL;

  job.compression = compression;
  /* Trace Event JSON inflates as it reads, never holding it all. */
  if (compression == STRATA_COMPRESSION_GZIP && job.format != STRATA_FORMAT_TRACE_EVENT &&
      find_format_loader (job.format) != NULL)
    {
      g_autoptr(GBytes) inflated = NULL;

      job.progress_span = GUNZIP_PROGRESS_SHARE;
      if (!(inflated = strata_load_job_gunzip (&job, bytes, &job.bytes_are_mapped, error)))
        return NULL;
      g_clear_pointer (&bytes, g_bytes_unref);
      bytes = g_steal_pointer (&inflated);
      job.compression = STRATA_COMPRESSION_NONE;
      job.progress_base = GUNZIP_PROGRESS_SHARE;
      job.progress_span = 1 - GUNZIP_PROGRESS_SHARE;
    }

  job.bytes = bytes;
  return run_format_loader (&job, file_size, error);
}

/* Everything that reads the mapped file runs under a guard: a file that
 * shrinks meanwhile fails the load with a message, never with SIGBUS. */
static StrataTrace *
load_content (StrataLoader  *self,
              GBytes        *content,
              gboolean       mapped,
              GCancellable  *cancellable,
              GError       **error)
{
  StrataLoadGuard guard;
  StrataTrace *trace;

  if (STRATA_LOAD_GUARD_FAULTED (&guard))
    {
      if (error != NULL)
        g_clear_error (error);
      strata_load_guard_set_error (&guard, error);
      return NULL;
    }
  trace = load_content_unguarded (self, content, mapped, cancellable, error);
  strata_load_guard_pop (&guard);
  return trace;
}

/**
 * strata_loader_load:
 *
 * Loads the file in the calling thread; used by the worker, by tests and by
 * the command line.
 *
 * Returns: (transfer full): the trace, or %NULL with @error set
 */
StrataTrace *
strata_loader_load (StrataLoader  *self,
                    GCancellable  *cancellable,
                    GError       **error)
{
  g_autoptr(GBytes) bytes = NULL;
  guint64 file_size = 0;
  gboolean mapped = FALSE;

  g_return_val_if_fail (STRATA_IS_LOADER (self), NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);

  strata_loader_set_progress (self, 0, _("Reading the file…"));

  if (!check_file_type (self->file, cancellable, &file_size, error) ||
      !(bytes = strata_load_file_bytes (self->file, cancellable, &mapped, error)))
    return NULL;

  return load_content (self, bytes, mapped, cancellable, error);
}

/**
 * strata_loader_load_bytes:
 * @bytes: the content of the loader's file, read by the caller
 *
 * Loads content that is already in memory; the loader's file only names
 * it (and is where the other half of a split method trace is looked for).
 *
 * Returns: (transfer full): the trace, or %NULL with @error set
 */
StrataTrace *
strata_loader_load_bytes (StrataLoader  *self,
                          GBytes        *bytes,
                          GCancellable  *cancellable,
                          GError       **error)
{
  g_return_val_if_fail (STRATA_IS_LOADER (self), NULL);
  g_return_val_if_fail (bytes != NULL, NULL);

  if (g_bytes_get_size (bytes) == 0)
    {
      g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_EMPTY,
                           _("The file is empty."));
      return NULL;
    }
  return load_content (self, bytes, FALSE, cancellable, error);
}

static void
strata_loader_load_thread (GTask        *task,
                           gpointer      source_object,
                           gpointer      task_data,
                           GCancellable *cancellable)
{
  StrataLoader *self = source_object;
  GError *error = NULL;
  StrataTrace *trace;

  if ((trace = strata_loader_load (self, cancellable, &error)))
    g_task_return_pointer (task, trace, g_object_unref);
  else
    g_task_return_error (task, error);
}

void
strata_loader_load_async (StrataLoader        *self,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (STRATA_IS_LOADER (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));
  g_return_if_fail (!self->started);

  self->started = TRUE;
  self->main_context = g_main_context_ref_thread_default ();

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, strata_loader_load_async);
  g_task_set_check_cancellable (task, TRUE);
  g_task_run_in_thread (task, strata_loader_load_thread);
}

/**
 * strata_loader_load_finish:
 *
 * Returns: (transfer full): the trace, or %NULL with @error set
 */
StrataTrace *
strata_loader_load_finish (StrataLoader  *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (STRATA_IS_LOADER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
