/* strata-profile-model.c: one row per method that was called
 *
 * Rows are made when the list asks for them and kept, so a method has one
 * row object for as long as the model lives.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-profile-model.h"

struct _StrataProfileModel
{
  GObject        parent_instance;

  StrataProfile *profile;
  GArray        *methods;   /* guint32, by inclusive time on the first clock */
  GPtrArray     *rows;      /* StrataProfileRow or NULL, per position */
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrataProfileModel, strata_profile_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static GType
get_item_type (GListModel *model)
{
  return STRATA_TYPE_PROFILE_ROW;
}

static guint
get_n_items (GListModel *model)
{
  return STRATA_PROFILE_MODEL (model)->methods->len;
}

static gpointer
get_item (GListModel *model,
          guint       position)
{
  StrataProfileModel *self = STRATA_PROFILE_MODEL (model);
  StrataProfileRow *row;

  if (position >= self->methods->len)
    return NULL;

  if ((row = g_ptr_array_index (self->rows, position)) == NULL)
    {
      row = strata_profile_row_new_method (self->profile, g_array_index (self->methods, guint32, position));
      g_ptr_array_index (self->rows, position) = row;
    }
  return g_object_ref (row);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

static void
strata_profile_model_finalize (GObject *object)
{
  StrataProfileModel *self = (StrataProfileModel *)object;

  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->methods, g_array_unref);
  g_clear_object (&self->profile);

  G_OBJECT_CLASS (strata_profile_model_parent_class)->finalize (object);
}

static void
strata_profile_model_class_init (StrataProfileModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strata_profile_model_finalize;
}

static void
strata_profile_model_init (StrataProfileModel *self)
{
  self->methods = g_array_new (FALSE, FALSE, sizeof (guint32));
}

/* Positions no one asked for hold NULL. */
static void
unref_row (gpointer row)
{
  if (row != NULL)
    g_object_unref (row);
}

StrataProfileModel *
strata_profile_model_new (StrataProfile *profile)
{
  StrataProfileModel *self;
  const guint32 *sorted;
  guint n;

  g_return_val_if_fail (STRATA_IS_PROFILE (profile), NULL);

  self = g_object_new (STRATA_TYPE_PROFILE_MODEL, NULL);
  self->profile = g_object_ref (profile);

  sorted = strata_profile_get_sorted (profile, 0, &n);
  for (guint i = 0; i < n; i++)
    {
      const StrataProfileEntry *entry = strata_profile_get_entry (profile, sorted[i]);

      if (entry->calls + entry->recursive_calls > 0)
        g_array_append_val (self->methods, sorted[i]);
    }
  self->rows = g_ptr_array_new_with_free_func (unref_row);
  g_ptr_array_set_size (self->rows, self->methods->len);

  return self;
}

/**
 * strata_profile_model_get_profile:
 *
 * Returns: (transfer none): the profile
 */
StrataProfile *
strata_profile_model_get_profile (StrataProfileModel *self)
{
  g_return_val_if_fail (STRATA_IS_PROFILE_MODEL (self), NULL);

  return self->profile;
}

/* How many methods' names contain @needle, ignoring case (ASCII). */
guint
strata_profile_model_count_matches (StrataProfileModel *self,
                                    const char         *needle)
{
  StrataTrace *trace = strata_profile_get_trace (self->profile);
  guint n = 0;

  if (needle == NULL || *needle == '\0')
    return self->methods->len;

  for (guint i = 0; i < self->methods->len; i++)
    if (strcasestr (strata_trace_get_method_name (trace, g_array_index (self->methods, guint32, i)), needle))
      n++;
  return n;
}
