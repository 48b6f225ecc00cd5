/* strata-site-row.c
 *
 * Sites number in the hundreds: one object per row is fine, and
 * properties let GTK's sorters read the numbers.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-site-row.h"

struct _StrataSiteRow
{
  GObject     parent_instance;

  char       *text;          /* the class, or the frame */
  gboolean    is_frame;
  guint64     values[5];     /* rank, live bytes, live objects, allocated bytes, allocated objects */
  double      self_share;    /* of all live bytes, in % */
  double      accumulated;   /* this and the sites ranked above it, in % */
  GListModel *frames;        /* StrataSiteRow frames, or NULL */
};

enum {
  PROP_0,
  PROP_TEXT,
  PROP_RANK,
  PROP_LIVE_BYTES,
  PROP_LIVE_OBJECTS,
  PROP_ALLOCATED_BYTES,
  PROP_ALLOCATED_OBJECTS,
  PROP_SELF,
  PROP_ACCUMULATED,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (StrataSiteRow, strata_site_row, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
strata_site_row_finalize (GObject *object)
{
  StrataSiteRow *self = STRATA_SITE_ROW (object);

  g_free (self->text);
  g_clear_object (&self->frames);

  G_OBJECT_CLASS (strata_site_row_parent_class)->finalize (object);
}

static void
strata_site_row_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  StrataSiteRow *self = STRATA_SITE_ROW (object);

  if (prop_id == PROP_TEXT)
    g_value_set_string (value, self->text);
  else if (prop_id == PROP_SELF)
    g_value_set_double (value, self->self_share);
  else if (prop_id == PROP_ACCUMULATED)
    g_value_set_double (value, self->accumulated);
  else if (prop_id > PROP_TEXT && prop_id < PROP_SELF)
    g_value_set_uint64 (value, self->values[prop_id - PROP_RANK]);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
strata_site_row_class_init (StrataSiteRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const char *names[] = { "rank", "live-bytes", "live-objects", "allocated-bytes", "allocated-objects" };

  object_class->finalize = strata_site_row_finalize;
  object_class->get_property = strata_site_row_get_property;

  properties[PROP_TEXT] = g_param_spec_string ("text", NULL, NULL, NULL, (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    properties[PROP_RANK + i] = g_param_spec_uint64 (names[i], NULL, NULL, 0, G_MAXUINT64, 0,
                                                     (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_SELF] = g_param_spec_double ("self", NULL, NULL, 0, 100, 0, (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  properties[PROP_ACCUMULATED] = g_param_spec_double ("accumulated", NULL, NULL, 0, 100, 0,
                                                      (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
strata_site_row_init (StrataSiteRow *self)
{
}

/**
 * strata_site_row_new_site:
 * @frames: (transfer none) (nullable): its stack's frames
 */
StrataSiteRow *
strata_site_row_new_site (guint                  rank,
                          const char            *class_name,
                          const StrataAllocSite *site,
                          double                 self_share,
                          double                 accumulated,
                          GListModel            *frames)
{
  StrataSiteRow *self = g_object_new (STRATA_TYPE_SITE_ROW, NULL);

  self->self_share = self_share;
  self->accumulated = accumulated;
  self->text = g_strdup (class_name);
  self->values[0] = rank;
  self->values[1] = site->live_bytes;
  self->values[2] = site->live_objects;
  self->values[3] = site->allocated_bytes;
  self->values[4] = site->allocated_objects;
  self->frames = frames ? g_object_ref (frames) : NULL;
  return self;
}

StrataSiteRow *
strata_site_row_new_frame (const char *text)
{
  StrataSiteRow *self = g_object_new (STRATA_TYPE_SITE_ROW, NULL);

  self->text = g_strdup (text);
  self->is_frame = TRUE;
  return self;
}

const char *
strata_site_row_get_text (StrataSiteRow *self)
{
  return self->text;
}

gboolean
strata_site_row_is_frame (StrataSiteRow *self)
{
  return self->is_frame;
}

/* @column: a StrataSiteValue */
guint64
strata_site_row_get_value (StrataSiteRow *self,
                           guint          column)
{
  g_return_val_if_fail (column < G_N_ELEMENTS (self->values), 0);

  return self->values[column];
}

/**
 * strata_site_row_get_frames:
 *
 * Returns: (transfer none) (nullable): the frames of a site's stack
 */
GListModel *
strata_site_row_get_frames (StrataSiteRow *self)
{
  return self->frames;
}

/* Shares of all live bytes, in %: the site's own, and with those ranked
 * above it (as hprof's SITES table prints them). */
void
strata_site_row_get_shares (StrataSiteRow *self,
                            double        *self_share,
                            double        *accumulated)
{
  *self_share = self->self_share;
  *accumulated = self->accumulated;
}
