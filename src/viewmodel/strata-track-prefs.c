/* strata-track-prefs.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-track-prefs.h"

static GHashTable *
new_key_set (void)
{
  return g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
}

StrataTrackPrefs *
strata_track_prefs_new (void)
{
  StrataTrackPrefs *self = g_new0 (StrataTrackPrefs, 1);

  self->collapsed_processes = g_hash_table_new (NULL, NULL);
  self->collapsed = new_key_set ();
  self->hidden = new_key_set ();
  self->positions = new_key_set ();
  self->pinned = g_array_new (FALSE, FALSE, sizeof (guint64));
  self->hidden_series = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  return self;
}

void
strata_track_prefs_free (StrataTrackPrefs *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->collapsed_processes);
  g_hash_table_unref (self->collapsed);
  g_hash_table_unref (self->hidden);
  g_hash_table_unref (self->positions);
  g_array_unref (self->pinned);
  g_hash_table_unref (self->hidden_series);
  g_clear_pointer (&self->filter, strata_search_unref);
  g_free (self);
}

/* A new trace: its tracks are not the old one's. */
void
strata_track_prefs_reset (StrataTrackPrefs *self)
{
  g_hash_table_remove_all (self->collapsed_processes);
  g_hash_table_remove_all (self->collapsed);
  g_hash_table_remove_all (self->hidden);
  g_hash_table_remove_all (self->positions);
  g_array_set_size (self->pinned, 0);
  g_hash_table_remove_all (self->hidden_series);
  g_clear_pointer (&self->filter, strata_search_unref);
}

/**
 * strata_track_prefs_set_filter:
 * @filter: (transfer full) (nullable): show only the tracks whose name, or
 *   whose process's name, it matches; %NULL shows them all
 */
void
strata_track_prefs_set_filter (StrataTrackPrefs *self,
                               StrataSearch     *filter)
{
  g_clear_pointer (&self->filter, strata_search_unref);
  self->filter = filter;
}

/* Bit s set: the counter's series s is hidden from its chart. */
guint64
strata_track_prefs_get_hidden_series (const StrataTrackPrefs *self,
                                      guint                   counter)
{
  gpointer mask = g_hash_table_lookup (self->hidden_series, GUINT_TO_POINTER (counter + 1));

  return mask != NULL ? *(const guint64 *) mask : 0;
}

void
strata_track_prefs_toggle_series (StrataTrackPrefs *self,
                                  guint             counter,
                                  guint             series)
{
  gpointer key = GUINT_TO_POINTER (counter + 1);
  guint64 *mask = g_hash_table_lookup (self->hidden_series, key);

  g_return_if_fail (series < 64);

  if (mask == NULL)
    {
      mask = g_new0 (guint64, 1);
      g_hash_table_insert (self->hidden_series, key, mask);
    }
  *mask ^= G_GUINT64_CONSTANT (1) << series;
}

void
strata_track_prefs_toggle_process (StrataTrackPrefs *self,
                                   guint             process)
{
  gpointer key = GUINT_TO_POINTER (process);

  if (!g_hash_table_remove (self->collapsed_processes, key))
    g_hash_table_add (self->collapsed_processes, key);
}

static void
set_add (GHashTable *set,
         guint64     key,
         double      value)
{
  double *stored = g_new (double, 1);

  *stored = value;
  g_hash_table_replace (set, g_memdup2 (&key, sizeof key), stored);
}

void
strata_track_prefs_toggle_collapsed (StrataTrackPrefs *self,
                                     guint64           key)
{
  if (!g_hash_table_remove (self->collapsed, &key))
    set_add (self->collapsed, key, 1);
}

void
strata_track_prefs_hide (StrataTrackPrefs *self,
                         guint64           key)
{
  set_add (self->hidden, key, 1);
}

/* Returns: how many tracks come back */
guint
strata_track_prefs_show_hidden (StrataTrackPrefs *self)
{
  guint n = g_hash_table_size (self->hidden);

  g_hash_table_remove_all (self->hidden);
  return n;
}

gboolean
strata_track_prefs_is_pinned (const StrataTrackPrefs *self,
                              guint64                 key)
{
  for (guint i = 0; i < self->pinned->len; i++)
    if (g_array_index (self->pinned, guint64, i) == key)
      return TRUE;
  return FALSE;
}

/* Returns: whether the track is pinned now */
gboolean
strata_track_prefs_toggle_pinned (StrataTrackPrefs *self,
                                  guint64           key)
{
  for (guint i = 0; i < self->pinned->len; i++)
    if (g_array_index (self->pinned, guint64, i) == key)
      {
        g_array_remove_index (self->pinned, i);
        return FALSE;
      }
  g_array_append_val (self->pinned, key);
  return TRUE;
}

/**
 * strata_track_prefs_move:
 * @shown: the keys of the track's process as laid out now
 * @step: -1 to move up, 1 to move down
 *
 * Swaps the track with its neighbour; every track of the process gets an
 * explicit position so later moves stay consistent.
 *
 * Returns: whether it moved (not past either end)
 */
gboolean
strata_track_prefs_move (StrataTrackPrefs *self,
                         const GArray     *shown,
                         guint64           key,
                         int               step)
{
  guint at = G_MAXUINT;
  guint64 other;

  for (guint i = 0; i < shown->len; i++)
    if (g_array_index (shown, guint64, i) == key)
      at = i;
  if (at == G_MAXUINT || (step < 0 && at == 0) || (step > 0 && at + 1 >= shown->len))
    return FALSE;

  for (guint i = 0; i < shown->len; i++)
    set_add (self->positions, g_array_index (shown, guint64, i), i);
  other = g_array_index (shown, guint64, at + step);
  set_add (self->positions, key, at + step);
  set_add (self->positions, other, at);
  return TRUE;
}
