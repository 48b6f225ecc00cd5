/* strata-trace-object-private.h: the fields of a StrataTrace
 *
 * For strata-trace.c and strata-trace-names.c only; readers build a trace
 * through strata-trace-private.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "strata-trace-private.h"

G_BEGIN_DECLS

struct _StrataTrace
{
  GObject           parent_instance;

  StrataFormat      format;
  char             *format_detail;
  GFile            *file;
  guint64           file_size;

  StrataStringPool *pool;
  guint             n_clocks;
  StrataClockKind   clocks[STRATA_MAX_CLOCKS];
  gboolean          calls_are_samples;  /* every call was made from samples */
  GArray           *processes;    /* StrataProcess */
  GArray           *threads;      /* StrataThread */
  GArray           *methods;      /* StrataMethod */
  GPtrArray        *metadata;     /* key, value, key, value, ... */
  GPtrArray        *blocks;       /* large storage shared by span tables */
  GArray           *events;       /* StrataEvent, by start */
  GArray           *flows;        /* StrataFlow */
  GPtrArray        *counters;     /* StrataCounter */
  guint64           phase_counts[128];
  GArray           *source_links; /* SourceLink, by @from once finished */
  GBytes           *args_text;    /* events' args kept by the loader, or NULL: read from the file */
  StrataHeap       *heap;
  gint64            start;
  gint64            end;
  guint64           n_spans;

  /* What the loader repaired or dropped, one sentence each. */
  GPtrArray        *diagnostics;
  GPtrArray        *notes;          /* normal for the kind, said quietly */

  /* The names as loaded, while a mapping's are shown (NULL: none is). */
  guint32          *loaded_method_names;
  guint32          *loaded_class_names;
  GArray           *mapped_methods;     /* StrataMethod through a mapping, or NULL */
  StrataMapping    *field_mapping;      /* heap fields' names, with a mapping */
};

G_END_DECLS
