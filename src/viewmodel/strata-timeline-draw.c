/* strata-timeline-draw.c: the rows of the timeline
 *
 * Level of detail: a call at least a pixel wide is drawn as itself; calls
 * narrower than that merge into one mark per pixel column, found by
 * jumping (binary search) to the first call that reaches the next column.
 * A row costs at most a few primitives per column at any zoom.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <glib/gi18n.h>

#include "strata-timeline-render-private.h"
#include "strata-units.h"

/* ---- Label cache ---- */

#define LABEL_CACHE_MAX 4096

struct _StrataLabelCache
{
  GHashTable *layouts;   /* method << 32 | width in px -> PangoLayout */
};

StrataLabelCache *
strata_label_cache_new (void)
{
  StrataLabelCache *cache = g_new0 (StrataLabelCache, 1);

  cache->layouts = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_object_unref);
  return cache;
}

void
strata_label_cache_free (StrataLabelCache *cache)
{
  if (cache == NULL)
    return;
  g_hash_table_unref (cache->layouts);
  g_free (cache);
}

/* Call when the trace, font or scale changes. */
void
strata_label_cache_clear (StrataLabelCache *cache)
{
  g_hash_table_remove_all (cache->layouts);
}

/* ---- Text ---- */

/* The text @layout shows: where it is ellipsized, as much as fits before
 * the ellipsis, measured on the same font, then the ellipsis. */
static char *
shown_text (PangoLayout *layout)
{
  const char *text = pango_layout_get_text (layout);
  g_autoptr(PangoLayout) whole = NULL;
  g_autoptr(PangoLayout) ellipsis = NULL;
  int ellipsis_width, index = 0, trailing = 0;

  if (!pango_layout_is_ellipsized (layout))
    return g_strdup (text);
  whole = pango_layout_copy (layout);
  pango_layout_set_ellipsize (whole, PANGO_ELLIPSIZE_NONE);
  pango_layout_set_width (whole, -1);
  ellipsis = pango_layout_copy (whole);
  pango_layout_set_text (ellipsis, "\u2026", -1);
  pango_layout_get_size (ellipsis, &ellipsis_width, NULL);
  /* The character under the cut does not fit: it goes too. */
  if (pango_layout_get_width (layout) > ellipsis_width)
    pango_layout_xy_to_index (whole, pango_layout_get_width (layout) - ellipsis_width, 0, &index, &trailing);
  return g_strdup_printf ("%.*s\u2026", index, text);
}

/**
 * strata_timeline_show_layout:
 *
 * Draws @layout at the current point, or with a text sink hands its text
 * over instead: as it shows, ellipsized, and whole, so a reader of the
 * export finds every name.
 */
void
strata_timeline_show_layout (cairo_t                  *cr,
                             const StrataTimelineView *view,
                             PangoLayout              *layout)
{
  const PangoFontDescription *font;
  double x, y, red = 0, green = 0, blue = 0, alpha = 1, width, size;
  StrataColor color;
  g_autofree char *shown = NULL;

  if (view->text_sink == NULL)
    {
      pango_cairo_show_layout (cr, layout);
      return;
    }
  cairo_get_current_point (cr, &x, &y);
  cairo_user_to_device (cr, &x, &y);
  cairo_pattern_get_rgba (cairo_get_source (cr), &red, &green, &blue, &alpha);
  color = (StrataColor) { red, green, blue, alpha };
  width = pango_layout_get_width (layout) > 0 ? (double) pango_layout_get_width (layout) / PANGO_SCALE : 0;
  font = pango_layout_get_font_description (layout);
  if (font == NULL)
    font = pango_context_get_font_description (pango_layout_get_context (layout));
  size = font != NULL ? pango_font_description_get_size (font) / (double) PANGO_SCALE : 9;
  shown = shown_text (layout);
  view->text_sink (shown, pango_layout_get_text (layout), x, y, width, size,
                   font != NULL && pango_font_description_get_weight (font) >= PANGO_WEIGHT_BOLD,
                   &color, view->text_sink_data);
}

/* ---- Spans ---- */

static const StrataColor *
method_color (const Painter *p,
              guint32        method)
{
  if (p->view->colors == NULL)
    return strata_palette_get_color (STRATA_PALETTE_NEUTRAL);
  return strata_palette_get_color (p->view->colors[method]);
}

/* A search dims what it does not match; else the selected method's
 * calls stand out. */
static double
span_alpha (const Painter *p,
            guint32        method)
{
  if (p->view->search != NULL)
    return strata_search_get_methods (p->view->search)[method] ? 1.0 : DIMMED_ALPHA;
  if (p->view->selected_method == G_MAXUINT32 || p->view->selected_method == method)
    return 1.0;
  return DIMMED_ALPHA;
}

gboolean
strata_painter_event_dimmed (const Painter *p,
                             guint          event)
{
  return p->view->search != NULL && !strata_search_matches_event (p->view->search, event);
}

/* A bar at the left of a track's label whose name the search matches. */
void
strata_painter_mark_name_match (const Painter *p,
                                const char    *name,
                                double         y,
                                double         height)
{
  if (p->view->search == NULL || !strata_search_matches_name (p->view->search, name))
    return;
  set_rgba (p->cr, &p->view->theme->accent, 1.0);
  strata_painter_band (p->cr, 2, y + 2, 4, height - 4);
  cairo_fill (p->cr);
}

/* Names from the trace are clipped: a layout of a 200 MB name takes
 * gigabytes, and only a few hundred characters fit on screen anyway. */
void
strata_painter_set_display_text (PangoLayout *layout,
                                 const char  *text)
{
  g_autofree char *clipped = NULL;

  pango_layout_set_text (layout, strata_units_clip_for_display (text, &clipped), -1);
}

static PangoLayout *
label_layout (const Painter *p,
              guint32        method,
              int            width)
{
  StrataLabelCache *cache = p->view->label_cache;
  guint64 key = ((guint64) method << 32) | (guint32) width;
  PangoLayout *layout;

  if (cache == NULL)
    {
      layout = p->layout;
      strata_painter_set_display_text (layout, strata_trace_get_method_name (p->view->trace, method));
      pango_layout_set_width (layout, (width - 6) * PANGO_SCALE);
      return layout;
    }

  if ((layout = g_hash_table_lookup (cache->layouts, &key)))
    return layout;

  if (g_hash_table_size (cache->layouts) >= LABEL_CACHE_MAX)
    g_hash_table_remove_all (cache->layouts);
  layout = pango_layout_copy (p->layout);
  strata_painter_set_display_text (layout, strata_trace_get_method_name (p->view->trace, method));
  pango_layout_set_width (layout, (width - 6) * PANGO_SCALE);
  g_hash_table_insert (cache->layouts, g_memdup2 (&key, sizeof key), layout);
  return layout;
}

static void
draw_label (const Painter     *p,
            guint32            method,
            double             x,
            double             y,
            double             width,
            double             height,
            const StrataColor *color)
{
  double luminance = 0.299 * color->red + 0.587 * color->green + 0.114 * color->blue;
  PangoLayout *layout;
  int text_height;

  if (p->layout == NULL || width < MIN_LABEL_PX)
    return;

  layout = label_layout (p, method, (int) width);
  pango_layout_get_pixel_size (layout, NULL, &text_height);

  cairo_save (p->cr);
  strata_painter_band (p->cr, x, y, width, height);
  cairo_clip (p->cr);
  if (luminance > 0.55)
    cairo_set_source_rgba (p->cr, 0, 0, 0, 0.85 * span_alpha (p, method));
  else
    cairo_set_source_rgba (p->cr, 1, 1, 1, 0.95 * span_alpha (p, method));
  cairo_move_to (p->cr, x + 3, y + (height - text_height) / 2);
  strata_timeline_show_layout (p->cr, p->view, layout);
  cairo_restore (p->cr);
}

static guint
color_slot (const Painter *p,
            guint32        method)
{
  guint8 index = p->view->colors ? p->view->colors[method] : STRATA_PALETTE_NEUTRAL;

  return index < NEUTRAL_SLOT ? index : NEUTRAL_SLOT;
}

static void
add_rect (const Painter *p,
          guint          bucket,
          double         x,
          double         y,
          double         width,
          double         height)
{
  /* Whole pixels: cairo fills aligned boxes on a fast path, and edges
   * stay crisp. */
  double left = round (x), top = round (y);
  double rect[4] = { left, top, MAX (1.0, round (x + width) - left), MAX (1.0, round (y + height) - top) };

  g_array_append_vals (p->batches[bucket], rect, 4);
}

static void
add_density (const Painter *p,
             double         left,
             double         right)
{
  guint n = (guint) p->area_width;
  guint from = (guint) CLAMP (floor (left - p->area_x), 0, n - 1);
  guint to = (guint) CLAMP (ceil (right - p->area_x), from + 1, n);

  p->density[from]++;
  p->density[to]--;
}

static void
draw_span (const Painter *p,
           guint32        method,
           double         x0,
           double         x1,
           double         y,
           double         height)
{
  double left = MAX (x0, p->area_x);
  double right = MIN (x1, p->area_x + p->area_width);
  double width = right - left;

  if (p->density != NULL)
    {
      add_density (p, left, right);
      return;
    }

  add_rect (p, color_slot (p, method) + (span_alpha (p, method) < 1 ? N_COLOR_SLOTS : 0),
            left, y, MAX (1.0, width - (width > 3 ? 1 : 0)), height - 1);
  if (p->layout != NULL && width - 1 >= MIN_LABEL_PX)
    {
      PendingLabel label = { method, left, y, width - 1, height - 1 };

      g_array_append_val (p->labels, label);
    }
}

static void
draw_merged (const Painter *p,
             double         from,
             double         to,
             double         y,
             double         height)
{
  if (p->density != NULL)
    add_density (p, from, to);
  else
    add_rect (p, MERGED_BUCKET, from, y, to - from, height - 1);
}

static void
flush_batches (const Painter *p)
{
  for (guint b = 0; b < N_BUCKETS; b++)
    {
      GArray *rects = p->batches[b];
      const double *r = (const double *) rects->data;

      if (rects->len == 0)
        continue;

      if (b == MERGED_BUCKET)
        {
          /* Opaque grey fills fastest; dimmed, it lets the selection show. */
          const StrataColor *grey = strata_palette_get_color (STRATA_PALETTE_NEUTRAL);

          cairo_set_source_rgba (p->cr, grey->red, grey->green, grey->blue,
                                 p->view->selected_method == G_MAXUINT32 && p->view->search == NULL ? 1.0 : DIMMED_ALPHA);
        }
      else
        {
          guint slot = b % N_COLOR_SLOTS;
          const StrataColor *color = strata_palette_get_color (slot == NEUTRAL_SLOT ? STRATA_PALETTE_NEUTRAL : slot);

          cairo_set_source_rgba (p->cr, color->red, color->green, color->blue,
                                 b >= N_COLOR_SLOTS ? DIMMED_ALPHA : 1.0);
        }
      for (guint i = 0; i < rects->len; i += 4)
        strata_painter_band (p->cr, r[i], r[i + 1], r[i + 2], r[i + 3]);
      cairo_fill (p->cr);
      g_array_set_size (rects, 0);
    }

  for (guint i = 0; i < p->labels->len; i++)
    {
      const PendingLabel *label = &g_array_index (p->labels, PendingLabel, i);

      draw_label (p, label->method, label->x, label->y, label->width, label->height,
                  method_color (p, label->method));
    }
  g_array_set_size (p->labels, 0);
}

/* The first call at @depth from @from on that ends at or after @time:
 * galloping, since the next column is usually only a few calls on. */
static guint32
search_from (const StrataSpanTable *table,
             guint                  clock,
             guint                  depth,
             guint32                from,
             gint64                 time)
{
  guint32 n = table->n_spans[depth];
  guint32 step = 1, lo = from, hi;

  if (clock == 0)
    return strata_span_table_search_from (table, depth, from, time);
  if (from >= n || strata_span_table_get_end (table, clock, depth, from) >= time)
    return from;

  while (from + step < n && strata_span_table_get_end (table, clock, depth, from + step) < time)
    {
      lo = from + step;
      step *= 2;
    }
  hi = MIN (n, from + step);

  /* end(lo) < time <= end(hi), or hi == n */
  while (hi - lo > 1)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (strata_span_table_get_end (table, clock, depth, mid) < time)
        lo = mid;
      else
        hi = mid;
    }
  return hi;
}

/* One depth of one thread: the heart of the level of detail. */
void
strata_painter_draw_depth (const Painter         *p,
                           const StrataSpanTable *table,
                           guint                  depth,
                           double                 y,
                           double                 height)
{
  const StrataTimelineView *view = p->view;
  guint clock = view->clock;
  guint32 n = table->n_spans[depth];
  guint32 i = strata_span_table_search_clock (table, clock, depth, view->start);
  double merged_from = -1, merged_to = -1;

  while (i < n)
    {
      gint64 start = strata_span_table_get_start (table, clock, depth, i);
      gint64 end = strata_span_table_get_end (table, clock, depth, i);
      double x0, x1, column;
      guint32 next;

      if (start > view->end)
        break;

      x0 = span_x (p, start);
      x1 = span_x (p, end);
      if (x1 - x0 >= MIN_SPAN_PX)
        {
          if (merged_to >= 0)
            draw_merged (p, merged_from, merged_to, y, height);
          merged_from = merged_to = -1;
          draw_span (p, table->calls[depth][i].method, x0, x1, y, height);
          i++;
          continue;
        }

      /* Sub-pixel: mark this column and jump to the next one. */
      column = floor (MAX (x0, p->area_x));
      if (merged_to >= 0 && column <= merged_to)
        merged_to = MAX (merged_to, column + 1);
      else
        {
          if (merged_to >= 0)
            draw_merged (p, merged_from, merged_to, y, height);
          merged_from = column;
          merged_to = column + 1;
        }
      next = search_from (table, clock, depth, i + 1,
                          view->start + (gint64) ceil ((column + 1 - p->area_x) * p->ns_per_px));
      i = MAX (i + 1, next);
    }

  if (merged_to >= 0)
    draw_merged (p, merged_from, merged_to, y, height);
  flush_batches (p);
}

static void
draw_focus (const Painter     *p,
            const StrataTrack *track,
            double             y)
{
  const StrataTimelineView *view = p->view;
  const StrataThread *thread = strata_trace_get_thread (view->trace, track->index);
  double x0, x1, row_y;

  if (!view->has_focus || view->focus_thread != track->index || thread->spans == NULL ||
      view->focus_depth >= thread->spans->n_depths ||
      view->focus_index >= thread->spans->n_spans[view->focus_depth])
    return;

  x0 = span_x (p, strata_span_table_get_start (thread->spans, view->clock, view->focus_depth, view->focus_index));
  x1 = span_x (p, strata_span_table_get_end (thread->spans, view->clock, view->focus_depth, view->focus_index));
  row_y = track_compact (view, track) ? y : y + view->focus_depth * STRATA_TIMELINE_ROW_HEIGHT;
  set_rgba (p->cr, &view->theme->accent, 1.0);
  cairo_set_line_width (p->cr, 2);
  strata_painter_band (p->cr, MAX (x0, p->area_x) - 1, row_y - 1, MAX (x1 - x0, 2) + 2,
                   (track_compact (view, track) ? STRATA_TIMELINE_COMPACT_HEIGHT : STRATA_TIMELINE_ROW_HEIGHT) + 1);
  cairo_stroke (p->cr);
}

static void
draw_thread_spans (const Painter     *p,
                   const StrataTrack *track,
                   double             y,
                   double             viewport_height)
{
  const StrataThread *thread = strata_trace_get_thread (p->view->trace, track->index);
  const StrataSpanTable *table = thread->spans;

  if (table == NULL)
    return;
  cairo_save (p->cr);
  strata_painter_band (p->cr, p->area_x, y, p->area_width, track->height);
  cairo_clip (p->cr);

  for (guint d = 0; d < table->n_depths; d++)
    {
      gboolean compact = track_compact (p->view, track);
      double row_y = compact ? y : y + d * STRATA_TIMELINE_ROW_HEIGHT;
      double row_h = compact ? STRATA_TIMELINE_COMPACT_HEIGHT : STRATA_TIMELINE_ROW_HEIGHT;

      /* Only rows on screen; in compact mode deeper calls paint over
       * their callers, leaving the running method visible. */
      if (row_y + row_h < 0 || row_y > viewport_height)
        continue;
      strata_painter_draw_depth (p, table, d, row_y, row_h);
    }

  draw_focus (p, track, y);
  cairo_restore (p->cr);
}

/* ---- Labels and headers ---- */

void
strata_painter_draw_text (const Painter *p,
                          const char    *text,
                          double         x,
                          double         y,
                          double         width,
                          double         alpha,
                          gboolean       bold)
{
  PangoFontDescription *font = NULL;

  if (p->layout == NULL)
    return;

  if (bold)
    {
      font = pango_font_description_copy (pango_layout_get_font_description (p->layout));
      pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
      pango_layout_set_font_description (p->layout, font);
    }
  strata_painter_set_display_text (p->layout, text);
  pango_layout_set_width (p->layout, (int) (width * PANGO_SCALE));
  set_rgba (p->cr, &p->view->theme->fg, alpha);
  cairo_move_to (p->cr, x, y);
  strata_timeline_show_layout (p->cr, p->view, p->layout);
  if (font != NULL)
    {
      pango_font_description_unset_fields (font, PANGO_FONT_MASK_WEIGHT);
      pango_layout_set_font_description (p->layout, font);
      pango_font_description_free (font);
    }
}

static void
draw_process_header (const Painter     *p,
                     const StrataTrack *track,
                     double             y)
{
  const StrataTimelineView *view = p->view;
  const StrataProcess *process = strata_trace_get_process (view->trace, track->index);
  g_autofree char *title = NULL;
  g_autofree char *pid = g_strdup_printf ("%" G_GINT64_FORMAT, process->pid);
  const char *name = strata_trace_get_string (view->trace, process->name);

  if (*name == '\0')
    /* Translators: a process without a name */
    name = _("Process");
  set_rgba (p->cr, &view->theme->fg, 0.07);
  strata_painter_band (p->cr, 0, y, view->width, track->height);
  cairo_fill (p->cr);
  strata_painter_mark_name_match (p, strata_trace_get_string (view->trace, process->name), y, track->height);

  if (track->n_threads == 0 && process->pid != 0)
    /* Translators: a process header without threads: disclosure triangle, name and pid */
    title = g_strdup_printf (_("%s %s (pid %s)"), track->collapsed ? "▸" : "▾", name, pid);
  else if (track->n_threads == 0)
    title = g_strdup_printf ("%s %s", track->collapsed ? "▸" : "▾", name);
  else if (process->pid != 0)
    /* Translators: a process header: disclosure triangle, name, pid and thread count */
    title = g_strdup_printf (ngettext ("%s %s (pid %s) · %u thread",
                                       "%s %s (pid %s) · %u threads", track->n_threads),
                             track->collapsed ? "▸" : "▾", name, pid, track->n_threads);
  else
    /* Translators: a process header: disclosure triangle, name and thread count */
    title = g_strdup_printf (ngettext ("%s %s · %u thread", "%s %s · %u threads", track->n_threads),
                             track->collapsed ? "▸" : "▾", name, track->n_threads);
  strata_painter_draw_text (p, title, 8, y + 5, view->width - 16, 0.9, TRUE);
}

static void
draw_thread_label (const Painter     *p,
                   const StrataTrack *track,
                   double             y)
{
  const StrataTimelineView *view = p->view;
  const StrataThread *thread = strata_trace_get_thread (view->trace, track->index);
  const char *name = strata_trace_get_string (view->trace, thread->name);
  g_autofree char *tid = g_strdup_printf ("%" G_GINT64_FORMAT, thread->tid);
  g_autofree char *one_line = NULL;
  double inner = track->height - STRATA_TIMELINE_TRACK_GAP;
  gboolean two_lines = inner >= 2 * STRATA_TIMELINE_ROW_HEIGHT && *name != '\0' && thread->tid != 0;
  /* The label stays in view while its thread does: a deep thread
   * scrolled past its top keeps its name at the top of the pane. */
  double band_top = y;

  set_rgba (p->cr, &view->theme->fg, 0.035);
  strata_painter_band (p->cr, 0, band_top, view->label_width, inner);
  cairo_fill (p->cr);
  y = MAX (y, MIN (0, band_top + inner - (two_lines ? 2 : 1) * STRATA_TIMELINE_ROW_HEIGHT));
  strata_painter_mark_name_match (p, name, y, MIN (inner, 2 * STRATA_TIMELINE_ROW_HEIGHT));

  if (*name == '\0')
    {
      /* Translators: a thread without a name, by its id */
      one_line = g_strdup_printf (_("Thread %s"), tid);
      strata_painter_draw_text (p, one_line, 10, y + 1, view->label_width - 16, 0.85, FALSE);
      return;
    }
  /* A named thread with no id (0, as a .cpuprofile's) is its name. */
  if (thread->tid == 0)
    {
      strata_painter_draw_text (p, name, 10, y + 1, view->label_width - 16, 0.85, FALSE);
      return;
    }
  if (two_lines)
    {
      /* Translators: the thread id under a thread's name */
      g_autofree char *second = g_strdup_printf (_("thread %s"), tid);

      strata_painter_draw_text (p, name, 10, y + 1, view->label_width - 16, 0.85, FALSE);
      strata_painter_draw_text (p, second, 10, y + 1 + STRATA_TIMELINE_ROW_HEIGHT, view->label_width - 16, 0.5, FALSE);
      return;
    }
  /* Translators: a thread's name and id on one line */
  one_line = g_strdup_printf (_("%s (%s)"), name, tid);
  strata_painter_draw_text (p, one_line, 10, y + 1, view->label_width - 16, 0.85, FALSE);
}


static PangoLayout *
create_layout (cairo_t                    *cr,
               const PangoFontDescription *font)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *fallback = NULL;

  if (font == NULL)
    font = fallback = pango_font_description_from_string ("Sans 9");
  pango_layout_set_font_description (layout, font);
  g_clear_pointer (&fallback, pango_font_description_free);

  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_single_paragraph_mode (layout, TRUE);
  return layout;
}

void
strata_painter_init (Painter                  *p,
                     cairo_t                  *cr,
                     const StrataTimelineView *view)
{
  p->view = view;
  p->cr = cr;
  p->density = NULL;
  p->area_x = view->label_width;
  p->area_width = MAX (1.0, view->width - view->label_width);
  p->ns_per_px = (double) MAX (1, view->end - view->start) / p->area_width;
  p->layout = create_layout (cr, view->font);
  for (guint b = 0; b < N_BUCKETS; b++)
    p->batches[b] = g_array_new (FALSE, FALSE, sizeof (double));
  p->labels = g_array_new (FALSE, FALSE, sizeof (PendingLabel));
}

void
strata_painter_clear (Painter *p)
{
  g_clear_object (&p->layout);
  for (guint b = 0; b < N_BUCKETS; b++)
    g_clear_pointer (&p->batches[b], g_array_unref);
  g_clear_pointer (&p->labels, g_array_unref);
}

void
strata_painter_draw_range (const Painter *p,
                           double         top,
                           double         height)
{
  const StrataTimelineView *view = p->view;
  double x0, x1;

  if (!view->has_range)
    return;
  x0 = MAX (span_x (p, view->range_start), p->area_x);
  x1 = MIN (span_x (p, view->range_end), p->area_x + p->area_width);
  if (x1 < x0)
    return;
  set_rgba (p->cr, &view->theme->accent, 0.15);
  strata_painter_band (p->cr, x0, top, MAX (1, x1 - x0), height);
  cairo_fill (p->cr);
  set_rgba (p->cr, &view->theme->accent, 0.8);
  cairo_set_line_width (p->cr, 1);
  cairo_move_to (p->cr, floor (x0) + 0.5, top);
  cairo_line_to (p->cr, floor (x0) + 0.5, top + height);
  cairo_move_to (p->cr, floor (x1) + 0.5, top);
  cairo_line_to (p->cr, floor (x1) + 0.5, top + height);
  cairo_stroke (p->cr);
}

/**
 * strata_timeline_render_rows:
 * @height: the height of the row viewport; (0, 0) is its top left
 *
 * Draws the tracks that intersect the viewport, scrolled by scroll_y.
 */
void
strata_timeline_render_rows (cairo_t                  *cr,
                             const StrataTimelineView *view,
                             double                    height)
{
  Painter p;

  if (view->trace == NULL || view->tracks == NULL || view->width <= view->label_width || height <= 0)
    return;

  strata_painter_init (&p, cr, view);

  for (guint i = 0; i < view->tracks->len; i++)
    {
      const StrataTrack *track = &g_array_index (view->tracks, StrataTrack, i);
      double y = track->y - view->scroll_y;

      if (y + track->height < 0)
        continue;
      if (y > height)
        break;

      if (track->kind == STRATA_TRACK_PROCESS)
        {
          draw_process_header (&p, track, y);
          if (view->events != NULL)
            strata_painter_draw_instants (&p, view->events->process_instants[track->index], y, strata_painter_process_extent (view, i));
        }
      else if (track->kind == STRATA_TRACK_COUNTER)
        strata_painter_draw_counter (&p, track, y);
      else if (track->kind == STRATA_TRACK_ASYNC || track->kind == STRATA_TRACK_OBJECTS)
        strata_painter_draw_lanes (&p, track, y);
      else
        {
          draw_thread_label (&p, track, y);
          draw_thread_spans (&p, track, y, height);
          if (view->events != NULL)
            strata_painter_draw_instants (&p, view->events->thread_instants[track->index], y, STRATA_TIMELINE_ROW_HEIGHT);
        }
    }
  if (view->events != NULL)
    strata_painter_draw_global_instants (&p, view->events->global_instants, height);
  if (view->flows != NULL)
    strata_painter_draw_flows (&p);

  strata_painter_draw_range (&p, 0, height);
  strata_painter_clear (&p);
}
