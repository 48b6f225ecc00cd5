/* strata-mapped-guard.h: a file that shrinks under its mapping fails the
 * load instead of killing the process
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <setjmp.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct _StrataMappedGuard StrataMappedGuard;

struct _StrataMappedGuard
{
  sigjmp_buf         env;
  StrataMappedGuard *outer;
};

void strata_mapped_guard_push      (StrataMappedGuard  *guard);
void strata_mapped_guard_pop       (StrataMappedGuard  *guard);
void strata_mapped_guard_set_error (GError            **error);

/* Call as the condition of an if: TRUE when a mapped page vanished while
 * the guard was pushed (the code after the push has been left, and the
 * guard popped); the caller then fails. sigsetjmp() must be called in the
 * frame that stays live, hence a macro. */
#define STRATA_MAPPED_GUARD_FAULTED(guard) \
  (strata_mapped_guard_push (guard), sigsetjmp ((guard)->env, 1) != 0)

G_END_DECLS
