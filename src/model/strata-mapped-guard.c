/* strata-mapped-guard.c: a file that shrinks under its mapping fails the
 * load instead of killing the process
 *
 * Traces are read through a read-only mapping. When another program
 * truncates the file meanwhile (or a network share drops it), touching a
 * page past the new end raises SIGBUS, which would take the window and
 * every other window with it. Each thread that reads a mapping pushes a
 * guard first; the handler turns a SIGBUS in such a thread into a jump
 * back to the innermost guard, whose owner fails its part of the load
 * with "the file changed while it was read". A SIGBUS in a thread without
 * a guard is not ours: the previous handler (by default, the end of the
 * process) takes it.
 *
 * The jump skips the frames in between, so what they had allocated for
 * the load is not freed: a rare event, a bounded leak, no crash. Threads
 * that read the mapping in parallel (dmtrace's workers, the inflating
 * thread) each have their own guard, so no thread leaves another's state
 * behind it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <signal.h>
#include <glib/gi18n.h>

#include "strata-error.h"
#include "strata-mapped-guard.h"

static __thread StrataMappedGuard *innermost;
static struct sigaction previous;

static void
sigbus_handler (int        signal,
                siginfo_t *info,
                void      *context)
{
  StrataMappedGuard *guard = innermost;

  if (guard != NULL && info->si_code == BUS_ADRERR)
    {
      innermost = guard->outer;
      siglongjmp (guard->env, 1);
    }
  /* Not a mapped read of ours: the fault comes back under the old action. */
  sigaction (SIGBUS, &previous, NULL);
}

static void
install_handler (void)
{
  static gsize installed = 0;

  if (g_once_init_enter (&installed))
    {
      struct sigaction action = { 0 };

      action.sa_sigaction = sigbus_handler;
      action.sa_flags = SA_SIGINFO;
      sigemptyset (&action.sa_mask);
      sigaction (SIGBUS, &action, &previous);
      g_once_init_leave (&installed, 1);
    }
}

/* Use STRATA_MAPPED_GUARD_FAULTED(), which calls this and sigsetjmp(). */
void
strata_mapped_guard_push (StrataMappedGuard *guard)
{
  install_handler ();
  guard->outer = innermost;
  innermost = guard;
}

void
strata_mapped_guard_pop (StrataMappedGuard *guard)
{
  g_return_if_fail (innermost == guard);

  innermost = guard->outer;
}

void
strata_mapped_guard_set_error (GError **error)
{
  g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_TRUNCATED,
                       _("The file changed while it was read: it became shorter. Open it again once whatever writes it has finished."));
}
