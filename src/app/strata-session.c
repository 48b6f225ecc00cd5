/* strata-session.c: view state shared by the widgets of one window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-session.h"

struct _StrataSession
{
  GObject      parent_instance;

  StrataTrace *trace;
};

enum {
  PROP_0,
  PROP_TRACE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (StrataSession, strata_session, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
strata_session_dispose (GObject *object)
{
  StrataSession *self = (StrataSession *)object;

  g_clear_object (&self->trace);

  G_OBJECT_CLASS (strata_session_parent_class)->dispose (object);
}

static void
strata_session_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  StrataSession *self = STRATA_SESSION (object);

  switch (prop_id)
    {
    case PROP_TRACE:
      g_value_set_object (value, self->trace);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strata_session_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  StrataSession *self = STRATA_SESSION (object);

  switch (prop_id)
    {
    case PROP_TRACE:
      strata_session_set_trace (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
strata_session_class_init (StrataSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = strata_session_dispose;
  object_class->get_property = strata_session_get_property;
  object_class->set_property = strata_session_set_property;

  properties[PROP_TRACE] =
    g_param_spec_object ("trace", NULL, NULL,
                         STRATA_TYPE_TRACE,
                         (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
strata_session_init (StrataSession *self)
{
}

StrataSession *
strata_session_new (void)
{
  return g_object_new (STRATA_TYPE_SESSION, NULL);
}

/**
 * strata_session_get_trace:
 *
 * Returns: (transfer none) (nullable): the trace on show
 */
StrataTrace *
strata_session_get_trace (StrataSession *self)
{
  g_return_val_if_fail (STRATA_IS_SESSION (self), NULL);

  return self->trace;
}

void
strata_session_set_trace (StrataSession *self,
                          StrataTrace   *trace)
{
  g_return_if_fail (STRATA_IS_SESSION (self));
  g_return_if_fail (!trace || STRATA_IS_TRACE (trace));

  if (g_set_object (&self->trace, trace))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRACE]);
}
