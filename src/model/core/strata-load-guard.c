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
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <signal.h>
#include <string.h>
#include <glib/gi18n.h>

#include "strata-error.h"
#include "strata-load-guard.h"

static __thread StrataLoadGuard *innermost;
static struct sigaction previous;

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
