/* strata-load-guard.h: a file that shrinks under its mapping, or a load
 * that runs out of memory, fails the load instead of ending the process
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <setjmp.h>
#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  STRATA_LOAD_FAULT_NONE,
  STRATA_LOAD_FAULT_FILE_SHRANK,    /* a mapped page vanished: SIGBUS */
  STRATA_LOAD_FAULT_OUT_OF_MEMORY,  /* GLib could not allocate or start a thread */
} StrataLoadFault;

typedef struct _StrataLoadGuard StrataLoadGuard;

struct _StrataLoadGuard
{
  sigjmp_buf       env;
  StrataLoadGuard *outer;
  StrataLoadFault  fault;
  gsize            wanted;  /* the allocation that failed, in bytes; 0 when unknown */
};

void strata_load_guard_push        (StrataLoadGuard        *guard);
void strata_load_guard_pop         (StrataLoadGuard        *guard);
void strata_load_guard_set_error   (const StrataLoadGuard  *guard,
                                    GError                **error);
G_NORETURN
void strata_load_guard_out_of_memory (gsize                 wanted);
void strata_load_fault_set_error   (StrataLoadFault         fault,
                                    gsize                   wanted,
                                    GError                **error);

void     strata_load_guard_watch_mapping   (gconstpointer  start,
                                           gsize          len,
                                           const char    *path);
void     strata_load_guard_unwatch_mapping (gconstpointer  start);
gboolean strata_load_guard_mapping_changed (const char    *path);
int      strata_load_guard_get_changed_fd  (void);

/* Call as the condition of an if: TRUE when a fault happened while the
 * guard was pushed (the code after the push has been left, the guard
 * popped, and guard->fault says what it was); the caller then fails.
 * sigsetjmp() must be called in the frame that stays live, hence a macro. */
#define STRATA_LOAD_GUARD_FAULTED(guard) \
  (strata_load_guard_push (guard), sigsetjmp ((guard)->env, 1) != 0)

G_END_DECLS
