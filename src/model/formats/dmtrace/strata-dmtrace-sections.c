/* strata-dmtrace-sections.c: finding the key and the data: one file, a NAME.key + NAME.data pair, or streaming
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-dmtrace-private.h"
#include "strata-error.h"


static GFile *
sibling_file (GFile      *file,
              const char *from_suffix,
              const char *to_suffix)
{
  g_autofree char *basename = g_file_get_basename (file);
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autofree char *stem = NULL;
  g_autofree char *name = NULL;

  if (basename == NULL || parent == NULL || !g_str_has_suffix (basename, from_suffix))
    return NULL;

  stem = g_strndup (basename, strlen (basename) - strlen (from_suffix));
  name = g_strconcat (stem, to_suffix, NULL);
  return g_file_get_child (parent, name);
}

/* The older layout keeps the key in NAME.key and the records in
 * NAME.data; opening either finds the other. */
static GBytes *
load_sibling (DmtraceLoader  *self,
              const char     *from_suffix,
              const char     *to_suffix,
              GError        **error)
{
  g_autoptr(GFile) sibling = sibling_file (self->job->file, from_suffix, to_suffix);
  g_autoptr(GError) local_error = NULL;
  g_autofree char *name = NULL;
  GBytes *bytes;
  gboolean mapped;

  if (sibling != NULL &&
      (bytes = strata_load_file_bytes (sibling, self->job->cancellable, &mapped, &local_error)))
    return bytes;

  name = sibling ? g_file_get_basename (sibling) : g_strconcat ("*", to_suffix, NULL);
  if (g_str_equal (to_suffix, ".key"))
    g_set_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_TRUNCATED,
                 _("It holds the records of a method trace without their key, and the key file “%s” could not be read."),
                 name);
  else
    g_set_error (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_TRUNCATED,
                 _("It holds the key of a method trace without its records, and the data file “%s” could not be read."),
                 name);
  /* Why, when the partner is there but unusable (a pipe, a device, no
   * permission). */
  if (error != NULL && *error != NULL && local_error != NULL &&
      !g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    {
      char *message = g_strconcat ((*error)->message, " ", local_error->message, NULL);

      g_free ((*error)->message);
      (*error)->message = message;
    }
  return NULL;
}

static gsize
key_length (const guint8 *data,
            gsize         len)
{
  gsize end = strata_dmtrace_find_key_end (data, len);

  /* A key file may end in "*end" without a newline. */
  if (end == 0 && len >= 5 && memcmp (data + len - 5, "\n*end", 5) == 0)
    end = len;
  return end;
}

static gboolean
parse_regular_key (DmtraceLoader  *self,
                   const guint8   *key,
                   gsize           key_len,
                   GError        **error)
{
  if (!strata_dmtrace_parse_key (self, (const char *) key, key_len, error))
    return FALSE;
  if (strata_trace_get_n_methods (self->trace) == 0 && self->n_bad_key_lines > 0)
    {
      g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_CORRUPT,
                           _("The key of the method trace lists no readable methods."));
      return FALSE;
    }
  return TRUE;
}

/* Sets self->data to the records; @holder keeps a sibling file alive. */
gboolean
dmtrace_find_sections (DmtraceLoader  *self,
                       const guint8   *data,
                       gsize           len,
                       GBytes        **holder,
                       GError        **error)
{
  gsize key_len;

  if (len >= 4 && read_u32 (data) == DMTRACE_MAGIC)
    {
      gboolean streaming = len >= 6 && (read_u16 (data + 4) & 0xF0) == DMTRACE_STREAMING_FLAG;

      if (!streaming && !dmtrace_is_newer_art_format (len >= 6 ? read_u16 (data + 4) : 0))
        {
          const guint8 *key;

          if (!(*holder = load_sibling (self, ".data", ".key", error)))
            return FALSE;
          key = g_bytes_get_data (*holder, &key_len);
          if (!parse_regular_key (self, key, key_length (key, key_len) ? key_length (key, key_len) : key_len, error))
            return FALSE;
        }
      self->data = data;
      self->len = len;
      return TRUE;
    }

  if ((key_len = key_length (data, len)) == 0)
    {
      g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_TRUNCATED,
                           _("The key of the method trace has no “*end” line: the file is cut short or damaged."));
      return FALSE;
    }
  if (!parse_regular_key (self, data, key_len, error))
    return FALSE;

  if (key_len < len)
    {
      self->data = data + key_len;
      self->len = len - key_len;
      return TRUE;
    }

  if (!(*holder = load_sibling (self, ".key", ".data", error)))
    return FALSE;
  self->data = g_bytes_get_data (*holder, &self->len);
  return TRUE;
}

/* ART numbers methods densely (0, 4, 8, ...): then a plain array beats
 * hashing on every call. Pointer-like Dalvik ids keep the hash map. */
void
dmtrace_build_direct_method_table (DmtraceLoader *self)
{
  guint64 max_index = 0;
  guint n = self->n_known_methods;

  for (guint32 m = 0; m < n; m++)
    max_index = MAX (max_index, strata_trace_get_method (self->trace, m)->raw_id >> 2);
  if (n == 0 || max_index >= (guint64) n * 4 + 1024)
    return;

  self->method_direct_len = max_index + 1;
  self->method_direct = g_new (guint32, self->method_direct_len);
  memset (self->method_direct, 0xff, sizeof (guint32) * self->method_direct_len);
  for (guint32 m = 0; m < n; m++)
    self->method_direct[strata_trace_get_method (self->trace, m)->raw_id >> 2] = m;
}

