/* strata-clock-columns.c: a table's columns grouped by clock
 *
 * With two clocks (wall and thread CPU), a table shows each figure on
 * both, side by side. The headers' menu (a right-click on any header)
 * has a check item per clock, "columns.show-clock-N" on the widget that
 * owns the table, which shows or hides that clock's columns. One clock's
 * stay on show: hiding both would leave only names.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "strata-clock-columns.h"

#define MAX_CLOCKS 2

struct _StrataClockColumns
{
  GObject             parent_instance;

  StrataTrace        *trace;                 /* whose clocks the columns are on */
  GMenu              *menu;
  GSimpleActionGroup *actions;
  GPtrArray          *columns[MAX_CLOCKS];   /* GtkColumnViewColumn; let go when the columns are made anew */
  guint               n_clocks;
};

G_DEFINE_FINAL_TYPE (StrataClockColumns, strata_clock_columns, G_TYPE_OBJECT)

static void
strata_clock_columns_finalize (GObject *object)
{
  StrataClockColumns *self = STRATA_CLOCK_COLUMNS (object);

  g_clear_object (&self->trace);
  g_clear_object (&self->menu);
  g_clear_object (&self->actions);
  for (guint c = 0; c < MAX_CLOCKS; c++)
    g_clear_pointer (&self->columns[c], g_ptr_array_unref);
  G_OBJECT_CLASS (strata_clock_columns_parent_class)->finalize (object);
}

static void
strata_clock_columns_class_init (StrataClockColumnsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strata_clock_columns_finalize;
}

static void
strata_clock_columns_init (StrataClockColumns *self)
{
  self->menu = g_menu_new ();
  self->actions = g_simple_action_group_new ();
  for (guint c = 0; c < MAX_CLOCKS; c++)
    self->columns[c] = g_ptr_array_new_with_free_func (g_object_unref);
}

/**
 * strata_clock_columns_new:
 * @owner: the widget whose table it is; the menu's actions go on it
 *
 * Returns: (transfer full): the grouping, for the owner to keep
 */
StrataClockColumns *
strata_clock_columns_new (GtkWidget *owner)
{
  StrataClockColumns *self = g_object_new (STRATA_TYPE_CLOCK_COLUMNS, NULL);

  gtk_widget_insert_action_group (owner, "columns", G_ACTION_GROUP (self->actions));
  return self;
}

static void
show_clock (StrataClockColumns *self,
            guint               clock,
            gboolean            visible)
{
  for (guint i = 0; i < self->columns[clock]->len; i++)
    gtk_column_view_column_set_visible (g_ptr_array_index (self->columns[clock], i), visible);
}

static void
change_state_cb (GSimpleAction *action,
                 GVariant      *state,
                 gpointer       user_data)
{
  StrataClockColumns *self = user_data;
  guint clock = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (action), "strata-clock"));
  g_autofree char *other_name = g_strdup_printf ("show-clock-%u", 1 - clock);
  GAction *other = g_action_map_lookup_action (G_ACTION_MAP (self->actions), other_name);
  g_autoptr(GVariant) other_state = other != NULL ? g_action_get_state (other) : NULL;

  if (!g_variant_get_boolean (state) && (other_state == NULL || !g_variant_get_boolean (other_state)))
    return;
  g_simple_action_set_state (action, state);
  show_clock (self, clock, g_variant_get_boolean (state));
}

/**
 * strata_clock_columns_set_trace:
 *
 * A menu item per clock of @trace, all shown; the columns added before
 * are forgotten, as the table makes its columns anew for a trace.
 */
void
strata_clock_columns_set_trace (StrataClockColumns *self,
                                StrataTrace        *trace)
{
  g_return_if_fail (STRATA_IS_CLOCK_COLUMNS (self));

  g_set_object (&self->trace, trace);
  self->n_clocks = trace != NULL ? MIN (strata_trace_get_n_clocks (trace), MAX_CLOCKS) : 0;
  g_menu_remove_all (self->menu);
  for (guint c = 0; c < MAX_CLOCKS; c++)
    {
      g_autofree char *name = g_strdup_printf ("show-clock-%u", c);
      g_autofree char *detailed = g_strdup_printf ("columns.%s", name);
      g_autoptr(GSimpleAction) action = NULL;

      g_ptr_array_set_size (self->columns[c], 0);
      g_action_map_remove_action (G_ACTION_MAP (self->actions), name);
      if (c >= self->n_clocks)
        continue;
      action = g_simple_action_new_stateful (name, NULL, g_variant_new_boolean (TRUE));
      g_object_set_data (G_OBJECT (action), "strata-clock", GUINT_TO_POINTER (c));
      g_signal_connect_object (action, "change-state", G_CALLBACK (change_state_cb), self, 0);
      g_action_map_add_action (G_ACTION_MAP (self->actions), G_ACTION (action));
      g_menu_append (self->menu,
                     strata_trace_get_clock_kind (trace, c) == STRATA_CLOCK_THREAD_CPU
                     ? _("CPU Time Columns") : _("Wall Time Columns"),
                     detailed);
    }
}

/* Returns: (nullable): the trace given last */
StrataTrace *
strata_clock_columns_get_trace (StrataClockColumns *self)
{
  g_return_val_if_fail (STRATA_IS_CLOCK_COLUMNS (self), NULL);

  return self->trace;
}

/**
 * strata_clock_columns_dup_title:
 * @title: the figure a column shows, translated ("Total", "Incl %")
 * @clock: the clock it is on, or -1 for none (a name)
 *
 * Returns: (transfer full): @title, followed by its clock's name when
 *   the trace has two ("Total CPU")
 */
char *
strata_clock_columns_dup_title (StrataClockColumns *self,
                                const char         *title,
                                int                 clock)
{
  g_return_val_if_fail (STRATA_IS_CLOCK_COLUMNS (self), NULL);

  if (self->n_clocks < 2 || clock < 0 || (guint) clock >= self->n_clocks)
    return g_strdup (title);
  /* Translators: a column title and the clock it is on, e.g. "Incl CPU" */
  return g_strdup_printf (_("%s %s"), title,
                          strata_trace_get_clock_kind (self->trace, clock) == STRATA_CLOCK_THREAD_CPU
                          ? C_("clock", "CPU") : C_("clock", "Wall"));
}

/**
 * strata_clock_columns_add:
 * @clock: the clock @column shows a figure on, or -1 for none (a name)
 *
 * Gives @column the headers' menu, with two clocks, and puts it in its
 * clock's group.
 */
void
strata_clock_columns_add (StrataClockColumns  *self,
                          GtkColumnViewColumn *column,
                          int                  clock)
{
  g_return_if_fail (STRATA_IS_CLOCK_COLUMNS (self));

  if (self->n_clocks < 2)
    return;
  gtk_column_view_column_set_header_menu (column, G_MENU_MODEL (self->menu));
  if (clock >= 0 && (guint) clock < self->n_clocks)
    g_ptr_array_add (self->columns[clock], g_object_ref (column));
}
