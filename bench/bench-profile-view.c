/* bench-profile-view.c: the profile panel with 100,000 methods
 *
 * Times building the table, re-sorting it by a column and filtering it as
 * a name is typed, each until the incremental work is done. Needs a
 * display (xvfb-run).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gtk/gtk.h>

#include "bench-util.h"
#include "strata-memory.h"
#include "strata-loader.h"
#include "strata-profile-view-private.h"
#include "strata-session.h"

#define N_METHODS 100000
#define N_RECORDS 4000000

static double longest_block;

/* Runs the main loop until nothing is left to do (the new rows drawn);
 * longest_block is the longest the loop was held by one step, that is
 * how long the window could not answer the user. */
static void
settle (StrataProfileView *view)
{
  for (;;)
    {
      gint64 start = g_get_monotonic_time ();
      gboolean dispatched = g_main_context_iteration (NULL, FALSE);

      longest_block = MAX (longest_block, (g_get_monotonic_time () - start) / 1000.0);
      if (!dispatched)
        break;
    }
}

/* Median and worst of @n runs: until the rows are drawn, and how long the
 * window was blocked at most. */
static void
report (const char *what,
        double     *took,
        double     *blocked,
        guint       n)
{
  qsort (took, n, sizeof (double), strata_bench_compare_doubles);
  qsort (blocked, n, sizeof (double), strata_bench_compare_doubles);
  g_print ("%-22s %.1f ms median, %.1f ms worst (of %u); window blocked %.1f ms median, %.1f ms worst\n",
           what, took[n / 2], took[n - 1], n, blocked[n / 2], blocked[n - 1]);
}

static double
ms_since (gint64 start)
{
  return (g_get_monotonic_time () - start) / 1000.0;
}

int
main (int   argc,
      char *argv[])
{
  const char *path = argc > 2 ? argv[2] : "bench-profile-view.trace";
  g_autoptr(GFile) file = NULL;
  g_autoptr(StrataLoader) loader = NULL;
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(StrataSession) session = NULL;
  g_autoptr(GError) error = NULL;
  const char *typed[] = { "c", "co", "com", "com.", "com.e", "com.ex", "com.exa", "method1", "method12", "method123",
                          "method12", "method1", "method", "" };
  const char *sorts[] = { "excl-0", "incl-0", "calls-0", "per-call-0", "name-0", "excl-1", "incl-0" };
  double took[G_N_ELEMENTS (typed)], blocked[G_N_ELEMENTS (typed)];
  GtkWidget *window, *view;
  gint64 start;

  strata_memory_tune_allocator ();
  if (argc < 2)
    {
      g_printerr ("usage: %s GENERATOR [FILE]\n", argv[0]);
      return 2;
    }
  if (!gtk_init_check ())
    {
      g_print ("no display: run under xvfb-run\n");
      return 77;
    }
  if (!strata_bench_ensure_trace (argv[1], path, N_RECORDS, N_METHODS))
    return 1;

  file = g_file_new_for_path (path);
  loader = strata_loader_new (file);
  if (!(trace = strata_loader_load (loader, NULL, &error)))
    g_error ("%s", error->message);

  session = strata_session_new ();
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 700);
  view = strata_profile_view_new (session);
  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_present (GTK_WINDOW (window));

  strata_session_set_trace (session, trace);
  while (strata_session_get_profile (session) == NULL)
    g_main_context_iteration (NULL, TRUE);

  /* The profile arrived: the panel builds its table now. */
  start = g_get_monotonic_time ();
  longest_block = 0;
  settle (STRATA_PROFILE_VIEW (view));
  g_print ("methods:              %u\n",
           g_list_model_get_n_items (strata_profile_view_get_rows (STRATA_PROFILE_VIEW (view))));
  g_print ("build (after load):   %.1f ms, window blocked %.1f ms at most\n", ms_since (start), longest_block);

  for (guint i = 0; i < G_N_ELEMENTS (sorts); i++)
    {
      start = g_get_monotonic_time ();
      strata_profile_view_sort_by (STRATA_PROFILE_VIEW (view), sorts[i], i % 2 ? GTK_SORT_ASCENDING : GTK_SORT_DESCENDING);
      blocked[i] = ms_since (start);
      longest_block = 0;
      settle (STRATA_PROFILE_VIEW (view));
      blocked[i] = MAX (blocked[i], longest_block);
      took[i] = ms_since (start);
    }
  report ("re-sort by a column:", took, blocked, G_N_ELEMENTS (sorts));

  for (guint i = 0; i < G_N_ELEMENTS (typed); i++)
    {
      start = g_get_monotonic_time ();
      strata_profile_view_set_filter (STRATA_PROFILE_VIEW (view), typed[i]);
      blocked[i] = ms_since (start);
      longest_block = 0;
      settle (STRATA_PROFILE_VIEW (view));
      blocked[i] = MAX (blocked[i], longest_block);
      took[i] = ms_since (start);
      if (g_getenv ("STRATA_BENCH_VERBOSE"))
        g_print ("  \"%s\": %.1f ms, %u rows\n", typed[i], took[i],
                 g_list_model_get_n_items (strata_profile_view_get_rows (STRATA_PROFILE_VIEW (view))));
    }
  report ("filter per keystroke:", took, blocked, G_N_ELEMENTS (typed));

  gtk_window_destroy (GTK_WINDOW (window));
  return 0;
}
