/* strata-report.c: report mode; links the model only, never GTK
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "strata-loader.h"
#include "strata-report.h"

#define EXIT_LOAD_FAILED 1
#define EXIT_USAGE 2

typedef enum
{
  REPORT_TEXT,
  REPORT_JSON,
} ReportFormat;

/**
 * strata_report_is_requested:
 *
 * Report mode must be decided before GTK starts, since it needs no display.
 */
gboolean
strata_report_is_requested (char **argv)
{
  for (guint i = 1; argv[i] != NULL; i++)
    {
      if (g_str_equal (argv[i], "--"))
        break;
      if (g_str_equal (argv[i], "-r") || g_str_equal (argv[i], "--report"))
        return TRUE;
    }
  return FALSE;
}

static void
print_text (StrataTrace *trace)
{
  GFile *file = strata_trace_get_file (trace);
  g_autofree char *location = g_file_get_parse_name (file);
  guint n = strata_trace_get_n_diagnostics (trace);

  g_print ("%s: %s\n", _("File"), location);
  g_print ("%s: %s\n", _("Format"), strata_format_get_name (strata_trace_get_format (trace)));
  g_print ("%s: %" G_GUINT64_FORMAT "\n", _("Size"), strata_trace_get_file_size (trace));
  g_print ("\n%s\n", _("Diagnostics"));
  if (n == 0)
    g_print ("  %s\n", _("none"));
  for (guint i = 0; i < n; i++)
    g_print ("  %s\n", strata_trace_get_diagnostic (trace, i));
}

static void
print_json (StrataTrace *trace)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *location = g_file_get_parse_name (strata_trace_get_file (trace));
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "file");
  json_builder_add_string_value (builder, location);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, strata_format_get_id (strata_trace_get_format (trace)));
  json_builder_set_member_name (builder, "size");
  json_builder_add_int_value (builder, strata_trace_get_file_size (trace));
  json_builder_set_member_name (builder, "diagnostics");
  json_builder_begin_array (builder);
  for (guint i = 0; i < strata_trace_get_n_diagnostics (trace); i++)
    json_builder_add_string_value (builder, strata_trace_get_diagnostic (trace, i));
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, NULL);
  g_print ("%s\n", text);
}

static gboolean
parse_report_format (const char   *name,
                     ReportFormat *format)
{
  if (name == NULL || g_str_equal (name, "text"))
    *format = REPORT_TEXT;
  else if (g_str_equal (name, "json"))
    *format = REPORT_JSON;
  else
    return FALSE;
  return TRUE;
}

int
strata_report_main (char **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(StrataLoader) loader = NULL;
  g_autoptr(StrataTrace) trace = NULL;
  g_autoptr(GFile) file = NULL;
  g_auto(GStrv) args = g_strdupv (argv);
  g_auto(GStrv) files = NULL;
  g_autofree char *format_name = NULL;
  gboolean report = FALSE;
  ReportFormat format;
  const GOptionEntry entries[] = {
    { "report", 'r', 0, G_OPTION_ARG_NONE, &report, N_("Print the profile of FILE as text"), NULL },
    { "format", 0, 0, G_OPTION_ARG_STRING, &format_name, N_("Report format: “text” or “json”"), N_("FORMAT") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, N_("FILE") },
    { NULL }
  };

  context = g_option_context_new (NULL);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse_strv (context, &args, &error))
    {
      g_printerr ("strata: %s\n", error->message);
      return EXIT_USAGE;
    }
  if (files == NULL || files[0] == NULL || files[1] != NULL)
    {
      g_printerr ("strata: %s\n", _("report mode takes exactly one FILE"));
      return EXIT_USAGE;
    }
  if (!parse_report_format (format_name, &format))
    {
      g_printerr ("strata: %s\n", _("unknown report format; use “text” or “json”"));
      return EXIT_USAGE;
    }

  file = g_file_new_for_commandline_arg (files[0]);
  loader = strata_loader_new (file);
  if (!(trace = strata_loader_load (loader, NULL, &error)))
    {
      g_printerr ("strata: %s: %s\n", files[0], error->message);
      return EXIT_LOAD_FAILED;
    }

  if (format == REPORT_JSON)
    print_json (trace);
  else
    print_text (trace);

  return EXIT_SUCCESS;
}
