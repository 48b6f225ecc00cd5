/* strata-dmtrace-key.c: the text key of a dmtrace file (threads, methods)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "strata-dmtrace-private.h"
#include "strata-error.h"

#define MAX_FIELDS 6

typedef enum
{
  SECTION_NONE,
  SECTION_VERSION,
  SECTION_OPTIONS,
  SECTION_THREADS,
  SECTION_METHODS,
} Section;

/**
 * strata_dmtrace_find_key_end:
 *
 * Returns: the offset just past the "*end" line, or 0 when there is none
 */
gsize
strata_dmtrace_find_key_end (const guint8 *data,
                             gsize         len)
{
  static const char marker[] = "\n*end\n";
  const guint8 *p;

  p = memmem (data, len, marker, sizeof marker - 1);
  return p ? (gsize) (p - data) + sizeof marker - 1 : 0;
}

/* Parses an id as C does, so "0x4", "0" and "%p" style all work. */
static gboolean
parse_id (const char *text,
          gsize       len,
          guint64    *id)
{
  char buf[32];
  char *end = NULL;
  const char *digits;

  while (len > 0 && g_ascii_isspace (*text))
    text++, len--;
  if (len == 0 || len >= sizeof buf)
    return FALSE;
  memcpy (buf, text, len);
  buf[len] = '\0';

  digits = g_ascii_strncasecmp (buf, "0x", 2) == 0 ? buf + 2 : buf;
  *id = g_ascii_strtoull (digits, &end, digits == buf ? 10 : 16);
  return end != digits && g_ascii_isxdigit (*digits) && (*end == '\0' || g_ascii_isspace (*end));
}

static guint
split_fields (const char  *line,
              gsize        len,
              const char **starts,
              gsize       *lens)
{
  guint n = 0;
  gsize begin = 0;

  for (gsize i = 0; i <= len && n < MAX_FIELDS; i++)
    {
      if (i == len || line[i] == '\t')
        {
          starts[n] = line + begin;
          /* The last field takes the rest of the line. */
          lens[n] = (n == MAX_FIELDS - 1) ? len - begin : i - begin;
          n++;
          begin = i + 1;
        }
    }
  return n;
}

static char *
dotted_class (const char *text,
              gsize       len)
{
  char *name = g_utf8_make_valid (text, len);

  g_strdelimit (name, "/", '.');
  return name;
}

static void
fill_method_names (DmtraceLoader  *self,
                   StrataMethod   *method,
                   const char    **starts,
                   gsize          *lens,
                   guint           n)
{
  StrataStringPool *pool = strata_trace_get_pool (self->trace);
  g_autofree char *class_name = NULL;
  g_autofree char *name = NULL;
  g_autofree char *signature = NULL;
  g_autofree char *display = NULL;

  if (n == 2)
    {
      /* "<id>\t<full name>" */
      method->name = strata_string_pool_intern_len (pool, starts[1], lens[1]);
      method->display_name = method->name;
      return;
    }

  class_name = dotted_class (starts[1], lens[1]);
  name = g_utf8_make_valid (starts[2], lens[2]);
  signature = n > 3 ? g_utf8_make_valid (starts[3], lens[3]) : g_strdup ("");
  method->class_name = strata_string_pool_intern (pool, class_name);
  method->name = strata_string_pool_intern (pool, name);
  method->signature = strata_string_pool_intern (pool, signature);
  if (n > 4)
    method->source_file = strata_string_pool_intern_len (pool, starts[4], lens[4]);
  if (n > 5)
    {
      g_autofree char *line = g_strndup (starts[5], lens[5]);

      method->line = (gint32) g_ascii_strtoll (line, NULL, 10);
    }

  display = *signature ? g_strdup_printf ("%s.%s %s", class_name, name, signature)
                       : g_strdup_printf ("%s.%s", class_name, name);
  method->display_name = strata_string_pool_intern (pool, display);
}

/* One "*methods" line: id, class, name, signature, source file, line. The
 * shorter forms (id + full name, or without the source) occur too. */
void
strata_dmtrace_add_method_line (DmtraceLoader *self,
                                const char    *line,
                                gsize          len)
{
  const char *starts[MAX_FIELDS];
  gsize lens[MAX_FIELDS];
  StrataMethod method = { .line = -1 };
  guint n;

  while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
    len--;

  n = split_fields (line, len, starts, lens);
  if (n < 2 || n == 3 || !parse_id (starts[0], lens[0], &method.raw_id) ||
      method.raw_id > G_MAXUINT32)
    {
      self->n_bad_key_lines++;
      return;
    }

  /* Records carry only the id with its two action bits clear. */
  method.raw_id &= ~(guint64) 3;
  if (strata_id_map_lookup (&self->method_ids, method.raw_id) != STRATA_ID_MAP_MISSING)
    {
      self->n_duplicate_methods++;
      return;
    }

  fill_method_names (self, &method, starts, lens, n);
  strata_id_map_insert (&self->method_ids, method.raw_id,
                        strata_trace_add_method (self->trace, &method));
}

/* Returns the loader's index for @tid, adding the thread (or naming it,
 * when @name is given) as needed. */
guint
strata_dmtrace_ensure_thread (DmtraceLoader *self,
                              guint          tid,
                              const char    *name,
                              gsize          name_len)
{
  guint index = self->thread_of_tid[tid & DMTRACE_MAX_TID];
  DmtraceThread state = { 0 };
  g_autofree char *valid = NULL;

  if (name != NULL)
    valid = g_utf8_make_valid (name, name_len);

  if (index != DMTRACE_NO_THREAD)
    {
      DmtraceThread *existing = &g_array_index (self->threads, DmtraceThread, index);

      if (valid != NULL)
        strata_trace_peek_thread (self->trace, existing->thread)->name =
          strata_string_pool_intern (strata_trace_get_pool (self->trace), valid);
      return index;
    }

  if (valid == NULL)
    /* Translators: a thread the trace names only by its id */
    valid = g_strdup_printf (_("Thread %u"), tid);

  state.thread = strata_trace_add_thread (self->trace, self->process, tid, valid);
  state.counts = g_array_new (FALSE, TRUE, sizeof (guint32));
  g_array_append_val (self->threads, state);
  self->thread_of_tid[tid & DMTRACE_MAX_TID] = self->threads->len - 1;

  return self->threads->len - 1;
}

static void
parse_thread_line (DmtraceLoader *self,
                   const char    *line,
                   gsize          len)
{
  const char *tab = memchr (line, '\t', len);
  guint64 tid;

  if (tab == NULL || !parse_id (line, tab - line, &tid) || tid > G_MAXUINT16)
    {
      self->n_bad_key_lines++;
      return;
    }
  strata_dmtrace_ensure_thread (self, (guint) tid, tab + 1, len - (tab + 1 - line));
}

static void
parse_option (DmtraceLoader *self,
              const char    *line,
              gsize          len)
{
  const char *eq = memchr (line, '=', len);
  g_autofree char *key = NULL;
  g_autofree char *value = NULL;

  if (eq == NULL)
    {
      self->n_bad_key_lines++;
      return;
    }

  key = g_strndup (line, eq - line);
  value = g_strndup (eq + 1, len - (eq + 1 - line));
  strata_trace_add_metadata (self->trace, key, value);

  if (g_str_equal (key, "clock"))
    {
      if (g_str_equal (value, "dual"))
        self->clock = DMTRACE_CLOCK_DUAL;
      else if (g_str_equal (value, "wall") || g_str_equal (value, "global"))
        self->clock = DMTRACE_CLOCK_WALL;
      else
        self->clock = DMTRACE_CLOCK_THREAD_CPU;
    }
  else if (g_str_equal (key, "data-file-overflow"))
    self->overflow = g_str_equal (value, "true");
  else if (g_str_equal (key, "pid"))
    self->pid = g_ascii_strtoll (value, NULL, 10);
  else if (g_str_equal (key, "vm"))
    {
      g_free (self->vm);
      self->vm = g_strdup (value);
    }
}

static Section
section_for (const char *line,
             gsize       len)
{
#define IS(s) (len == sizeof s - 1 && memcmp (line, s, len) == 0)
  if (IS ("*version"))
    return SECTION_VERSION;
  if (IS ("*threads"))
    return SECTION_THREADS;
  if (IS ("*methods"))
    return SECTION_METHODS;
#undef IS
  return SECTION_NONE;
}

static void
parse_key_line (DmtraceLoader *self,
                Section       *section,
                const char    *line,
                gsize          len)
{
  if (len == 0)
    return;

  if (line[0] == '*')
    {
      *section = section_for (line, len);
      if (*section == SECTION_NONE)
        self->n_bad_key_lines++;
      return;
    }

  switch (*section)
    {
    case SECTION_VERSION:
      {
        g_autofree char *text = g_strndup (line, len);

        self->key_version = (int) g_ascii_strtoll (text, NULL, 10);
        *section = SECTION_OPTIONS;
      }
      break;

    case SECTION_OPTIONS:
      parse_option (self, line, len);
      break;

    case SECTION_THREADS:
      parse_thread_line (self, line, len);
      break;

    case SECTION_METHODS:
      strata_dmtrace_add_method_line (self, line, len);
      break;

    case SECTION_NONE:
    default:
      self->n_bad_key_lines++;
      break;
    }
}

/* Parses a whole key ("*version" up to "*end"); used for the key of a
 * regular file and for the summary packet at the end of a streaming one. */
gboolean
strata_dmtrace_parse_key (DmtraceLoader  *self,
                          const char     *text,
                          gsize           len,
                          GError        **error)
{
  Section section = SECTION_NONE;
  gsize pos = 0;

  if (len < 8 || memcmp (text, "*version", 8) != 0)
    {
      g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                           _("The key of the method trace does not start with “*version”."));
      return FALSE;
    }

  while (pos < len)
    {
      const char *nl = memchr (text + pos, '\n', len - pos);
      gsize line_len = nl ? (gsize) (nl - (text + pos)) : len - pos;

      if (line_len > 0 && text[pos + line_len - 1] == '\r')
        line_len--;
      if (line_len == 4 && memcmp (text + pos, "*end", 4) == 0)
        break;
      parse_key_line (self, &section, text + pos, line_len);
      pos += (nl ? (gsize) (nl - (text + pos)) + 1 : len - pos);
    }

  return TRUE;
}
