/* strata-profile-model.c: the profile's methods as a flat tree of rows
 *
 * One row per method that was called, sorted and filtered here on plain
 * arrays; an expanded method is followed by its parents and children.
 *
 * The items are places, not methods: the row object at a position stays
 * while the list holds it, and is pointed at whatever is now shown
 * there. A re-sort then changes no items at all, and filtering only adds
 * or removes places at the end, so the list keeps its row widgets and
 * only the rows on screen are filled again. GTK 4.8's list throws away
 * and rebuilds every visible row widget when its items change, which is
 * what made sorting a hundred thousand methods take hundreds of
 * milliseconds. That is also why the profile is not a GtkTreeListModel
 * over a GtkSortListModel, as the house style would have a tree: the
 * expanded relatives are rows of this one flat model instead, and a sort
 * of 86,000 methods stays at 35-50 ms (bench-profile-view).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "strata-profile-model.h"

#define METHOD_ROW G_MAXUINT32

/* One row on show: a method, or one of its relatives. */
typedef struct
{
  guint32 index;      /* into methods */
  guint32 relative;   /* METHOD_ROW, or the position among its relatives */
} FlatRow;

struct _StrataProfileModel
{
  GObject                  parent_instance;

  StrataProfile           *profile;
  GArray                  *methods;    /* guint32, by inclusive time on the first clock */
  const char             **names;      /* per index */
  char                   **folded;     /* per index: the name in ASCII lower case */
  char                    *folded_text;
  GPtrArray               *slots;      /* StrataProfileRow or NULL, per position */
  guint32                 *sorted;     /* indexes in sort order */
  GArray                  *shown;      /* guint32 indexes: sorted, matching the filter */
  GArray                  *flat;       /* FlatRow, what the list shows */
  GHashTable              *expanded;   /* set of indexes */
  char                    *needle;
  StrataProfileSortKey     key;
  guint                    clock;
  gboolean                 descending;
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
  return STRATA_PROFILE_MODEL (model)->flat->len;
}

static guint32
method_at (StrataProfileModel *self,
           guint32             index)
{
  return g_array_index (self->methods, guint32, index);
}

/* Points @row at what is shown at @position. */
static void
fill_row (StrataProfileModel *self,
          StrataProfileRow   *row,
          guint               position)
{
  const FlatRow *flat = &g_array_index (self->flat, FlatRow, position);
  guint32 method = method_at (self, flat->index);
  const guint32 *parents, *children;
  guint n_parents, n_children;

  if (flat->relative == METHOD_ROW)
    {
      strata_profile_row_set_method (row, method, g_hash_table_contains (self->expanded, GUINT_TO_POINTER (flat->index)));
      return;
    }
  parents = strata_profile_get_parents (self->profile, method, &n_parents);
  children = strata_profile_get_children (self->profile, method, &n_children);
  if (flat->relative < n_parents)
    strata_profile_row_set_edge (row, STRATA_PROFILE_ROW_PARENT, parents[flat->relative]);
  else
    strata_profile_row_set_edge (row, STRATA_PROFILE_ROW_CHILD, children[flat->relative - n_parents]);
}

static gpointer
get_item (GListModel *model,
          guint       position)
{
  StrataProfileModel *self = STRATA_PROFILE_MODEL (model);
  StrataProfileRow *row;

  if (position >= self->flat->len)
    return NULL;

  if (position >= self->slots->len)
    g_ptr_array_set_size (self->slots, self->flat->len);
  if ((row = g_ptr_array_index (self->slots, position)) == NULL)
    {
      row = strata_profile_row_new_method (self->profile, method_at (self, g_array_index (self->flat, FlatRow, position).index));
      fill_row (self, row, position);
      g_ptr_array_index (self->slots, position) = row;
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

  g_clear_pointer (&self->slots, g_ptr_array_unref);
  g_clear_pointer (&self->methods, g_array_unref);
  g_clear_pointer (&self->shown, g_array_unref);
  g_clear_pointer (&self->flat, g_array_unref);
  g_clear_pointer (&self->expanded, g_hash_table_unref);
  g_clear_pointer (&self->names, g_free);
  g_clear_pointer (&self->folded, g_free);
  g_clear_pointer (&self->folded_text, g_free);
  g_clear_pointer (&self->sorted, g_free);
  g_clear_pointer (&self->needle, g_free);
  g_clear_object (&self->profile);

  G_OBJECT_CLASS (strata_profile_model_parent_class)->finalize (object);
}

static void
strata_profile_model_class_init (StrataProfileModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = strata_profile_model_finalize;
}

/* Positions no one asked for hold NULL. */
static void
unref_row (gpointer row)
{
  if (row != NULL)
    g_object_unref (row);
}

static void
strata_profile_model_init (StrataProfileModel *self)
{
  self->methods = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->shown = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->flat = g_array_new (FALSE, FALSE, sizeof (FlatRow));
  self->expanded = g_hash_table_new (NULL, NULL);
  self->slots = g_ptr_array_new_with_free_func (unref_row);
  self->key = STRATA_PROFILE_SORT_INCLUSIVE;
  self->descending = TRUE;
}

/* ---- Sorting and filtering ---- */

typedef struct
{
  gint64  value;
  guint32 index;
} SortItem;

static gint64
sort_value (StrataProfileModel *self,
            guint32             index)
{
  const StrataProfileEntry *entry = strata_profile_get_entry (self->profile, g_array_index (self->methods, guint32, index));

  switch (self->key)
    {
    case STRATA_PROFILE_SORT_EXCLUSIVE:
      return entry->exclusive[self->clock];
    case STRATA_PROFILE_SORT_CALLS:
      return (gint64) (entry->calls + entry->recursive_calls);
    case STRATA_PROFILE_SORT_PER_CALL:
      return entry->calls ? entry->inclusive[self->clock] / (gint64) entry->calls : 0;
    case STRATA_PROFILE_SORT_INCLUSIVE:
    case STRATA_PROFILE_SORT_NAME:
    default:
      return entry->inclusive[self->clock];
    }
}

/* Equal keys keep the order by inclusive time, so sorting is stable. */
static int
compare_values (gconstpointer a,
                gconstpointer b,
                gpointer      data)
{
  const SortItem *sa = a, *sb = b;
  gboolean descending = GPOINTER_TO_INT (data);
  int order = (sa->value > sb->value) - (sa->value < sb->value);

  if (descending)
    order = -order;
  return order != 0 ? order : (sa->index > sb->index) - (sa->index < sb->index);
}

static int
compare_names (gconstpointer a,
               gconstpointer b,
               gpointer      data)
{
  StrataProfileModel *self = data;
  guint32 ia = *(const guint32 *) a, ib = *(const guint32 *) b;
  int order = strcmp (self->folded[ia], self->folded[ib]);

  if (order == 0)
    order = strcmp (self->names[ia], self->names[ib]);
  if (self->descending)
    order = -order;
  return order != 0 ? order : (ia > ib) - (ia < ib);
}

/* Numbers are read once into a compact array and sorted there. */
static void
sort_methods (StrataProfileModel *self)
{
  guint n = self->methods->len;
  g_autofree SortItem *items = NULL;

  if (self->key == STRATA_PROFILE_SORT_NAME)
    {
      g_qsort_with_data (self->sorted, n, sizeof (guint32), compare_names, self);
      return;
    }
  items = g_new (SortItem, n);
  for (guint i = 0; i < n; i++)
    items[i] = (SortItem) { sort_value (self, i), i };
  g_qsort_with_data (items, n, sizeof (SortItem), compare_values, GINT_TO_POINTER (self->descending));
  for (guint i = 0; i < n; i++)
    self->sorted[i] = items[i].index;
}

static gboolean
matches (StrataProfileModel *self,
         guint32             index)
{
  return self->needle == NULL || strstr (self->folded[index], self->needle) != NULL;
}

/* Picks the matching methods out of @from (in sort order) into shown. */
static void
filter_from (StrataProfileModel *self,
             const guint32      *from,
             guint               n)
{
  g_autoptr(GArray) shown = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n);

  for (guint i = 0; i < n; i++)
    if (matches (self, from[i]))
      g_array_append_val (shown, from[i]);
  g_array_unref (self->shown);
  self->shown = g_steal_pointer (&shown);
}

static guint
n_relatives (StrataProfileModel *self,
             guint32             index)
{
  guint n_parents, n_children;

  strata_profile_get_parents (self->profile, method_at (self, index), &n_parents);
  strata_profile_get_children (self->profile, method_at (self, index), &n_children);
  return n_parents + n_children;
}

/* After the rows from @from on changed: fills the row objects the list
 * holds again, lets go of the others, and tells the list how many
 * places there are now. */
static void
refill (StrataProfileModel *self,
        guint               from,
        guint               old_n)
{
  guint new_n = self->flat->len;

  for (guint i = from; i < MIN (self->slots->len, new_n); i++)
    {
      StrataProfileRow *row = g_ptr_array_index (self->slots, i);

      if (row == NULL)
        continue;
      /* Only the model holds it: nothing shows it, so drop it. */
      if (g_atomic_int_get (&G_OBJECT (row)->ref_count) == 1)
        g_clear_object ((StrataProfileRow **) &g_ptr_array_index (self->slots, i));
      else
        fill_row (self, row, i);
    }

  if (new_n < old_n)
    g_list_model_items_changed (G_LIST_MODEL (self), new_n, old_n - new_n, 0);
  else if (new_n > old_n)
    g_list_model_items_changed (G_LIST_MODEL (self), old_n, 0, new_n - old_n);
  if (self->slots->len > new_n)
    g_ptr_array_set_size (self->slots, new_n);
}

/* Lays out the rows: each method on show, then its relatives if expanded. */
static void
relayout (StrataProfileModel *self)
{
  guint old_n = self->flat->len;

  g_array_set_size (self->flat, 0);
  for (guint i = 0; i < self->shown->len; i++)
    {
      guint32 index = g_array_index (self->shown, guint32, i);
      FlatRow row = { index, METHOD_ROW };

      g_array_append_val (self->flat, row);
      if (g_hash_table_contains (self->expanded, GUINT_TO_POINTER (index)))
        {
          guint n = n_relatives (self, index);

          for (guint r = 0; r < n; r++)
            {
              FlatRow relative = { index, r };

              g_array_append_val (self->flat, relative);
            }
        }
    }
  refill (self, 0, old_n);
}

/**
 * strata_profile_model_set_sort:
 * @clock: for the time keys
 *
 * Sorts the methods; parents and children stay under theirs, largest first.
 */
void
strata_profile_model_set_sort (StrataProfileModel   *self,
                               StrataProfileSortKey  key,
                               guint                 clock,
                               gboolean              descending)
{
  g_return_if_fail (STRATA_IS_PROFILE_MODEL (self));

  self->key = key;
  self->clock = MIN (clock, strata_profile_get_n_clocks (self->profile) - 1);
  self->descending = descending;
  sort_methods (self);
  filter_from (self, self->sorted, self->methods->len);
  relayout (self);
}

/**
 * strata_profile_model_set_filter:
 * @needle: (nullable): show only methods whose names contain it, ignoring
 *   case (ASCII)
 */
void
strata_profile_model_set_filter (StrataProfileModel *self,
                                 const char         *needle)
{
  g_autofree char *old = NULL;

  g_return_if_fail (STRATA_IS_PROFILE_MODEL (self));

  if (needle != NULL && *needle == '\0')
    needle = NULL;

  old = g_steal_pointer (&self->needle);
  self->needle = needle != NULL ? g_ascii_strdown (needle, -1) : NULL;
  if (g_strcmp0 (old, self->needle) == 0)
    return;
  /* Typing on narrows the matches: only those need looking at again. */
  if (old != NULL && self->needle != NULL && strstr (self->needle, old) != NULL)
    {
      g_autoptr(GArray) previous = g_array_ref (self->shown);

      filter_from (self, (const guint32 *) previous->data, previous->len);
    }
  else
    filter_from (self, self->sorted, self->methods->len);
  relayout (self);
}

/* ---- Parents and children ---- */

static const FlatRow *
flat_row (StrataProfileModel *self,
          guint               position)
{
  return position < self->flat->len ? &g_array_index (self->flat, FlatRow, position) : NULL;
}

/* Whether the row at @position is a method with parents or children. */
gboolean
strata_profile_model_is_expandable (StrataProfileModel *self,
                                    guint               position)
{
  const FlatRow *row = flat_row (self, position);

  return row != NULL && row->relative == METHOD_ROW && n_relatives (self, row->index) > 0;
}

gboolean
strata_profile_model_get_expanded (StrataProfileModel *self,
                                   guint               position)
{
  const FlatRow *row = flat_row (self, position);

  return row != NULL && row->relative == METHOD_ROW &&
         g_hash_table_contains (self->expanded, GUINT_TO_POINTER (row->index));
}

/* Opens or closes the method at @position; other rows are left alone. */
void
strata_profile_model_set_expanded (StrataProfileModel *self,
                                   guint               position,
                                   gboolean            expanded)
{
  const FlatRow *row;
  guint old_n = self->flat->len;
  guint32 index;
  guint n;

  g_return_if_fail (STRATA_IS_PROFILE_MODEL (self));

  if (!strata_profile_model_is_expandable (self, position) ||
      strata_profile_model_get_expanded (self, position) == !!expanded)
    return;
  if ((row = flat_row (self, position)) == NULL)
    return;

  index = row->index;
  n = n_relatives (self, index);
  if (expanded)
    {
      g_autofree FlatRow *relatives = g_new (FlatRow, n);

      g_hash_table_add (self->expanded, GUINT_TO_POINTER (index));
      /* In one go: a method may have thousands of callers or callees. */
      for (guint r = 0; r < n; r++)
        relatives[r] = (FlatRow) { index, r };
      g_array_insert_vals (self->flat, position + 1, relatives, n);
    }
  else
    {
      g_hash_table_remove (self->expanded, GUINT_TO_POINTER (index));
      g_array_remove_range (self->flat, position + 1, n);
    }
  refill (self, position, old_n);
}

/**
 * strata_profile_model_get_owner:
 *
 * Returns: the position of the method a parent or child row is listed
 *   under, or @position itself for a method row
 */
guint
strata_profile_model_get_owner (StrataProfileModel *self,
                                guint               position)
{
  const FlatRow *row = flat_row (self, position);

  g_return_val_if_fail (row != NULL, G_MAXUINT);

  return row->relative == METHOD_ROW ? position : position - 1 - row->relative;
}

/* ---- Construction ---- */

/* Lower-case copies of the names in one block, for filtering with strstr. */
static void
fold_names (StrataProfileModel *self)
{
  guint n = self->methods->len;
  gsize size = 0;
  char *at;

  for (guint i = 0; i < n; i++)
    size += strlen (self->names[i]) + 1;
  self->folded_text = at = g_malloc (MAX (size, 1));
  self->folded = g_new (char *, n);
  for (guint i = 0; i < n; i++)
    {
      const char *name = self->names[i];

      self->folded[i] = at;
      while (*name)
        *at++ = g_ascii_tolower (*name++);
      *at++ = '\0';
    }
}

StrataProfileModel *
strata_profile_model_new (StrataProfile *profile)
{
  StrataProfileModel *self;
  StrataTrace *trace;
  const guint32 *sorted;
  guint n;

  g_return_val_if_fail (STRATA_IS_PROFILE (profile), NULL);

  self = g_object_new (STRATA_TYPE_PROFILE_MODEL, NULL);
  self->profile = g_object_ref (profile);
  trace = strata_profile_get_trace (profile);

  sorted = strata_profile_get_sorted (profile, 0, &n);
  for (guint i = 0; i < n; i++)
    {
      const StrataProfileEntry *entry = strata_profile_get_entry (profile, sorted[i]);

      if (entry->calls + entry->recursive_calls > 0)
        g_array_append_val (self->methods, sorted[i]);
    }
  self->names = g_new (const char *, self->methods->len);
  self->sorted = g_new (guint32, self->methods->len);
  for (guint i = 0; i < self->methods->len; i++)
    {
      self->names[i] = strata_trace_get_method_name (trace, g_array_index (self->methods, guint32, i));
      self->sorted[i] = i;
    }
  fold_names (self);
  g_array_append_vals (self->shown, self->sorted, self->methods->len);
  relayout (self);

  return self;
}

/* The position of @method's own row, or G_MAXUINT when it is not shown. */
guint
strata_profile_model_find_method (StrataProfileModel *self,
                                  guint32             method)
{
  g_return_val_if_fail (STRATA_IS_PROFILE_MODEL (self), G_MAXUINT);

  for (guint i = 0; i < self->flat->len; i++)
    {
      const FlatRow *row = &g_array_index (self->flat, FlatRow, i);

      if (row->relative == METHOD_ROW && method_at (self, row->index) == method)
        return i;
    }
  return G_MAXUINT;
}

/* How many methods the filter lets through. */
guint
strata_profile_model_get_n_matches (StrataProfileModel *self)
{
  g_return_val_if_fail (STRATA_IS_PROFILE_MODEL (self), 0);

  return self->shown->len;
}
