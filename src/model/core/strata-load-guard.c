/* strata-load-guard.c: a file that shrinks under its mapping, or a load
 * that runs out of memory, fails the load instead of ending the process
 *
 * Traces are read through a read-only mapping. When another program
 * truncates the file meanwhile (or a network share drops it), touching a
 * page past the new end raises SIGBUS, which would take the window and
 * every other window with it. And the model's arrays grow with GLib's
 * allocator, which ends the process when memory or address space runs out
 * (a 500 MB trace under a 900 MB limit), as g_thread_new() does when no
 * thread can be made.
 *
 * Each thread that loads pushes a guard first. A SIGBUS in such a thread,
 * or GLib's fatal "failed to allocate" or "creating thread" error, becomes
 * a jump back to the innermost guard, whose owner fails its part of the
 * load with a message saying which it was. A fault in a thread without a
 * guard is not ours: the previous handler (by default, the end of the
 * process) takes it.
 *
 * The jump skips the frames in between, so what they had allocated for
 * the load is not freed: a rare event, a bounded leak, no crash. Threads
 * that load in parallel (dmtrace's workers, the inflating thread) each
 * have their own guard, so no thread leaves another's state behind it.
 * No guarded code allocates while it holds a lock.
 *
 * A mapping kept after its load (a heap dump's strings and arrays are
 * read from it while pages show them) is watched: a SIGBUS there in a
 * thread without a guard, a window's, maps zeros over the part that is
 * gone and lets the read go on. The window hears of it through a pipe
 * and says the file was cut; nothing ends.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <glib/gi18n.h>

#include "strata-error.h"
#include "strata-load-guard.h"

static __thread StrataLoadGuard *innermost;
static struct sigaction previous;

#define MAX_WATCHED 64

/* Read by the signal handler without a lock: a slot's start is set last
 * and cleared first. */
typedef struct
{
  gpointer start;
  gsize    len;
  char    *path;
  gint     changed;
} Watched;

static Watched watched[MAX_WATCHED];
static GMutex watch_lock;
static int changed_pipe[2] = { -1, -1 };

/* A page of a watched mapping past the file's new end: zeros from there
 * to the mapping's end, and a byte down the pipe. */
static gboolean
fill_watched (gconstpointer address)
{
  long page = sysconf (_SC_PAGESIZE);

  for (guint i = 0; i < MAX_WATCHED; i++)
    {
      guint8 *start = g_atomic_pointer_get (&watched[i].start);
      guintptr from, to;

      if (start == NULL || (const guint8 *) address < start || (const guint8 *) address >= start + watched[i].len)
        continue;
      from = (guintptr) address & ~(guintptr) (page - 1);
      to = ((guintptr) start + watched[i].len + page - 1) & ~(guintptr) (page - 1);
      if (mmap ((void *) from, to - from, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
        return FALSE;
      g_atomic_int_set (&watched[i].changed, 1);
      if (changed_pipe[1] >= 0 && write (changed_pipe[1], "!", 1) < 0)
        { /* full: the reader has a byte waiting already */ }
      return TRUE;
    }
  return FALSE;
}

static G_NORETURN void
jump_back (StrataLoadGuard *guard,
           StrataLoadFault  fault,
           gsize            wanted)
{
  innermost = guard->outer;
  guard->fault = fault;
  guard->wanted = wanted;
  siglongjmp (guard->env, 1);
}

static void
sigbus_handler (int        signal,
                siginfo_t *info,
                void      *context)
{
  if (innermost != NULL && info->si_code == BUS_ADRERR)
    jump_back (innermost, STRATA_LOAD_FAULT_FILE_SHRANK, 0);
  if (info->si_code == BUS_ADRERR && fill_watched (info->si_addr))
    return;
  /* Not a mapped read of ours: the fault comes back under the old action. */
  sigaction (SIGBUS, &previous, NULL);
}

/* GLib's own words for the two fatal errors a load can cause
 * (gmem.c, gthread.c). */
static gboolean
is_out_of_memory (const char *message,
                  gsize      *wanted)
{
  const char *size = strstr (message, "failed to allocate ");

  if (size != NULL)
    {
      *wanted = g_ascii_strtoull (size + strlen ("failed to allocate "), NULL, 10);
      return TRUE;
    }
  *wanted = 0;
  return strstr (message, "creating thread") != NULL;
}

static void
glib_error_handler (const char     *domain,
                    GLogLevelFlags  level,
                    const char     *message,
                    gpointer        data)
{
  gsize wanted;

  if (innermost != NULL && message != NULL && is_out_of_memory (message, &wanted))
    jump_back (innermost, STRATA_LOAD_FAULT_OUT_OF_MEMORY, wanted);
  g_log_default_handler (domain, level, message, data);
}

static void
install_handlers (void)
{
  static gsize installed = 0;

  if (g_once_init_enter (&installed))
    {
      struct sigaction action = { 0 };

      if (pipe (changed_pipe) == 0)
        for (guint end = 0; end < 2; end++)
          {
            fcntl (changed_pipe[end], F_SETFL, fcntl (changed_pipe[end], F_GETFL) | O_NONBLOCK);
            fcntl (changed_pipe[end], F_SETFD, FD_CLOEXEC);
          }
      else
        changed_pipe[0] = changed_pipe[1] = -1;
      action.sa_sigaction = sigbus_handler;
      action.sa_flags = SA_SIGINFO;
      sigemptyset (&action.sa_mask);
      sigaction (SIGBUS, &action, &previous);
      g_log_set_handler ("GLib", G_LOG_LEVEL_ERROR | G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION,
                         glib_error_handler, NULL);
      g_once_init_leave (&installed, 1);
    }
}

/**
 * strata_load_guard_out_of_memory:
 * @wanted: the bytes that could not be had
 *
 * For the model's own allocations: fails the load that holds a guard in
 * this thread, and ends the process like g_malloc() where none does.
 */
void
strata_load_guard_out_of_memory (gsize wanted)
{
  if (innermost != NULL)
    jump_back (innermost, STRATA_LOAD_FAULT_OUT_OF_MEMORY, wanted);
  g_error ("failed to allocate %" G_GSIZE_FORMAT " bytes", wanted);
}

/**
 * strata_load_guard_watch_mapping:
 * @path: the file mapped, as strata_load_guard_mapping_changed() is asked
 *
 * Watches a mapping that stays after its load, until
 * strata_load_guard_unwatch_mapping(). Past the number of slots a
 * mapping is not watched, and a cut file ends the process as before.
 */
void
strata_load_guard_watch_mapping (gconstpointer  start,
                                 gsize          len,
                                 const char    *path)
{
  install_handlers ();
  g_mutex_lock (&watch_lock);
  for (guint i = 0; i < MAX_WATCHED; i++)
    if (watched[i].start == NULL && watched[i].path == NULL)
      {
        watched[i].len = len;
        watched[i].path = g_strdup (path);
        watched[i].changed = 0;
        g_atomic_pointer_set (&watched[i].start, (gpointer) start);
        break;
      }
  g_mutex_unlock (&watch_lock);
}

void
strata_load_guard_unwatch_mapping (gconstpointer start)
{
  g_mutex_lock (&watch_lock);
  for (guint i = 0; i < MAX_WATCHED; i++)
    if (watched[i].start == start && start != NULL)
      {
        g_atomic_pointer_set (&watched[i].start, NULL);
        g_clear_pointer (&watched[i].path, g_free);
        break;
      }
  g_mutex_unlock (&watch_lock);
}

/**
 * strata_load_guard_mapping_changed:
 *
 * Returns: whether a mapping of @path was found cut after its load
 */
gboolean
strata_load_guard_mapping_changed (const char *path)
{
  gboolean changed = FALSE;

  g_mutex_lock (&watch_lock);
  for (guint i = 0; i < MAX_WATCHED && !changed; i++)
    changed = watched[i].start != NULL && g_strcmp0 (watched[i].path, path) == 0 &&
              g_atomic_int_get (&watched[i].changed);
  g_mutex_unlock (&watch_lock);
  return changed;
}

/**
 * strata_load_guard_get_changed_fd:
 *
 * Returns: a file descriptor that becomes readable when a watched
 *   mapping was cut (read what it holds, then ask
 *   strata_load_guard_mapping_changed()), or -1 without one
 */
int
strata_load_guard_get_changed_fd (void)
{
  install_handlers ();
  return changed_pipe[0];
}

/* Use STRATA_LOAD_GUARD_FAULTED(), which calls this and sigsetjmp(). */
void
strata_load_guard_push (StrataLoadGuard *guard)
{
  install_handlers ();
  guard->outer = innermost;
  guard->fault = STRATA_LOAD_FAULT_NONE;
  guard->wanted = 0;
  innermost = guard;
}

void
strata_load_guard_pop (StrataLoadGuard *guard)
{
  g_return_if_fail (innermost == guard);

  innermost = guard->outer;
}

void
strata_load_fault_set_error (StrataLoadFault   fault,
                             gsize             wanted,
                             GError          **error)
{
  g_autofree char *size = NULL;

  switch (fault)
    {
    case STRATA_LOAD_FAULT_OUT_OF_MEMORY:
      if (wanted == 0)
        {
          g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_TOO_LARGE,
                               _("There is not enough memory to load it: the system refused more."));
          return;
        }
      size = g_format_size (wanted);
      g_set_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_TOO_LARGE,
                   /* Translators: %s is a size such as “16.8 MB” */
                   _("There is not enough memory to load it: the system refused %s more."),
                   size);
      return;

    case STRATA_LOAD_FAULT_FILE_SHRANK:
    case STRATA_LOAD_FAULT_NONE:
    default:
      g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_TRUNCATED,
                           _("The file changed while it was read: it became shorter. Open it again once whatever writes it has finished."));
      return;
    }
}

void
strata_load_guard_set_error (const StrataLoadGuard  *guard,
                             GError                **error)
{
  strata_load_fault_set_error (guard->fault, guard->wanted, error);
}
