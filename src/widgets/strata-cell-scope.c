/* strata-cell-scope.c: callbacks of list cell templates, with data
 *
 * A column's cells come from a template in the resources. Several
 * columns share one template, so its signal handlers need to know which
 * column they serve: this scope hands each handler the column's data as
 * its last argument, where a plain GtkBuilderCScope would hand it the
 * list item.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "strata-cell-scope.h"

struct _StrataCellScope
{
  GtkBuilderCScope parent_instance;

  gpointer         data;
};

static void builder_scope_iface_init (GtkBuilderScopeInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (StrataCellScope, strata_cell_scope, GTK_TYPE_BUILDER_CSCOPE,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_BUILDER_SCOPE, builder_scope_iface_init))

static GClosure *
strata_cell_scope_create_closure (GtkBuilderScope        *scope,
                                  GtkBuilder             *builder,
                                  const char             *function_name,
                                  GtkBuilderClosureFlags  flags,
                                  GObject                *object,
                                  GError                **error)
{
  StrataCellScope *self = STRATA_CELL_SCOPE (scope);
  GCallback func = gtk_builder_cscope_lookup_callback_symbol (GTK_BUILDER_CSCOPE (self), function_name);

  if (func == NULL)
    {
      g_set_error (error, GTK_BUILDER_ERROR, GTK_BUILDER_ERROR_INVALID_FUNCTION,
                   "No function named %s in the cell scope", function_name);
      return NULL;
    }
  return g_cclosure_new (func, self->data, NULL);
}

static void
builder_scope_iface_init (GtkBuilderScopeInterface *iface)
{
  GtkBuilderScopeInterface *parent = g_type_interface_peek_parent (iface);

  iface->get_type_from_name = parent->get_type_from_name;
  iface->get_type_from_function = parent->get_type_from_function;
  iface->create_closure = strata_cell_scope_create_closure;
}

static void
strata_cell_scope_class_init (StrataCellScopeClass *klass)
{
}

static void
strata_cell_scope_init (StrataCellScope *self)
{
}

/* @data: given to every handler; it must outlive the scope's cells */
StrataCellScope *
strata_cell_scope_new (gpointer data)
{
  StrataCellScope *self = g_object_new (STRATA_TYPE_CELL_SCOPE, NULL);

  self->data = data;
  return self;
}
