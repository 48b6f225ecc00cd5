/* strata-mapping.c: a ProGuard or R8 mapping.txt, for names a build shrank
 *
 * The format, as R8 writes it:
 *
 *   com.example.Foo -> a.a:
 *   # {"id":"sourceFile","fileName":"Foo.java"}
 *       int count -> a
 *       1:4:void bar(int,java.lang.String):20:23 -> b
 *       5:5:void helper():40:40 -> c
 *       5:5:void bar():24 -> c
 *       void noLines() -> d
 *
 * Class lines start at the margin, members are indented, "#" starts a
 * comment (R8 puts JSON in them; unknown ones are fine). A method line's
 * first two numbers are the obfuscated lines it covers: several original
 * methods with the same range are one inlining, innermost first, the
 * method that holds the code last. Several methods may share an
 * obfuscated name with different signatures (overloads).
 *
 * A method trace's entry is a method, not a line, so it maps to the method
 * that holds the code; a frame with a line in an inlined range maps to the
 * innermost method there. When the signature does not tell overloads
 * apart, the alternatives are all named, "a | b".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <unistd.h>
#include <glib/gi18n.h>

#include "strata-file.h"
#include "strata-load-guard.h"
#include "strata-mapping.h"

#define CHUNK_SIZE (1024 * 1024)
#define MAX_LINE (64 * 1024)
#define MAX_ALTERNATIVES 4

typedef struct
{
  const char *name;          /* original, qualified when from another class */
  const char *descriptor;    /* original, as "(ILjava/lang/String;)V" */
  const char *obfuscated;
  gint32      first;         /* obfuscated lines, or -1 */
  gint32      last;
  gboolean    inlined;       /* another entry of the same range follows */
} MappedMethod;

typedef struct
{
  const char *original;
  const char *source_file;   /* from R8's sourceFile comment, or NULL */
  GHashTable *fields;        /* obfuscated → original */
  GArray     *methods;       /* MappedMethod */
} MappedClass;

struct _StrataMapping
{
  GHashTable   *wanted;      /* obfuscated class names a trace has; NULL: all */
  GHashTable   *classes;     /* obfuscated → MappedClass */
  GStringChunk *strings;
  MappedClass  *current;     /* the class whose members follow, or NULL to skip them */
  guint64       n_lines;
  guint64       n_bad;
  guint64       first_bad;
  char         *first_bad_text;
  char         *map_id;      /* "# pg_map_id: …" of R8's header, or NULL */
  char         *map_hash;    /* "# pg_map_hash: SHA-256 …" */
};

static void
mapped_class_free (gpointer data)
{
  MappedClass *klass = data;

  g_hash_table_unref (klass->fields);
  g_array_unref (klass->methods);
  g_free (klass);
}

/**
 * strata_mapping_new_for_classes:
 * @wanted: (nullable): obfuscated class names (dotted) to keep; %NULL for all
 */
StrataMapping *
strata_mapping_new_for_classes (GHashTable *wanted)
{
  StrataMapping *self = g_new0 (StrataMapping, 1);

  self->wanted = wanted != NULL ? g_hash_table_ref (wanted) : NULL;
  self->classes = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, mapped_class_free);
  self->strings = g_string_chunk_new (256 * 1024);
  return self;
}

void
strata_mapping_free (StrataMapping *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->wanted, g_hash_table_unref);
  g_hash_table_unref (self->classes);
  g_string_chunk_free (self->strings);
  g_free (self->first_bad_text);
  g_free (self->map_id);
  g_free (self->map_hash);
  g_free (self);
}

static void
note_bad (StrataMapping *self,
          const char    *line,
          gsize          len)
{
  if (self->n_bad++ == 0)
    {
      self->first_bad = self->n_lines;
      self->first_bad_text = g_utf8_make_valid (line, MIN (len, 120));
    }
}

static const char *
intern (StrataMapping *self,
        const char    *text,
        gsize          len)
{
  return g_string_chunk_insert_len (self->strings, text, len);
}

/* ---- Types ---- */

static const struct { const char *java; char code; } primitives[] = {
  { "void", 'V' }, { "boolean", 'Z' }, { "byte", 'B' }, { "char", 'C' }, { "short", 'S' },
  { "int", 'I' }, { "long", 'J' }, { "float", 'F' }, { "double", 'D' },
};

/* "java.lang.String[]" → "[Ljava/lang/String;" */
static void
append_descriptor (GString    *out,
                   const char *type,
                   gsize       len)
{
  while (len >= 2 && type[len - 2] == '[' && type[len - 1] == ']')
    {
      g_string_append_c (out, '[');
      len -= 2;
    }
  for (guint i = 0; i < G_N_ELEMENTS (primitives); i++)
    if (strlen (primitives[i].java) == len && strncmp (primitives[i].java, type, len) == 0)
      {
        g_string_append_c (out, primitives[i].code);
        return;
      }
  g_string_append_c (out, 'L');
  for (gsize i = 0; i < len; i++)
    g_string_append_c (out, type[i] == '.' ? '/' : type[i]);
  g_string_append_c (out, ';');
}

/* "void", "int,java.lang.String" → "(ILjava/lang/String;)V" */
static char *
java_descriptor (const char *returns,
                 gsize       returns_len,
                 const char *args,
                 gsize       args_len)
{
  GString *out = g_string_new ("(");
  const char *end = args + args_len;

  while (args < end)
    {
      const char *comma = memchr (args, ',', end - args);
      const char *stop = comma != NULL ? comma : end;

      append_descriptor (out, args, stop - args);
      args = comma != NULL ? comma + 1 : end;
    }
  g_string_append_c (out, ')');
  append_descriptor (out, returns, returns_len);
  return g_string_free (out, FALSE);
}

/* ---- Lines ---- */

static gboolean
wanted (StrataMapping *self,
        const char    *obfuscated)
{
  return self->wanted == NULL || g_hash_table_contains (self->wanted, obfuscated);
}

/* "com.example.Foo -> a.a:" */
static void
read_class_line (StrataMapping *self,
                 const char    *line,
                 gsize          len)
{
  const char *arrow = g_strstr_len (line, len, " -> ");
  g_autofree char *obfuscated = NULL;
  MappedClass *klass;

  self->current = NULL;
  if (arrow == NULL || len < 6 || line[len - 1] != ':' || arrow == line)
    {
      note_bad (self, line, len);
      return;
    }
  obfuscated = g_strndup (arrow + 4, line + len - 1 - (arrow + 4));
  g_strstrip (obfuscated);
  if (*obfuscated == '\0')
    {
      note_bad (self, line, len);
      return;
    }
  if (!wanted (self, obfuscated) || g_hash_table_contains (self->classes, obfuscated))
    return;
  klass = g_new0 (MappedClass, 1);
  klass->original = intern (self, line, arrow - line);
  klass->fields = g_hash_table_new (g_str_hash, g_str_equal);
  klass->methods = g_array_new (FALSE, FALSE, sizeof (MappedMethod));
  g_hash_table_insert (self->classes, (char *) intern (self, obfuscated, strlen (obfuscated)), klass);
  self->current = klass;
}

static gboolean
read_number (const char **p,
             const char  *end,
             gint32      *value)
{
  gint64 n = 0;
  const char *start = *p;

  while (*p < end && g_ascii_isdigit (**p) && n < G_MAXINT32)
    n = n * 10 + (*(*p)++ - '0');
  *value = (gint32) MIN (n, G_MAXINT32);
  return *p > start;
}

/* "1:4:void bar(int,java.lang.String):20:23 -> b", the numbers optional. */
static gboolean
read_method (StrataMapping *self,
             const char    *p,
             const char    *end,
             const char    *arrow)
{
  MappedMethod method = { .first = -1, .last = -1 };
  const char *open = memchr (p, '(', arrow - p);
  const char *close = open != NULL ? memchr (open, ')', arrow - open) : NULL;
  const char *space, *name;
  g_autofree char *descriptor = NULL;

  if (g_ascii_isdigit (*p))
    {
      if (!read_number (&p, end, &method.first) || p >= end || *p++ != ':' ||
          !read_number (&p, end, &method.last) || p >= end || *p++ != ':')
        return FALSE;
    }
  if (open == NULL || close == NULL || open < p)
    return FALSE;
  for (space = open; space > p && space[-1] != ' '; space--)
    ;
  if (space == p)
    return FALSE;
  name = space;
  descriptor = java_descriptor (p, space - 1 - p, open + 1, close - open - 1);
  method.name = intern (self, name, open - name);
  method.descriptor = intern (self, descriptor, strlen (descriptor));
  method.obfuscated = intern (self, arrow + 4, end - (arrow + 4));
  /* Same obfuscated range as the entry before: that one was inlined here. */
  if (self->current->methods->len > 0 && method.first >= 0)
    {
      MappedMethod *before = &g_array_index (self->current->methods, MappedMethod, self->current->methods->len - 1);

      if (before->first == method.first && before->last == method.last &&
          g_str_equal (before->obfuscated, method.obfuscated))
        before->inlined = TRUE;
    }
  g_array_append_val (self->current->methods, method);
  return TRUE;
}

/* "    int count -> a" or a method line. */
static void
read_member_line (StrataMapping *self,
                  const char    *line,
                  gsize          len)
{
  const char *end = line + len;
  const char *p = line;
  const char *arrow;

  if (self->current == NULL)
    return;
  while (p < end && (*p == ' ' || *p == '\t'))
    p++;
  while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
    end--;
  arrow = g_strstr_len (p, end - p, " -> ");
  if (arrow == NULL || arrow + 4 >= end)
    {
      note_bad (self, line, len);
      return;
    }
  if (memchr (p, '(', arrow - p) != NULL)
    {
      if (!read_method (self, p, end, arrow))
        note_bad (self, line, len);
      return;
    }
  {
    const char *space = memchr (p, ' ', arrow - p);

    if (space == NULL || space + 1 >= arrow)
      {
        note_bad (self, line, len);
        return;
      }
    g_hash_table_insert (self->current->fields, (char *) intern (self, arrow + 4, end - (arrow + 4)),
                         (char *) intern (self, space + 1, arrow - space - 1));
  }
}

/* The text after "KEY" in a comment "# KEY value", or NULL. */
static char *
comment_value (const char *comment,
               gsize       len,
               const char *key)
{
  gsize key_len = strlen (key);

  if (len <= key_len || memcmp (comment, key, key_len) != 0)
    return NULL;
  return g_strstrip (g_strndup (comment + key_len, len - key_len));
}

/* R8's comments that Strata uses: the header's id and hash of the
 * mapping, and the source file of the class above. */
static void
read_comment (StrataMapping *self,
              const char    *p,
              const char    *end)
{
  const char *file_key = "\"fileName\":\"";
  const char *found;

  p++;
  while (p < end && *p == ' ')
    p++;
  if (self->map_id == NULL)
    self->map_id = comment_value (p, end - p, "pg_map_id:");
  if (self->map_hash == NULL)
    self->map_hash = comment_value (p, end - p, "pg_map_hash:");
  if (self->current != NULL && g_strstr_len (p, end - p, "\"sourceFile\"") != NULL &&
      (found = g_strstr_len (p, end - p, file_key)) != NULL)
    {
      const char *name = found + strlen (file_key);
      const char *quote = memchr (name, '"', end - name);

      if (quote != NULL && quote > name)
        self->current->source_file = intern (self, name, quote - name);
    }
}

static void
read_line (StrataMapping *self,
           const char    *line,
           gsize          len)
{
  const char *p = line;

  self->n_lines++;
  while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == ' '))
    len--;
  while (p < line + len && (*p == ' ' || *p == '\t'))
    p++;
  /* Comments, R8's JSON ones included, and blank lines. */
  if (p == line + len)
    return;
  if (*p == '#')
    {
      read_comment (self, p, line + len);
      return;
    }
  if (p == line)
    read_class_line (self, line, len);
  else
    read_member_line (self, line, len);
}

/**
 * strata_mapping_read:
 *
 * Reads the mapping as it streams in. Lines that cannot be read are
 * counted (strata_mapping_describe_bad_lines()), the rest kept.
 *
 * Returns: %FALSE only when the stream fails or is cancelled
 */
gboolean
strata_mapping_read (StrataMapping  *self,
                     GInputStream   *stream,
                     GCancellable   *cancellable,
                     GError        **error)
{
  g_autofree char *buffer = g_malloc (CHUNK_SIZE + MAX_LINE);
  gsize carried = 0;

  for (;;)
    {
      gssize got = g_input_stream_read (stream, buffer + carried, CHUNK_SIZE, cancellable, error);
      const char *start = buffer, *end, *newline;

      if (got < 0)
        return FALSE;
      end = buffer + carried + got;
      while ((newline = memchr (start, '\n', end - start)) != NULL)
        {
          read_line (self, start, newline - start);
          start = newline + 1;
        }
      carried = end - start;
      if (got == 0)
        {
          if (carried > 0)
            read_line (self, start, carried);
          return TRUE;
        }
      /* A line longer than any real one: counted bad, skipped. */
      if (carried >= MAX_LINE)
        {
          note_bad (self, start, carried);
          carried = 0;
        }
      memmove (buffer, start, carried);
    }
}

/* A mapped file cut short while it is read fails the read with a
 * message, as a trace's load does, instead of ending the process. */
static gboolean
read_guarded (StrataMapping  *self,
              GInputStream   *stream,
              GCancellable   *cancellable,
              GError        **error)
{
  StrataLoadGuard guard;
  gboolean ok;

  if (STRATA_LOAD_GUARD_FAULTED (&guard))
    {
      g_clear_error (error);
      strata_load_guard_set_error (&guard, error);
      return FALSE;
    }
  ok = strata_mapping_read (self, stream, cancellable, error);
  strata_load_guard_pop (&guard);
  return ok;
}

/* Opened as every file Strata reads is (strata_file_open_regular()): a
 * pipe or a device given as a mapping would never end. */
gboolean
strata_mapping_read_file (StrataMapping  *self,
                          GFile          *file,
                          GCancellable   *cancellable,
                          GError        **error)
{
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GMappedFile) mapped = NULL;
  g_autoptr(GBytes) bytes = NULL;
  GError *local_error = NULL;
  int fd;

  if (path == NULL)
    {
      GFileInputStream *read = g_file_read (file, cancellable, &local_error);

      if (read == NULL)
        {
          strata_file_error_from (local_error, error);
          return FALSE;
        }
      stream = G_INPUT_STREAM (read);
      return strata_mapping_read (self, stream, cancellable, error);
    }
  if ((fd = strata_file_open_regular (file, path, NULL, error)) < 0)
    return FALSE;
  mapped = g_mapped_file_new_from_fd (fd, FALSE, &local_error);
  close (fd);
  if (mapped == NULL)
    {
      strata_file_error_from (local_error, error);
      return FALSE;
    }
  bytes = g_mapped_file_get_bytes (mapped);
  stream = g_memory_input_stream_new_from_bytes (bytes);
  return read_guarded (self, stream, cancellable, error);
}

guint
strata_mapping_get_n_classes (StrataMapping *self)
{
  return g_hash_table_size (self->classes);
}

guint64
strata_mapping_get_n_lines (StrataMapping *self)
{
  return self->n_lines;
}

guint64
strata_mapping_get_n_bad_lines (StrataMapping *self)
{
  return self->n_bad;
}

/* Returns: (nullable): "3 lines could not be read, the first line 12: …" */
char *
strata_mapping_describe_bad_lines (StrataMapping *self)
{
  g_autofree char *count = NULL;
  g_autofree char *first = NULL;

  if (self->n_bad == 0)
    return NULL;
  count = g_strdup_printf ("%" G_GUINT64_FORMAT, self->n_bad);
  first = g_strdup_printf ("%" G_GUINT64_FORMAT, self->first_bad);
  /* Translators: a count of lines of a mapping file, then the first one's number and text */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%s line of the mapping could not be read (line %s: “%s”)",
                                       "%s lines of the mapping could not be read, the first line %s: “%s”",
                                       self->n_bad),
                          count, first, self->first_bad_text);
}

/* ---- Lookups ---- */

/* Returns: (nullable): the original of a dotted class name */
const char *
strata_mapping_class (StrataMapping *self,
                      const char    *obfuscated)
{
  MappedClass *klass = g_hash_table_lookup (self->classes, obfuscated);

  return klass != NULL ? klass->original : NULL;
}

/* "a.b[][]" → "com.example.Foo[][]"; names the mapping lacks stay. */
char *
strata_mapping_type (StrataMapping *self,
                     const char    *type)
{
  const char *brackets = strchr (type, '[');
  g_autofree char *base = brackets != NULL ? g_strndup (type, brackets - type) : g_strdup (type);
  const char *original = strata_mapping_class (self, base);

  return g_strconcat (original != NULL ? original : base, brackets != NULL ? brackets : "", NULL);
}

/* "(La/b;I)V" → "(Lcom/example/Foo;I)V" */
char *
strata_mapping_descriptor (StrataMapping *self,
                           const char    *descriptor)
{
  GString *out = g_string_sized_new (strlen (descriptor) + 32);
  const char *p = descriptor;

  while (*p != '\0')
    {
      const char *semicolon;

      if (*p != 'L' || (semicolon = strchr (p, ';')) == NULL)
        {
          g_string_append_c (out, *p++);
          continue;
        }
      {
        g_autofree char *dotted = g_strndup (p + 1, semicolon - p - 1);
        const char *original;

        g_strdelimit (dotted, "/", '.');
        original = strata_mapping_class (self, dotted);
        g_string_append_c (out, 'L');
        if (original != NULL)
          for (const char *c = original; *c != '\0'; c++)
            g_string_append_c (out, *c == '.' ? '/' : *c);
        else
          g_string_append_len (out, p + 1, semicolon - p - 1);
        g_string_append_c (out, ';');
        p = semicolon + 1;
      }
    }
  return g_string_free (out, FALSE);
}

static char *
qualified (const MappedClass  *klass,
           const MappedMethod *method)
{
  /* A method inlined from another class is named with it. */
  if (strchr (method->name, '.') != NULL)
    return g_strdup (method->name);
  return g_strconcat (klass->original, ".", method->name, NULL);
}

static gboolean
matches (const MappedMethod *method,
         const char         *name,
         const char         *descriptor,
         int                 line)
{
  if (!g_str_equal (method->obfuscated, name))
    return FALSE;
  if (descriptor != NULL && !g_str_equal (method->descriptor, descriptor))
    return FALSE;
  return line < 0 || method->first < 0 || (line >= method->first && line <= method->last);
}

/**
 * strata_mapping_method:
 * @descriptor: (nullable): the method's descriptor, already deobfuscated
 *   (strata_mapping_descriptor()), to tell overloads apart
 * @line: the obfuscated line of a frame, or -1 for the method itself
 *
 * Returns: (transfer full) (nullable): "com.example.Foo.bar", the
 *   alternatives joined by " | " when the mapping does not tell; %NULL
 *   when it has no such class or method
 */
char *
strata_mapping_method (StrataMapping *self,
                       const char    *obfuscated_class,
                       const char    *obfuscated_name,
                       const char    *descriptor,
                       int            line)
{
  MappedClass *klass = g_hash_table_lookup (self->classes, obfuscated_class);
  g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func (g_free);

  if (klass == NULL)
    return NULL;
  for (guint i = 0; i < klass->methods->len && found->len < MAX_ALTERNATIVES; i++)
    {
      const MappedMethod *method = &g_array_index (klass->methods, MappedMethod, i);
      g_autofree char *name = NULL;

      /* Without a line the method is the one that holds the code, not
       * what was inlined into it; with one, the innermost there. */
      if (!matches (method, obfuscated_name, descriptor, line) || (line < 0 && method->inlined))
        continue;
      name = qualified (klass, method);
      if (line >= 0 && method->first >= 0)
        return g_steal_pointer (&name);
      if (!g_ptr_array_find_with_equal_func (found, name, g_str_equal, NULL))
        g_ptr_array_add (found, g_steal_pointer (&name));
    }
  /* A descriptor the mapping does not know (a trace of another build):
   * the method by its name alone. */
  if (found->len == 0 && descriptor != NULL)
    return strata_mapping_method (self, obfuscated_class, obfuscated_name, NULL, line);
  if (found->len == 0)
    return NULL;
  g_ptr_array_add (found, NULL);
  return g_strjoinv (" | ", (char **) found->pdata);
}

/**
 * strata_mapping_has_method:
 * @descriptor: (nullable): deobfuscated, as for strata_mapping_method()
 *
 * Whether the mapping has this very method, its descriptor included: a
 * trace of the mapping's own build finds nearly all of its methods so.
 */
gboolean
strata_mapping_has_method (StrataMapping *self,
                           const char    *obfuscated_class,
                           const char    *obfuscated_name,
                           const char    *descriptor)
{
  MappedClass *klass = g_hash_table_lookup (self->classes, obfuscated_class);

  for (guint i = 0; klass != NULL && i < klass->methods->len; i++)
    if (matches (&g_array_index (klass->methods, MappedMethod, i), obfuscated_name, descriptor, -1))
      return TRUE;
  return FALSE;
}

/* Returns: (nullable): the source file R8 noted for a class */
const char *
strata_mapping_source_file (StrataMapping *self,
                            const char    *obfuscated_class)
{
  MappedClass *klass = g_hash_table_lookup (self->classes, obfuscated_class);

  return klass != NULL ? klass->source_file : NULL;
}

/* Returns: (nullable): the mapping's id (R8's "pg_map_id") */
const char *
strata_mapping_get_id (StrataMapping *self)
{
  return self->map_id;
}

/* Returns: (nullable): the mapping's hash (R8's "pg_map_hash") */
const char *
strata_mapping_get_hash (StrataMapping *self)
{
  return self->map_hash;
}

/* Returns: (nullable): a field's original name */
const char *
strata_mapping_field (StrataMapping *self,
                      const char    *obfuscated_class,
                      const char    *obfuscated_name)
{
  MappedClass *klass = g_hash_table_lookup (self->classes, obfuscated_class);

  return klass != NULL ? g_hash_table_lookup (klass->fields, obfuscated_name) : NULL;
}
