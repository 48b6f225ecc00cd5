/* strata-heap-android-leaks.c: what an Android app is done with and
 * still holds, found as LeakCanary finds it
 *
 * Some objects say in their fields that the app is done with them: an
 * Activity with mDestroyed set, a Fragment whose manager let it go, a
 * window destroyed, a view detached after it was shown, a message queue
 * that quit. Such an object that a strong path from a GC root still
 * reaches is leaking. Each is shown with the shortest such path, every
 * object on it marked as LeakCanary's inspectors mark it: not leaking
 * (a class, the application, an attached view…), leaking, or unknown.
 * Objects before the last one known not to leak do not leak either;
 * objects after the first one known to leak leak too; the references
 * between the two are where the bug is. Leaks whose paths have the same
 * such references are one group. A leaking object reached only through
 * another (an activity's window) is that one's leak, not its own.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-heap.h"
#include "strata-heap-android-leaks.h"
#include "strata-heap-labels.h"
#include "strata-hprof-index.h"
#include "strata-units.h"

#define MAX_CHAIN          64
#define MAX_UNWRAP         16     /* contexts wrapping contexts */

/* What a class is to Android, from its superclasses; found once. */
#define KIND_KNOWN            (1 << 0)
#define KIND_ACTIVITY         (1 << 1)
#define KIND_FRAGMENT         (1 << 2)
#define KIND_VIEW             (1 << 3)
#define KIND_VIEW_ROOT        (1 << 4)
#define KIND_WINDOW           (1 << 5)
#define KIND_MESSAGE_QUEUE    (1 << 6)
#define KIND_CONTEXT_WRAPPER  (1 << 7)
#define KIND_CONTEXT_IMPL     (1 << 8)
#define KIND_APPLICATION      (1 << 9)
#define KIND_ACTIVITY_THREAD  (1 << 10)
#define KIND_THREAD           (1 << 11)
#define KIND_DECOR_VIEW       (1 << 12)
#define KIND_DIALOG           (1 << 13)

/* The fragment classes of the platform, the support library and AndroidX. */
static const char *const fragment_classes[] = {
  "android.app.Fragment", "android.support.v4.app.Fragment", "androidx.fragment.app.Fragment",
};

typedef struct
{
  StrataTrace      *trace;
  StrataHeapGraph  *graph;
  StrataHprofIndex *index;
  guint             n_classes;
  guint16          *kinds;      /* by class; the last for objects of no known class */
  guint32           fields_object; /* whose fields @fields are */
  GArray           *fields;     /* the last object's: inspecting one reads several */
} Search;

typedef struct
{
  StrataLeakStatus status;
  char            *reason;
} Verdict;

static guint16
kind_of_chain (const char **chain,
               guint        n)
{
  guint16 kind = KIND_KNOWN;
  gboolean context_decided = FALSE;

  for (guint i = 0; i < n; i++)
    {
      const char *name = chain[i];

      /* A ContextWrapper that is no Activity, Application or Service. */
      if (!context_decided && (g_str_equal (name, "android.app.Activity") || g_str_equal (name, "android.app.Application") ||
                               g_str_equal (name, "android.app.Service")))
        context_decided = TRUE;
      else if (!context_decided && g_str_equal (name, "android.content.ContextWrapper"))
        {
          context_decided = TRUE;
          kind |= KIND_CONTEXT_WRAPPER;
        }
      kind |= g_str_equal (name, "android.app.Activity") ? KIND_ACTIVITY : 0;
      kind |= g_str_equal (name, "android.view.View") ? KIND_VIEW : 0;
      kind |= g_str_equal (name, "com.android.internal.policy.DecorView") ? KIND_DECOR_VIEW : 0;
      kind |= g_str_equal (name, "android.view.ViewRootImpl") ? KIND_VIEW_ROOT : 0;
      kind |= g_str_equal (name, "android.view.Window") ? KIND_WINDOW : 0;
      kind |= g_str_equal (name, "android.app.Dialog") ? KIND_DIALOG : 0;
      kind |= g_str_equal (name, "android.os.MessageQueue") ? KIND_MESSAGE_QUEUE : 0;
      kind |= g_str_equal (name, "android.app.ContextImpl") ? KIND_CONTEXT_IMPL : 0;
      kind |= g_str_equal (name, "android.app.Application") ? KIND_APPLICATION : 0;
      kind |= g_str_equal (name, "android.app.ActivityThread") ? KIND_ACTIVITY_THREAD : 0;
      kind |= g_str_equal (name, "java.lang.Thread") ? KIND_THREAD : 0;
      for (guint f = 0; f < G_N_ELEMENTS (fragment_classes); f++)
        kind |= g_str_equal (name, fragment_classes[f]) ? KIND_FRAGMENT : 0;
    }
  return kind;
}

/* What @object's class is to Android; 0 for no object. */
static guint16
kind_of (Search  *search,
         guint32  object)
{
  guint klass;
  const char *chain[MAX_CHAIN];

  if (object == STRATA_HEAP_NO_OBJECT)
    return 0;
  klass = MIN (strata_heap_graph_get_class (search->graph, object), search->n_classes);
  if (search->kinds[klass] == 0)
    search->kinds[klass] = kind_of_chain (chain, strata_hprof_index_get_class_chain (search->index, search->trace, object,
                                                                                    chain, MAX_CHAIN));
  return search->kinds[klass];
}

/* @object's fields, read from the dump once for the several an
 * inspection asks for. */
static GArray *
fields_of (Search  *search,
           guint32  object)
{
  if (search->fields == NULL || search->fields_object != object)
    {
      g_clear_pointer (&search->fields, g_array_unref);
      search->fields = strata_hprof_index_get_fields (search->index, search->trace, object);
      search->fields_object = object;
    }
  return search->fields;
}

/* A reference field's object in the graph, or STRATA_HEAP_NO_OBJECT. */
static guint32
object_field (Search     *search,
              guint32     object,
              const char *owner,
              const char *name)
{
  const StrataHeapField *field = strata_heap_fields_find (fields_of (search, object), owner, name);

  if (field == NULL || field->type != STRATA_HEAP_TYPE_OBJECT || field->value == 0)
    return STRATA_HEAP_NO_OBJECT;
  return strata_heap_graph_lookup (search->graph, field->value);
}

/* A field's value as a number; @missing when there is no such field. */
static gint64
number_field (Search     *search,
              guint32     object,
              const char *owner,
              const char *name,
              gint64      missing)
{
  const StrataHeapField *field = strata_heap_fields_find (fields_of (search, object), owner, name);

  if (field == NULL)
    return missing;
  if (field->type == STRATA_HEAP_TYPE_INT)
    return (gint32) field->value;
  return (gint64) field->value;
}

/* Whether a reference field is null; FALSE when there is no such field. */
static gboolean
field_is_null (Search     *search,
               guint32     object,
               const char *owner,
               const char *name)
{
  const StrataHeapField *field = strata_heap_fields_find (fields_of (search, object), owner, name);

  return field != NULL && field->type == STRATA_HEAP_TYPE_OBJECT && field->value == 0;
}

/* The Activity a context is or wraps, or STRATA_HEAP_NO_OBJECT. */
static guint32
unwrap_activity (Search  *search,
                 guint32  context)
{
  for (guint step = 0; step < MAX_UNWRAP && context != STRATA_HEAP_NO_OBJECT; step++)
    {
      guint16 kind = kind_of (search, context);

      if (kind & KIND_ACTIVITY)
        return context;
      if (!(kind & KIND_CONTEXT_WRAPPER))
        return STRATA_HEAP_NO_OBJECT;
      context = object_field (search, context, "android.content.ContextWrapper", "mBase");
    }
  return STRATA_HEAP_NO_OBJECT;
}

/* 1: a destroyed Activity; 0: one that is not; -1: no activity, or unknown. */
static int
activity_destroyed (Search  *search,
                    guint32  activity)
{
  if (activity == STRATA_HEAP_NO_OBJECT)
    return -1;
  switch (number_field (search, activity, "android.app.Activity", "mDestroyed", -1))
    {
    case -1: return -1;
    case 0: return 0;
    default: return 1;
    }
}

static Verdict
verdict (StrataLeakStatus status,
         const char      *reason)
{
  return (Verdict) { status, reason != NULL ? g_strdup (reason) : NULL };
}

static const char *
fragment_owner (Search  *search,
                guint32  object)
{
  GArray *fields = fields_of (search, object);

  for (guint f = 0; f < G_N_ELEMENTS (fragment_classes); f++)
    if (strata_heap_fields_find (fields, fragment_classes[f], "mFragmentManager") != NULL)
      return fragment_classes[f];
  return NULL;
}

static Verdict
inspect_fragment (Search  *search,
                  guint32  object)
{
  const char *owner = fragment_owner (search, object);

  if (owner == NULL)
    return verdict (STRATA_LEAK_STATUS_UNKNOWN, NULL);
  if (field_is_null (search, object, owner, "mFragmentManager"))
    return verdict (STRATA_LEAK_STATUS_LEAKING, _("Fragment.mFragmentManager is null"));
  return verdict (STRATA_LEAK_STATUS_NOT_LEAKING, _("Fragment.mFragmentManager is not null"));
}

static Verdict
inspect_activity (Search  *search,
                  guint32  object)
{
  switch (activity_destroyed (search, object))
    {
    case 1: return verdict (STRATA_LEAK_STATUS_LEAKING, _("Activity.mDestroyed is true"));
    case 0: return verdict (STRATA_LEAK_STATUS_NOT_LEAKING, _("Activity.mDestroyed is false"));
    default: return verdict (STRATA_LEAK_STATUS_UNKNOWN, NULL);
    }
}

/* The outermost view above @view, and what holds that one (a
 * ViewRootImpl once it is attached to a window), by mParent. */
static guint32
root_of_view (Search  *search,
              guint32  view,
              guint32 *holder)
{
  guint32 root = view;

  *holder = object_field (search, view, "android.view.View", "mParent");
  for (guint step = 0; step < 4096 && *holder != STRATA_HEAP_NO_OBJECT && (kind_of (search, *holder) & KIND_VIEW); step++)
    {
      root = *holder;
      *holder = object_field (search, root, "android.view.View", "mParent");
    }
  return root;
}

static Verdict
inspect_view (Search  *search,
              guint32  object)
{
  guint32 holder, root = root_of_view (search, object, &holder);
  guint32 context = object_field (search, object, "android.view.View", "mContext");
  gboolean in_window = holder != STRATA_HEAP_NO_OBJECT || (root != object && (kind_of (search, root) & KIND_DECOR_VIEW));
  gint64 attach_count = number_field (search, object, "android.view.View", "mWindowAttachCount", 0);

  if (activity_destroyed (search, unwrap_activity (search, context)) == 1)
    return verdict (STRATA_LEAK_STATUS_LEAKING, _("View.mContext references a destroyed activity"));
  if (!in_window || attach_count <= 0)
    return verdict (STRATA_LEAK_STATUS_UNKNOWN, NULL);
  if (field_is_null (search, object, "android.view.View", "mAttachInfo"))
    return verdict (STRATA_LEAK_STATUS_LEAKING, _("View detached yet still part of a window's view hierarchy"));
  if (root != object && field_is_null (search, root, "android.view.View", "mAttachInfo"))
    return verdict (STRATA_LEAK_STATUS_LEAKING, _("View attached but its root view is detached"));
  return verdict (STRATA_LEAK_STATUS_NOT_LEAKING, _("View attached"));
}

/* LeakCanary reports a view only at the top of its hierarchy: one with
 * no parent, or a ViewRootImpl's child. */
static gboolean
view_is_leaking_root (Search  *search,
                      guint32  object)
{
  guint32 parent = object_field (search, object, "android.view.View", "mParent");
  gboolean child_of_root = parent != STRATA_HEAP_NO_OBJECT && !(kind_of (search, parent) & KIND_VIEW);
  guint32 context = object_field (search, object, "android.view.View", "mContext");

  if (parent != STRATA_HEAP_NO_OBJECT && !child_of_root)
    return FALSE;
  if (activity_destroyed (search, unwrap_activity (search, context)) == 1)
    return TRUE;
  /* Detached once attached: a dialog's root, or a DecorView (cached views
   * are detached too, and are left out). */
  return field_is_null (search, object, "android.view.View", "mAttachInfo") &&
         number_field (search, object, "android.view.View", "mWindowAttachCount", 0) > 0 &&
         (child_of_root || (kind_of (search, object) & KIND_DECOR_VIEW));
}

static Verdict
inspect_view_root (Search  *search,
                   guint32  object)
{
  guint32 context = object_field (search, object, "android.view.ViewRootImpl", "mContext");

  if (field_is_null (search, object, "android.view.ViewRootImpl", "mView"))
    return verdict (STRATA_LEAK_STATUS_LEAKING, _("ViewRootImpl.mView is null"));
  if (activity_destroyed (search, unwrap_activity (search, context)) == 1)
    return verdict (STRATA_LEAK_STATUS_LEAKING, _("ViewRootImpl.mContext references a destroyed activity"));
  return verdict (STRATA_LEAK_STATUS_UNKNOWN, NULL);
}

static Verdict
inspect_message_queue (Search  *search,
                       guint32  object)
{
  gint64 quitting = number_field (search, object, "android.os.MessageQueue", "mQuitting",
                                  number_field (search, object, "android.os.MessageQueue", "mQuiting", -1));

  if (quitting < 0)
    return verdict (STRATA_LEAK_STATUS_UNKNOWN, NULL);
  if (quitting > 0)
    return verdict (STRATA_LEAK_STATUS_LEAKING, _("MessageQueue.mQuitting is true"));
  return verdict (STRATA_LEAK_STATUS_NOT_LEAKING, _("MessageQueue.mQuitting is false"));
}

/* A context that wraps a destroyed Activity; ContextImpl by its outer one. */
static Verdict
inspect_context (Search  *search,
                 guint32  object,
                 guint16  kind)
{
  guint32 context = object;

  if (kind & KIND_CONTEXT_IMPL)
    {
      context = object_field (search, object, "android.app.ContextImpl", "mOuterContext");
      if (context != STRATA_HEAP_NO_OBJECT && (kind_of (search, context) & KIND_APPLICATION))
        return verdict (STRATA_LEAK_STATUS_NOT_LEAKING, _("ContextImpl.mOuterContext is the Application"));
    }
  if (activity_destroyed (search, unwrap_activity (search, context)) == 1)
    return verdict (STRATA_LEAK_STATUS_LEAKING, kind & KIND_CONTEXT_IMPL ? _("ContextImpl.mOuterContext is a destroyed activity")
                                                                         : _("wraps an Activity with Activity.mDestroyed true"));
  return verdict (STRATA_LEAK_STATUS_UNKNOWN, NULL);
}

static Verdict
inspect_thread (Search  *search,
                guint32  object)
{
  guint32 name = object_field (search, object, "java.lang.Thread", "name");
  g_autofree char *text = name != STRATA_HEAP_NO_OBJECT ? strata_hprof_index_dup_string (search->index, search->trace, name) : NULL;

  if (g_strcmp0 (text, "main") == 0)
    return verdict (STRATA_LEAK_STATUS_NOT_LEAKING, _("the main thread always runs"));
  return verdict (STRATA_LEAK_STATUS_UNKNOWN, NULL);
}

/* What LeakCanary's inspectors say of @object. */
static Verdict
inspect (Search  *search,
         guint32  object)
{
  guint16 kind;

  if (strata_heap_class_object_name (search->trace, object) != NULL)
    return verdict (STRATA_LEAK_STATUS_NOT_LEAKING, _("a class is never leaking"));
  kind = kind_of (search, object);
  if (kind & KIND_ACTIVITY)
    return inspect_activity (search, object);
  if (kind & KIND_FRAGMENT)
    return inspect_fragment (search, object);
  if (kind & KIND_VIEW)
    return inspect_view (search, object);
  if (kind & KIND_VIEW_ROOT)
    return inspect_view_root (search, object);
  if (kind & KIND_WINDOW)
    return number_field (search, object, "android.view.Window", "mDestroyed", 0) != 0
           ? verdict (STRATA_LEAK_STATUS_LEAKING, _("Window.mDestroyed is true"))
           : verdict (STRATA_LEAK_STATUS_UNKNOWN, NULL);
  if (kind & KIND_MESSAGE_QUEUE)
    return inspect_message_queue (search, object);
  if (kind & (KIND_CONTEXT_WRAPPER | KIND_CONTEXT_IMPL))
    return inspect_context (search, object, kind);
  if (kind & KIND_APPLICATION)
    return verdict (STRATA_LEAK_STATUS_NOT_LEAKING, _("Application is a singleton"));
  if (kind & KIND_ACTIVITY_THREAD)
    return verdict (STRATA_LEAK_STATUS_NOT_LEAKING, _("ActivityThread is a singleton"));
  if (kind & KIND_THREAD)
    return inspect_thread (search, object);
  return verdict (STRATA_LEAK_STATUS_UNKNOWN, NULL);
}

#define LEAK_CANDIDATES (KIND_ACTIVITY | KIND_FRAGMENT | KIND_VIEW | KIND_VIEW_ROOT | KIND_WINDOW | KIND_MESSAGE_QUEUE | \
                         KIND_CONTEXT_WRAPPER | KIND_CONTEXT_IMPL)

/* Whether @object is one to report: known dead, and (a view) the top of
 * its hierarchy. */
static gboolean
is_leaking_object (Search  *search,
                   guint32  object)
{
  guint16 kind = kind_of (search, object);
  Verdict seen;
  gboolean leaking;

  if (!(kind & LEAK_CANDIDATES))
    return FALSE;
  if (kind & KIND_VIEW)
    return view_is_leaking_root (search, object);
  seen = inspect (search, object);
  leaking = seen.status == STRATA_LEAK_STATUS_LEAKING;
  g_free (seen.reason);
  return leaking;
}

/**
 * strata_heap_has_android_classes:
 *
 * Whether the dump has any class Android's leaks are made of: the search
 * reads no object of a dump without one.
 */
gboolean
strata_heap_has_android_classes (StrataTrace *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);

  if (heap == NULL)
    return FALSE;
  for (guint i = 0; i < strata_heap_get_n_classes (heap); i++)
    {
      const char *name = strata_heap_class_label (trace, i);

      if (g_str_has_prefix (name, "android.") || g_str_has_prefix (name, "androidx."))
        return TRUE;
    }
  return FALSE;
}

static void
step_clear (gpointer data)
{
  StrataLeakStep *step = data;

  g_free (step->reason);
  g_free (step->reference);
}

static void
leak_free (gpointer data)
{
  StrataAndroidLeak *leak = data;

  g_array_unref (leak->objects);
  g_array_unref (leak->steps);
  g_free (leak->signature);
  g_free (leak);
}

/* The class's name without its package, as a path's marks name it. */
static const char *
simple_name (StrataTrace *trace,
             guint32      object)
{
  const char *klass = strata_heap_class_object_name (trace, object);
  const char *name = klass != NULL ? klass : strata_heap_object_class_label (trace, object);
  const char *dot = strrchr (name, '.');

  return dot != NULL ? dot + 1 : name;
}

/* Unknown steps before the last known not to leak do not leak; those
 * after the first known to leak do. Returns the first leaking step. */
static guint
spread_statuses (StrataTrace *trace,
                 GArray      *steps)
{
  StrataLeakStep *s = (StrataLeakStep *) steps->data;
  guint n = steps->len, last_not = 0, first_leaking = n - 1;
  gboolean any_not = FALSE;

  for (guint i = 0; i + 1 < n; i++)
    if (s[i].status == STRATA_LEAK_STATUS_NOT_LEAKING)
      last_not = i, any_not = TRUE;
  for (guint i = any_not ? last_not + 1 : 0; i < n; i++)
    if (s[i].status == STRATA_LEAK_STATUS_LEAKING)
      {
        first_leaking = i;
        break;
      }
  for (guint i = 0; i < n; i++)
    {
      gboolean before = any_not && i < last_not, after = i > first_leaking;
      StrataLeakStatus status = before ? STRATA_LEAK_STATUS_NOT_LEAKING : STRATA_LEAK_STATUS_LEAKING;

      if (!before && !after)
        continue;
      if (s[i].status != status)
        {
          g_free (s[i].reason);
          /* Translators: %s is a class; the arrow points at where it is on the path */
          s[i].reason = g_strdup_printf (before ? _("%s↓ is not leaking") : _("%s↑ is leaking"),
                                         simple_name (trace, s[before ? last_not : first_leaking].object));
        }
      s[i].status = status;
    }
  for (guint i = 1; i < n; i++)
    s[i].suspect = (!any_not || i > last_not) && i <= first_leaking;
  return first_leaking;
}

/* The path's suspect references, array places as one: the group's key. */
static char *
signature_of (StrataTrace  *trace,
              const GArray *steps)
{
  GString *text = g_string_new (NULL);

  for (guint i = 1; i < steps->len; i++)
    {
      const StrataLeakStep *step = &g_array_index (steps, StrataLeakStep, i);
      guint32 from = g_array_index (steps, StrataLeakStep, i - 1).object;

      if (!step->suspect)
        continue;
      if (text->len > 0)
        g_string_append (text, " → ");
      const char *klass = strata_heap_class_object_name (trace, from);

      g_string_append_printf (text, "%s.%s", klass != NULL ? klass : strata_heap_object_class_label (trace, from),
                              step->reference[0] == '[' ? "[x]" : step->reference);
    }
  return g_string_free (text, FALSE);
}

/* The path to @object, each step marked; NULL when no root reaches it or
 * it goes through another leaking object. */
static GArray *
marked_path (Search           *search,
             guint32           object,
             GHashTable       *leaking)
{
  guint32 n;
  g_autofree guint32 *path = strata_heap_graph_path_from_root (search->graph, object, &n);
  GArray *steps;

  if (path == NULL)
    return NULL;
  for (guint32 i = 0; i + 1 < n; i++)
    if (g_hash_table_contains (leaking, GUINT_TO_POINTER (path[i])))
      return NULL;
  steps = g_array_sized_new (FALSE, TRUE, sizeof (StrataLeakStep), n);
  g_array_set_clear_func (steps, step_clear);
  for (guint32 i = 0; i < n; i++)
    {
      Verdict seen = inspect (search, path[i]);
      StrataLeakStep step = { path[i], seen.status, seen.reason, NULL, FALSE };

      if (i > 0)
        step.reference = strata_hprof_index_name_reference (search->index, search->trace, path[i - 1], path[i]);
      g_array_append_val (steps, step);
    }
  if (g_array_index (steps, StrataLeakStep, n - 1).status != STRATA_LEAK_STATUS_LEAKING)
    {
      StrataLeakStep *last = &g_array_index (steps, StrataLeakStep, n - 1);

      /* A view at the top of its hierarchy, detached once shown. */
      g_free (last->reason);
      last->reason = g_strdup (_("View detached after it was shown, yet still held"));
      last->status = STRATA_LEAK_STATUS_LEAKING;
    }
  spread_statuses (search->trace, steps);
  return steps;
}

/* Every object the app is done with, by the heap's order. */
static GArray *
find_leaking_objects (Search *search)
{
  GArray *found = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 n = strata_heap_graph_get_n_objects (search->graph);

  for (guint32 object = 0; object < n; object++)
    if (strata_heap_graph_is_reachable (search->graph, object) && is_leaking_object (search, object))
      g_array_append_val (found, object);
  return found;
}

static int
compare_by_retained (gconstpointer a,
                     gconstpointer b,
                     gpointer      data)
{
  guint64 ra = strata_heap_graph_get_retained (data, *(const guint32 *) a);
  guint64 rb = strata_heap_graph_get_retained (data, *(const guint32 *) b);

  return ra > rb ? -1 : ra < rb;
}

static int
compare_leaks (gconstpointer a,
               gconstpointer b)
{
  const StrataAndroidLeak *la = *(StrataAndroidLeak *const *) a, *lb = *(StrataAndroidLeak *const *) b;

  if (la->retained != lb->retained)
    return la->retained > lb->retained ? -1 : 1;
  return g_strcmp0 (la->signature, lb->signature);
}

/* Leaks by the shape of their paths: one group per signature. */
static GPtrArray *
group_leaks (Search *search,
             GArray *objects)
{
  g_autoptr(GHashTable) leaking = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) groups = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *leaks = g_ptr_array_new_with_free_func (leak_free);

  for (guint i = 0; i < objects->len; i++)
    g_hash_table_add (leaking, GUINT_TO_POINTER (g_array_index (objects, guint32, i)));
  /* The most retained first: each group's path is its largest's. */
  g_array_sort_with_data (objects, compare_by_retained, search->graph);
  for (guint i = 0; i < objects->len; i++)
    {
      guint32 object = g_array_index (objects, guint32, i);
      g_autoptr(GArray) steps = marked_path (search, object, leaking);
      g_autofree char *signature = steps != NULL ? signature_of (search->trace, steps) : NULL;
      StrataAndroidLeak *leak;

      if (steps == NULL)
        continue;
      if ((leak = g_hash_table_lookup (groups, signature)) == NULL)
        {
          leak = g_new0 (StrataAndroidLeak, 1);
          leak->objects = g_array_new (FALSE, FALSE, sizeof (guint32));
          leak->steps = g_steal_pointer (&steps);
          leak->signature = g_steal_pointer (&signature);
          g_hash_table_insert (groups, leak->signature, leak);
          g_ptr_array_add (leaks, leak);
        }
      g_array_append_val (leak->objects, object);
      leak->retained += strata_heap_graph_get_retained (search->graph, object);
    }
  g_ptr_array_sort (leaks, compare_leaks);
  return leaks;
}

/**
 * strata_heap_find_android_leaks:
 *
 * Returns: (transfer full) (element-type StrataAndroidLeak): the leaks, the
 *   most retained first; empty for a dump without Android's classes or
 *   without a graph
 */
GPtrArray *
strata_heap_find_android_leaks (StrataTrace *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  Search search = { trace, heap != NULL ? strata_heap_get_graph (heap) : NULL, heap != NULL ? strata_heap_get_index (heap) : NULL };
  g_autoptr(GArray) objects = NULL;
  g_autofree guint16 *kinds = NULL;
  GPtrArray *leaks;

  if (search.graph == NULL || search.index == NULL || !strata_heap_has_android_classes (trace))
    return g_ptr_array_new_with_free_func (leak_free);
  search.n_classes = strata_heap_get_n_classes (heap);
  search.kinds = kinds = g_new0 (guint16, search.n_classes + 1);
  objects = find_leaking_objects (&search);
  leaks = group_leaks (&search, objects);
  g_clear_pointer (&search.fields, g_array_unref);
  return leaks;
}

/**
 * strata_android_leak_describe:
 *
 * Returns: (transfer full): "2 com.example.MainActivity leak and retain
 *   12.3 kB: Activity.mDestroyed is true"
 */
char *
strata_android_leak_describe (StrataTrace             *trace,
                              const StrataAndroidLeak *leak)
{
  const StrataLeakStep *last = &g_array_index (leak->steps, StrataLeakStep, leak->steps->len - 1);
  g_autofree char *bytes = g_format_size (leak->retained);
  g_autofree char *count = strata_units_format_count (leak->objects->len);
  const char *klass = strata_heap_object_class_label (trace, last->object);

  /* Translators: "1 com.example.MainActivity leaks and retains 12.3 kB: Activity.mDestroyed is true" */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s %s leaks and retains %s: %s", "%s %s leak and retain %s: %s",
                                       leak->objects->len),
                          count, klass, bytes, last->reason != NULL ? last->reason : "");
}

const char *
strata_leak_status_get_name (StrataLeakStatus status)
{
  switch (status)
    {
    case STRATA_LEAK_STATUS_NOT_LEAKING: return _("not leaking");
    case STRATA_LEAK_STATUS_LEAKING: return _("leaking");
    case STRATA_LEAK_STATUS_UNKNOWN:
    default: return _("unknown");
    }
}

/* As JSON reports name it. */
const char *
strata_leak_status_get_id (StrataLeakStatus status)
{
  switch (status)
    {
    case STRATA_LEAK_STATUS_NOT_LEAKING: return "not_leaking";
    case STRATA_LEAK_STATUS_LEAKING: return "leaking";
    case STRATA_LEAK_STATUS_UNKNOWN:
    default: return "unknown";
    }
}
