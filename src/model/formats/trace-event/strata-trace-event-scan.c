/* strata-trace-event-scan.c: one event's fields, read where they lie, without side effects
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "strata-error.h"
#include "strata-json-scan.h"
#include "strata-trace-event-private.h"




StrataJsonStatus
te_scan_value (const char  *p,
               const char  *end,
               TeValue     *value,
               const char **value_end)
{
  StrataJsonStatus status;

  if (*p == '"')
    {
      status = strata_json_scan_string_inline (p, end, &value->text, value_end);
      value->is_string = TRUE;
    }
  else if (*p == '-' || (*p >= '0' && *p <= '9'))
    {
      status = strata_json_scan_number_inline (p, end, value_end);
      value->text = (StrataJsonString) { p, status == STRATA_JSON_OK ? (gsize) (*value_end - p) : 0, FALSE };
      value->is_string = FALSE;
    }
  else
    return strata_json_skip_value (p, end, value_end);

  value->present = status == STRATA_JSON_OK;
  return status;
}

/* A time in microseconds: a number, a string holding one, or null. Its
 * text is kept for te_parse_times(). */
static StrataJsonStatus
scan_time (const char  *p,
           const char  *end,
           TeFields    *fields,
           guint        which,
           const char **value_end)
{
  TeValue value = { 0 };
  StrataJsonStatus status = te_scan_value (p, end, &value, value_end);

  if (status != STRATA_JSON_OK || !value.present)
    return status;
  if (value.text.escaped || value.text.len > G_MAXUINT32)
    fields->bad_ts = TRUE;
  else
    {
      fields->time_text[which] = value.text.start;
      fields->time_len[which] = (guint32) value.text.len;
    }
  return STRATA_JSON_OK;
}

/**
 * te_parse_times:
 *
 * Reads the times the scan found: present and in range, or bad.
 */
void
te_parse_times (TeFields *fields)
{
  guint8 *present[4] = { &fields->has_ts, &fields->has_dur, &fields->has_tts, &fields->has_tdur };
  gint64 *values[4] = { &fields->ts, &fields->dur, &fields->tts, &fields->tdur };

  for (guint i = 0; i < 4; i++)
    {
      const char *text = fields->time_text[i];

      if (text == NULL)
        continue;
      /* Times beyond ±146 years would overflow when added or subtracted. */
      if (!strata_json_parse_micros (text, text + fields->time_len[i], values[i]) ||
          *values[i] >= TE_MAX_TIME || *values[i] <= -TE_MAX_TIME)
        fields->bad_ts = TRUE;
      else
        *present[i] = TRUE;
    }
  fields->times_read = TRUE;
}

/**
 * te_text_words:
 *
 * The words that stand for @text: see #TeTextWords.
 */
void
te_text_words (const StrataJsonString *text,
               TeTextWords            *words)
{
  memset (words, 0, sizeof *words);
  if (text->len <= sizeof *words)
    {
      if (text->len > 0)
        memcpy (words, text->start, text->len);
      return;
    }
  memcpy (words, text->start, sizeof *words / 2);
  memcpy ((char *) words + sizeof *words / 2, text->start + text->len - sizeof *words / 2, sizeof *words / 2);
}

static void
read_value_word (TeValue *value)
{
  value->word = 0;
  if (value->present && value->text.len > 0)
    memcpy (&value->word, value->text.start, MIN (value->text.len, sizeof value->word));
}

/**
 * te_read_words:
 *
 * Reads the words that stand for the texts the loading thread compares:
 * the name, category, pid, tid and id.
 */
void
te_read_words (TeFields *fields)
{
  static const TeTextWords none = { { 0 } };

  if (fields->has_name)
    te_text_words (&fields->name, &fields->name_words);
  else
    fields->name_words = none;
  if (fields->has_cat)
    te_text_words (&fields->cat, &fields->cat_words);
  else
    fields->cat_words = none;
  read_value_word (&fields->pid);
  read_value_word (&fields->tid);
  read_value_word (&fields->id);
  fields->words_read = TRUE;
}

static StrataJsonStatus
scan_string_field (const char        *p,
                   const char        *end,
                   guint8            *present,
                   StrataJsonString  *string,
                   const char       **value_end)
{
  if (*p != '"')
    return strata_json_skip_value (p, end, value_end);
  *present = TRUE;
  return strata_json_scan_string_inline (p, end, string, value_end);
}

static StrataJsonStatus
scan_char_field (const char  *p,
                 const char  *end,
                 char        *c,
                 const char **value_end)
{
  StrataJsonString string;
  guint8 present = FALSE;
  StrataJsonStatus status = scan_string_field (p, end, &present, &string, value_end);

  if (status == STRATA_JSON_OK && present && string.len > 0)
    *c = string.start[0];
  return status;
}

static StrataJsonStatus
scan_bool (const char  *p,
           const char  *end,
           guint8      *value,
           const char **value_end)
{
  StrataJsonStatus status = strata_json_skip_value (p, end, value_end);

  *value = status == STRATA_JSON_OK && *p == 't';
  return status;
}


static StrataJsonStatus
scan_id2_member (const char  *key,
                 gsize        key_len,
                 const char  *p,
                 const char  *end,
                 gpointer     data,
                 const char **value_end)
{
  TeFields *fields = data;

  if (key_len == 5 && memcmp (key, "local", 5) == 0)
    fields->id_local = TRUE;
  else if (key_len == 6 && memcmp (key, "global", 6) == 0)
    fields->id_global = TRUE;
  else
    return strata_json_skip_value (p, end, value_end);
  return te_scan_value (p, end, &fields->id, value_end);
}


static StrataJsonStatus
scan_event_member (const char  *key,
                   gsize        key_len,
                   const char  *p,
                   const char  *end,
                   gpointer     data,
                   const char **value_end)
{
  TeFields *f = data;

  switch (key_len)
    {
    case 1:
      if (key[0] == 's')
        return scan_char_field (p, end, &f->scope, value_end);
      break;
    case 2:
      if (KEY_IS ("ph"))
        return scan_char_field (p, end, &f->ph, value_end);
      if (KEY_IS ("ts"))
        return scan_time (p, end, f, 0, value_end);
      if (KEY_IS ("id"))
        return te_scan_value (p, end, &f->id, value_end);
      if (KEY_IS ("bp"))
        return scan_char_field (p, end, &f->bp, value_end);
      if (KEY_IS ("sf"))
        return te_scan_value (p, end, &f->sf, value_end);
      break;
    case 3:
      if (KEY_IS ("pid"))
        return te_scan_value (p, end, &f->pid, value_end);
      if (KEY_IS ("tid"))
        return te_scan_value (p, end, &f->tid, value_end);
      if (KEY_IS ("cat"))
        return scan_string_field (p, end, &f->has_cat, &f->cat, value_end);
      if (KEY_IS ("dur"))
        return scan_time (p, end, f, 1, value_end);
      if (KEY_IS ("tts"))
        return scan_time (p, end, f, 2, value_end);
      if (KEY_IS ("id2") && *p == '{')
        return strata_json_scan_object (p, end, scan_id2_member, f, value_end);
      break;
    case 4:
      if (KEY_IS ("name"))
        return scan_string_field (p, end, &f->has_name, &f->name, value_end);
      if (KEY_IS ("args"))
        {
          StrataJsonStatus status;

          f->args = p;
          if (f->args_reader == NULL || !f->args_reader->read (f->args_reader->data, p, end, &status, value_end))
            status = strata_json_skip_value (p, end, value_end);
          f->args_end = *value_end;
          return status;
        }
      if (KEY_IS ("tdur"))
        return scan_time (p, end, f, 3, value_end);
      break;
    case 5:
      if (KEY_IS ("scope"))
        return scan_string_field (p, end, &f->has_scope, &f->scope_name, value_end);
      break;
    case 7:
      if (KEY_IS ("bind_id"))
        return te_scan_value (p, end, &f->bind_id, value_end);
      if (KEY_IS ("flow_in"))
        return scan_bool (p, end, &f->flow_in, value_end);
      break;
    case 8:
      if (KEY_IS ("flow_out"))
        return scan_bool (p, end, &f->flow_out, value_end);
      break;
    default:
      break;
    }
  return strata_json_skip_value (p, end, value_end);
}

/* Every event's fields are cleared before it is scanned: the compiler
 * would clear the 512 bytes with "rep stos", which takes longer to
 * start than the vector stores here take to finish. */
static inline void
te_fields_clear (TeFields *fields)
{
  typedef guint64 Block __attribute__ ((vector_size (16), aligned (8), may_alias));
  G_STATIC_ASSERT (sizeof (TeFields) % sizeof (Block) == 0);
  Block *blocks = (Block *) fields;
  const Block zero = { 0, 0 };

#pragma GCC unroll 32
  for (gsize i = 0; i < sizeof (TeFields) / sizeof (Block); i++)
    blocks[i] = zero;
}

StrataJsonStatus
te_scan_event (const char  *p,
               const char  *end,
               TeFields    *fields,
               const char **event_end)
{
  const TeArgsReader *args_reader = fields->args_reader;

  te_fields_clear (fields);
  fields->args_reader = args_reader;
  return strata_json_scan_object_inline (p, end, scan_event_member, fields, event_end);
}

