/* strata-heap-row.c
 *
 * A few thousand classes at most: one object per row is fine here, and
 * properties let GTK's sorters and filters read the columns.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-heap-row.h"

struct _StrataHeapRow
{
  GObject  parent_instance;

  char    *name;
  guint64  instances;
  guint64  shallow_bytes;
  guint64  retained_bytes;
  double   retained_share;  /* of the reachable heap */
  guint    heap_class;      /* its index in the heap */
  guint    group;           /* a group's row: its index among the groups; else G_MAXUINT */
};

enum {
  PROP_0,
  PROP_NAME,
  PROP_INSTANCES,
  PROP_SHALLOW_BYTES,
  PROP_RETAINED_BYTES,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (StrataHeapRow, strata_heap_row, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
strata_heap_row_finalize (GObject *object)
{
  g_free (STRATA_HEAP_ROW (object)->name);

  G_OBJECT_CLASS (strata_heap_row_parent_class)->finalize (object);
}

static void
strata_heap_row_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  StrataHeapRow *self = STRATA_HEAP_ROW (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_INSTANCES:
      g_value_set_uint64 (value, self->instances);
      break;
    case PROP_SHALLOW_BYTES:
      g_value_set_uint64 (value, self->shallow_bytes);
      break;
    case PROP_RETAINED_BYTES:
      g_value_set_uint64 (value, self->retained_bytes);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strata_heap_row_class_init (StrataHeapRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = strata_heap_row_finalize;
  object_class->get_property = strata_heap_row_get_property;

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL, (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_INSTANCES] =
    g_param_spec_uint64 ("instances", NULL, NULL, 0, G_MAXUINT64, 0, (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_SHALLOW_BYTES] =
    g_param_spec_uint64 ("shallow-bytes", NULL, NULL, 0, G_MAXUINT64, 0, (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_RETAINED_BYTES] =
    g_param_spec_uint64 ("retained-bytes", NULL, NULL, 0, G_MAXUINT64, 0, (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
strata_heap_row_init (StrataHeapRow *self)
{
}

StrataHeapRow *
strata_heap_row_new (const char *name,
                     guint64     instances,
                     guint64     shallow_bytes,
                     guint64     retained_bytes,
                     guint64     reachable_bytes)
{
  StrataHeapRow *self = g_object_new (STRATA_TYPE_HEAP_ROW, NULL);

  self->name = g_strdup (name);
  self->instances = instances;
  self->shallow_bytes = shallow_bytes;
  self->retained_bytes = retained_bytes;
  self->retained_share = reachable_bytes > 0 ? (double) retained_bytes / reachable_bytes : 0;
  self->group = G_MAXUINT;
  return self;
}

const char *
strata_heap_row_get_name (StrataHeapRow *self)
{
  return self->name;
}

guint64
strata_heap_row_get_instances (StrataHeapRow *self)
{
  return self->instances;
}

guint64
strata_heap_row_get_shallow_bytes (StrataHeapRow *self)
{
  return self->shallow_bytes;
}

guint64
strata_heap_row_get_retained_bytes (StrataHeapRow *self)
{
  return self->retained_bytes;
}

/* What the class retains, as a share of the reachable heap (0 to 1). */
double
strata_heap_row_get_retained_share (StrataHeapRow *self)
{
  return self->retained_share;
}

void
strata_heap_row_set_heap_class (StrataHeapRow *self,
                                guint          heap_class)
{
  self->heap_class = heap_class;
}

guint
strata_heap_row_get_heap_class (StrataHeapRow *self)
{
  return self->heap_class;
}

/* A row of classes grouped (by package, by loader): its group's index. */
void
strata_heap_row_set_group (StrataHeapRow *self,
                           guint          group)
{
  self->group = group;
}

/* Returns: the group's index, or G_MAXUINT for a class's row */
guint
strata_heap_row_get_group (StrataHeapRow *self)
{
  return self->group;
}
