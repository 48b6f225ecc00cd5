/* strata-heap-suspects.c: what in a heap dump most likely leaks, named
 *
 * As Eclipse MAT's Leak Suspects, from the dominator tree: what retains
 * more than a tenth of the reachable heap, followed down to where its
 * memory accumulates (the first object whose largest child retains less
 * than 70 % of it). MAT stops at the top of the tree, so on a JDK 9+ dump
 * it names the application class loader, which holds every class and so
 * every static field. Here the suspects are found under such holders:
 * every chain of objects that each retain more than a tenth is followed
 * to its end, and on it the suspect is the first object past the last
 * class object or thread (what a static field or a thread holds), or,
 * further down, the first object of an application's own class. The
 * JDK's and libraries' types (collections, arrays, loaders) are never a
 * suspect on their own: they are named by what holds them ("the HashMap
 * held by static field OrderCache.CACHE"). Instances of one application
 * class that are each held on their own and together retain more than a
 * tenth form a group, as in MAT.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-heap.h"
#include "strata-heap-labels.h"
#include "strata-heap-suspects.h"
#include "strata-hprof-index.h"
#include "strata-units.h"

#define SUSPECT_SHARE  0.10
#define BIG_DROP_RATIO 0.7
#define NO_CLASS G_MAXUINT

/* What a class's instances are to the search, found once per class. */
#define KIND_GENERIC      (1 << 0)
#define KIND_CLASS_OBJECT (1 << 1)
#define KIND_THREAD_NAMED (1 << 2)

typedef struct
{
  StrataTrace      *trace;
  const StrataHeap *heap;
  StrataHeapGraph  *graph;
  guint64           threshold;
  GArray           *found;    /* StrataHeapSuspect */
  guint             n_classes;
  guint8           *kinds;    /* by class; the last for objects of no known class */
} Search;

/* The JDK's, Android's and common libraries' types, and arrays of them
 * or of primitives: what programs build with, not what they are. */
static gboolean
is_generic_class (const char *name)
{
  static const char *const prefixes[] = {
    "java.", "javax.", "jdk.", "sun.", "com.sun.", "android.", "androidx.", "dalvik.", "libcore.",
    "kotlin.", "kotlinx.", "scala.",
  };
  g_autofree char *element = g_strdup (name);
  gsize len = strlen (element);

  while (len >= 2 && strcmp (element + len - 2, "[]") == 0)
    element[len -= 2] = '\0';
  if (strchr (element, '.') == NULL)
    return strcmp (element, name) != 0 || *element == '(';   /* a primitive array, or "(unknown class)" */
  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (element, prefixes[i]))
      return TRUE;
  return FALSE;
}

/* A thread object: a root as one, or of a class named as one (a thread a
 * frame holds is a Java frame root). */
static gboolean
is_thread (StrataTrace *trace,
           guint32      object)
{
  StrataHeapGraph *graph = strata_heap_get_graph (strata_trace_get_heap (trace));

  return strata_heap_graph_get_root_kind (graph, object) == STRATA_ROOT_THREAD_OBJECT ||
         g_str_has_suffix (strata_heap_object_class_label (trace, object), "Thread");
}

/* Each class's kind, from its name: chains millions long ask it of each
 * of their objects. */
static void
classify_classes (Search *search)
{
  search->n_classes = strata_heap_get_n_classes (search->heap);
  search->kinds = g_new0 (guint8, search->n_classes + 1);
  for (guint c = 0; c <= search->n_classes; c++)
    {
      const char *name = strata_heap_class_label (search->trace, c);

      search->kinds[c] = (is_generic_class (name) ? KIND_GENERIC : 0) |
                         (g_str_equal (name, "java.lang.Class") ? KIND_CLASS_OBJECT : 0) |
                         (g_str_has_suffix (name, "Thread") ? KIND_THREAD_NAMED : 0);
    }
}

static guint8
kind_of (const Search *search,
         guint32       object)
{
  return search->kinds[MIN (strata_heap_graph_get_class (search->graph, object), search->n_classes)];
}

static gboolean
is_generic (const Search *search,
            guint32       object)
{
  return (kind_of (search, object) & KIND_GENERIC) != 0;
}

/* What holds static fields or a thread's locals, at @depth in a chain
 * down the dominator tree: the suspect is below. A GC root, a thread
 * object root among them, is only ever at the top. */
static gboolean
is_holder (const Search *search,
           guint32       object,
           guint32       depth)
{
  return (kind_of (search, object) & (KIND_CLASS_OBJECT | KIND_THREAD_NAMED)) != 0 ||
         (depth == 0 && strata_heap_graph_get_root_kind (search->graph, object) == STRATA_ROOT_THREAD_OBJECT);
}

/* ---- Where the memory accumulates ---- */

static guint32
accumulation_point (StrataHeapGraph *graph,
                    guint32          object)
{
  for (;;)
    {
      guint32 n;
      const guint32 *children = strata_heap_graph_get_dominated (graph, object, &n);

      if (n == 0 || strata_heap_graph_get_retained (graph, children[0]) <
                    BIG_DROP_RATIO * strata_heap_graph_get_retained (graph, object))
        return object;
      object = children[0];
    }
}

/* The class that retains the most among @objects, and how many of them
 * are of it; G_MAXUINT for none. */
static guint
main_class (Search        *search,
            const guint32 *objects,
            guint32        n,
            guint64       *count)
{
  guint n_classes = strata_heap_get_n_classes (search->heap);
  g_autofree guint64 *bytes = g_new0 (guint64, n_classes + 1);
  g_autofree guint64 *counts = g_new0 (guint64, n_classes + 1);
  guint best = NO_CLASS;

  for (guint32 i = 0; i < n; i++)
    {
      guint klass = MIN (strata_heap_graph_get_class (search->graph, objects[i]), n_classes);

      bytes[klass] += strata_heap_graph_get_retained (search->graph, objects[i]);
      counts[klass]++;
      if (best == NO_CLASS || bytes[klass] > bytes[best])
        best = klass;
    }
  *count = best != NO_CLASS ? counts[best] : 0;
  return best < n_classes ? best : NO_CLASS;
}

/* What the accumulation point holds: its children's main class, or, when
 * those are the JDK's (a map's nodes), what they hold in turn. */
static void
find_content (Search            *search,
              StrataHeapSuspect *suspect)
{
  guint32 n;
  const guint32 *children = strata_heap_graph_get_dominated (search->graph, suspect->accumulation, &n);
  g_autoptr(GArray) inner = NULL;
  guint klass, inner_class;
  guint64 inner_count = 0;

  klass = main_class (search, children, n, &suspect->n_content);
  suspect->content_class = klass;
  if (klass == NO_CLASS || !(search->kinds[klass] & KIND_GENERIC))
    return;
  inner = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint32 i = 0; i < n; i++)
    {
      guint32 m;
      const guint32 *grandchildren = strata_heap_graph_get_dominated (search->graph, children[i], &m);

      if (strata_heap_graph_get_class (search->graph, children[i]) != klass)
        continue;
      for (guint32 j = 0; j < m; j++)
        if (!is_generic (search, grandchildren[j]))
          g_array_append_val (inner, grandchildren[j]);
    }
  inner_class = main_class (search, (const guint32 *) inner->data, inner->len, &inner_count);
  if (inner_class != NO_CLASS)
    {
      suspect->content_class = inner_class;
      suspect->n_content = inner_count;
    }
}

/* ---- Suspects from chains of big objects ---- */

/* @chain runs from the top of the dominator tree to an object none of
 * whose children retains more than a tenth: the suspect on it. */
static void
suspect_on_chain (Search        *search,
                  const guint32 *chain,
                  guint32        n)
{
  StrataHeapSuspect suspect = { .group_class = NO_CLASS, .holder = STRATA_HEAP_NO_OBJECT };
  gint64 holder = -1;
  guint32 at;

  for (guint32 i = n; i-- > 0 && holder < 0;)
    if (is_holder (search, chain[i], i))
      holder = i;
  if ((guint32) (holder + 1) >= n)
    at = n - 1;
  else
    {
      for (at = holder + 1; at < n && is_generic (search, chain[at]); at++)
        ;
      if (at == n)
        at = holder + 1;
    }
  if (holder >= 0 && at > holder)
    suspect.holder = chain[holder];
  else if (at > 0)
    suspect.holder = chain[at - 1];
  suspect.object = chain[at];
  for (guint i = 0; i < search->found->len; i++)
    if (g_array_index (search->found, StrataHeapSuspect, i).object == suspect.object)
      return;
  suspect.retained = strata_heap_graph_get_retained (search->graph, suspect.object);
  suspect.accumulation = accumulation_point (search->graph, suspect.object);
  find_content (search, &suspect);
  /* The classes a loader holds are no leak of their own. */
  if (suspect.content_class != NO_CLASS &&
      g_str_equal (strata_heap_class_label (search->trace, suspect.content_class), "java.lang.Class"))
    return;
  g_array_append_val (search->found, suspect);
}

/* Walks down every chain of objects that retain more than the threshold,
 * without recursion: a linked list makes a chain millions long. @chain
 * holds the objects walked, each one's children read from @next on. */
static void
follow_big_chains (Search *search)
{
  g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) next = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 zero = 0;

  g_array_append_val (next, zero);
  while (next->len > 0)
    {
      guint32 parent = chain->len > 0 ? g_array_index (chain, guint32, chain->len - 1) : STRATA_HEAP_NO_OBJECT;
      guint32 *child = &g_array_index (next, guint32, next->len - 1);
      guint32 n, n_children, object;
      const guint32 *siblings = strata_heap_graph_get_dominated (search->graph, parent, &n);
      const guint32 *children;

      if (*child >= n || strata_heap_graph_get_retained (search->graph, siblings[*child]) <= search->threshold)
        {
          g_array_set_size (next, next->len - 1);
          if (chain->len > 0)
            g_array_set_size (chain, chain->len - 1);
          continue;
        }
      object = siblings[(*child)++];
      children = strata_heap_graph_get_dominated (search->graph, object, &n_children);
      g_array_append_val (chain, object);
      if (n_children > 0 && strata_heap_graph_get_retained (search->graph, children[0]) > search->threshold)
        {
          g_array_append_val (next, zero);
          continue;
        }
      suspect_on_chain (search, (const guint32 *) chain->data, chain->len);
      g_array_set_size (chain, chain->len - 1);
    }
}

/* Instances of one application class, each at the top of the tree, that
 * retain more than the threshold together. */
static void
find_groups (Search *search)
{
  guint n_classes = strata_heap_get_n_classes (search->heap);
  g_autofree guint64 *bytes = g_new0 (guint64, n_classes);
  g_autofree guint64 *counts = g_new0 (guint64, n_classes);
  g_autofree guint32 *largest = g_new (guint32, n_classes);
  guint32 n;
  const guint32 *top = strata_heap_graph_get_dominated (search->graph, STRATA_HEAP_NO_OBJECT, &n);

  for (guint32 i = 0; i < n; i++)
    {
      guint klass = strata_heap_graph_get_class (search->graph, top[i]);
      guint64 retained = strata_heap_graph_get_retained (search->graph, top[i]);

      if (klass >= n_classes || retained > search->threshold)
        continue;
      /* Largest first: the first of a class is its largest. */
      if (counts[klass]++ == 0)
        largest[klass] = top[i];
      bytes[klass] += retained;
    }
  for (guint c = 0; c < n_classes; c++)
    {
      StrataHeapSuspect group = { .holder = STRATA_HEAP_NO_OBJECT, .group_class = c, .n_group = counts[c], .retained = bytes[c] };

      if (bytes[c] <= search->threshold || counts[c] < 2 || (search->kinds[c] & KIND_GENERIC))
        continue;
      group.object = largest[c];
      group.accumulation = accumulation_point (search->graph, group.object);
      find_content (search, &group);
      g_array_append_val (search->found, group);
    }
}

static int
compare_suspects (gconstpointer a,
                  gconstpointer b)
{
  const StrataHeapSuspect *x = a, *y = b;

  return x->retained > y->retained ? -1 : x->retained < y->retained;
}

/**
 * strata_heap_find_leak_suspects:
 *
 * Returns: (transfer full): StrataHeapSuspect, the most retained first;
 *   none without a graph
 */
GArray *
strata_heap_find_leak_suspects (StrataTrace *trace)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  Search search = { trace, heap, heap != NULL ? strata_heap_get_graph (heap) : NULL, 0,
                    g_array_new (FALSE, FALSE, sizeof (StrataHeapSuspect)), 0, NULL };

  if (search.graph == NULL || strata_heap_graph_get_reachable_bytes (search.graph) == 0)
    return search.found;
  search.threshold = SUSPECT_SHARE * strata_heap_graph_get_reachable_bytes (search.graph);
  classify_classes (&search);
  follow_big_chains (&search);
  find_groups (&search);
  g_free (search.kinds);
  g_array_sort (search.found, compare_suspects);
  return search.found;
}

/* ---- Naming them ---- */

/* A thread's name, from its "name" field, or NULL. */
static char *
dup_thread_name (StrataTrace *trace,
                 guint32      thread)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  StrataHeapGraph *graph = strata_heap_get_graph (heap);
  g_autoptr(GArray) fields = strata_hprof_index_get_fields (strata_heap_get_index (heap), trace, thread);

  /* A subclass's own field of that name comes first; the Thread's after. */
  for (guint i = 0; fields != NULL && i < fields->len; i++)
    {
      const StrataHeapField *field = &g_array_index (fields, StrataHeapField, i);
      guint32 name;

      if (field->is_static || field->type != STRATA_HEAP_TYPE_OBJECT || !g_str_equal (field->name, "name"))
        continue;
      name = strata_heap_graph_lookup (graph, field->value);
      return name != STRATA_HEAP_NO_OBJECT ? strata_hprof_index_dup_string (strata_heap_get_index (heap), trace, name) : NULL;
    }
  return NULL;
}

/* The field of @from that refers to @to, without "static ", or NULL. */
static char *
dup_field (StrataTrace *trace,
           guint32      from,
           guint32      to,
           gboolean    *is_static)
{
  const StrataHeap *heap = strata_trace_get_heap (trace);
  g_autofree char *field = strata_hprof_index_name_reference (strata_heap_get_index (heap), trace, from, to);

  *is_static = field != NULL && g_str_has_prefix (field, "static ");
  if (field == NULL || field[0] == '\0' || field[0] == '[')
    return NULL;
  return g_strdup (*is_static ? field + strlen ("static ") : field);
}

/**
 * strata_heap_suspect_describe_holder:
 *
 * Returns: (transfer full): what holds the suspect: "static field
 *   OrderCache.CACHE", "thread “worker”", "a GC root (Java frame)", "field
 *   table of java.util.HashMap 0x…"
 */
char *
strata_heap_suspect_describe_holder (StrataTrace             *trace,
                                     const StrataHeapSuspect *suspect)
{
  StrataHeapGraph *graph = strata_heap_get_graph (strata_trace_get_heap (trace));
  const char *klass;
  gboolean is_static = FALSE;
  g_autofree char *field = NULL, *name = NULL, *label = NULL;

  if (suspect->holder == STRATA_HEAP_NO_OBJECT)
    /* Translators: %s is the kind of GC root ("Java frame", "JNI global") */
    return g_strdup_printf (_("a GC root (%s)"), strata_root_kind_get_name (strata_heap_graph_get_root_kind (graph, suspect->object)));
  field = dup_field (trace, suspect->holder, suspect->object, &is_static);
  if ((klass = strata_heap_class_object_name (trace, suspect->holder)) != NULL)
    return field != NULL && is_static ? g_strdup_printf (_("static field %s.%s"), klass, field)
                                      : g_strdup_printf (_("the static fields of class %s"), klass);
  if (is_thread (trace, suspect->holder) && (name = dup_thread_name (trace, suspect->holder)) != NULL)
    return g_strdup_printf (_("thread “%s”"), name);
  label = strata_heap_describe_object (trace, suspect->holder);
  if (field != NULL)
    /* Translators: a field's name, then the object that has it */
    return g_strdup_printf (_("field %s of %s"), field, label);
  return g_steal_pointer (&label);
}

/* The suspect's class, a class object as "class X". */
static char *
dup_suspect_name (StrataTrace *trace,
                  guint32      object)
{
  const char *klass = strata_heap_class_object_name (trace, object);

  return klass != NULL ? g_strdup_printf (_("class %s"), klass) : g_strdup (strata_heap_object_class_label (trace, object));
}

static char *
describe_accumulation (StrataTrace             *trace,
                       const StrataHeapSuspect *suspect)
{
  g_autofree char *count = strata_units_format_count (suspect->n_content);
  g_autofree char *point = dup_suspect_name (trace, suspect->accumulation);
  /* One of a kind is no crowd: only a class's many instances are named. */
  const char *content = suspect->content_class != NO_CLASS && suspect->n_content > 1
                        ? strata_heap_class_label (trace, suspect->content_class) : NULL;

  if (suspect->accumulation != suspect->object)
    {
      if (content == NULL)
        /* Translators: %s is the class of the object the memory is in */
        return g_strdup_printf (_("The memory accumulates in one %s."), point);
      /* Translators: the class of the object the memory is in, then how many of what it holds */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "The memory accumulates in one %s with %s %s entry.",
                                           "The memory accumulates in one %s with %s %s entries.", suspect->n_content),
                              point, count, content);
    }
  if (content == NULL)
    return g_strdup ("");
  /* Translators: how many objects of a class the suspect holds */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "It holds %s %s entry.", "It holds %s %s entries.", suspect->n_content),
                          count, content);
}

/**
 * strata_heap_suspect_describe:
 *
 * Returns: (transfer full): the suspect in a sentence or two, as Eclipse
 *   MAT describes one: "One java.util.HashMap held by static field
 *   OrderCache.CACHE retains 7.3 MB (41.0 %). The memory accumulates in
 *   one java.util.HashMap$Node[] with 3,000 Order entries."
 */
char *
strata_heap_suspect_describe (StrataTrace             *trace,
                              const StrataHeapSuspect *suspect)
{
  StrataHeapGraph *graph = strata_heap_get_graph (strata_trace_get_heap (trace));
  double share = 100.0 * suspect->retained / MAX (strata_heap_graph_get_reachable_bytes (graph), 1);
  g_autofree char *size = g_format_size (suspect->retained);
  g_autofree char *first = NULL, *then = NULL;

  if (suspect->group_class != NO_CLASS)
    {
      g_autofree char *count = strata_units_format_count (suspect->n_group);

      /* Translators: a number of instances, their class, the size they retain and its share of the heap */
      first = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s instance of %s, each held on its own, retains %s (%.1f%%).",
                                            "%s instances of %s, each held on its own, retain %s (%.1f%%).", suspect->n_group),
                               count, strata_heap_class_label (trace, suspect->group_class), size, share);
      return g_steal_pointer (&first);
    }
  if (strata_heap_class_object_name (trace, suspect->object) != NULL)
    /* Translators: a class, the size its static fields retain and its share of the heap */
    first = g_strdup_printf (_("Class %s retains %s (%.1f%%) in its static fields."),
                             strata_heap_class_object_name (trace, suspect->object), size, share);
  else
    {
      g_autofree char *name = dup_suspect_name (trace, suspect->object);
      g_autofree char *holder = strata_heap_suspect_describe_holder (trace, suspect);

      /* Translators: the suspect's class, what holds it, the size it retains and its share of the heap */
      first = g_strdup_printf (_("One %s held by %s retains %s (%.1f%%)."), name, holder, size, share);
    }
  then = describe_accumulation (trace, suspect);
  return then[0] != '\0' ? g_strdup_printf ("%s %s", first, then) : g_steal_pointer (&first);
}

/**
 * strata_heap_suspect_accumulation_path:
 *
 * Returns: (transfer full): the suspect, then each object it dominates on
 *   the way down to the accumulation point, that last
 */
guint32 *
strata_heap_suspect_accumulation_path (StrataTrace             *trace,
                                       const StrataHeapSuspect *suspect,
                                       guint32                 *n_steps)
{
  StrataHeapGraph *graph = strata_heap_get_graph (strata_trace_get_heap (trace));
  g_autoptr(GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 at = suspect->accumulation; at != STRATA_HEAP_NO_OBJECT; at = strata_heap_graph_get_dominator (graph, at))
    {
      g_array_append_val (path, at);
      if (at == suspect->object)
        break;
    }
  /* Gathered upwards: a linked list makes the way millions long. */
  for (guint32 i = 0, j = path->len; i + 1 < j; i++, j--)
    {
      guint32 swap = g_array_index (path, guint32, i);

      g_array_index (path, guint32, i) = g_array_index (path, guint32, j - 1);
      g_array_index (path, guint32, j - 1) = swap;
    }
  *n_steps = path->len;
  return (guint32 *) g_array_free (g_steal_pointer (&path), FALSE);
}

static void
add_keyword (GPtrArray  *words,
             const char *word)
{
  if (word != NULL && word[0] != '\0' && !g_ptr_array_find_with_equal_func (words, word, g_str_equal, NULL))
    g_ptr_array_add (words, g_strdup (word));
}

/**
 * strata_heap_suspect_keywords:
 *
 * Returns: (transfer full): the names to search for, as MAT lists a
 *   suspect's keywords: the field that holds it, its class, the
 *   accumulation point's class and what that holds
 */
GStrv
strata_heap_suspect_keywords (StrataTrace             *trace,
                              const StrataHeapSuspect *suspect)
{
  GPtrArray *words = g_ptr_array_new ();
  const char *holder_class = suspect->holder != STRATA_HEAP_NO_OBJECT ? strata_heap_class_object_name (trace, suspect->holder) : NULL;
  gboolean is_static = FALSE;
  g_autofree char *field = holder_class != NULL ? dup_field (trace, suspect->holder, suspect->object, &is_static) : NULL;

  if (field != NULL && is_static)
    {
      g_autofree char *qualified = g_strdup_printf ("%s.%s", holder_class, field);

      add_keyword (words, qualified);
    }
  if (suspect->group_class != NO_CLASS)
    add_keyword (words, strata_heap_class_label (trace, suspect->group_class));
  add_keyword (words, strata_heap_class_object_name (trace, suspect->object));
  add_keyword (words, strata_heap_object_class_label (trace, suspect->object));
  add_keyword (words, strata_heap_object_class_label (trace, suspect->accumulation));
  if (suspect->content_class != NO_CLASS)
    add_keyword (words, strata_heap_class_label (trace, suspect->content_class));
  g_ptr_array_add (words, NULL);
  return (GStrv) g_ptr_array_free (words, FALSE);
}
