/* strata-cli-options.c: the one table of command-line options
 *
 * `strata FILE`, `strata -r FILE` and `strata --export=IMAGE FILE` read
 * one table: each option once, its help, and the commands it applies to.
 * An option given to a command it does not apply to is bad usage (exit
 * 2) rather than silently dropped. --help prints the table grouped by
 * what the options are for, one line each.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stddef.h>
#include <string.h>
#include <glib/gi18n.h>

#include "strata-cli-options.h"
#include "strata-units.h"

typedef enum
{
  FOR_WINDOW = 1 << STRATA_CLI_WINDOW,
  FOR_REPORT = 1 << STRATA_CLI_REPORT,
  FOR_EXPORT = 1 << STRATA_CLI_EXPORT,
} Modes;

typedef enum
{
  GROUP_VIEWING,
  GROUP_REPORTS,
  GROUP_COMPARING,
  GROUP_EXPORTING,
  GROUP_OTHER,
  N_GROUPS,
} Group;

typedef struct
{
  const char *long_name;
  char        short_name;
  GOptionArg  arg;
  gsize       offset;          /* of the value in StrataCliOptions */
  Group       group;
  Modes       modes;
  const char *description;
  const char *arg_description;
} Option;

#define AT(field) offsetof (StrataCliOptions, field)

static const Option options[] = {
  { "view", 0, G_OPTION_ARG_STRING, AT (view), GROUP_VIEWING, FOR_WINDOW | FOR_EXPORT,
    N_("Open on “tree”, “bottom-up”, “flame” or “calls” (with --select); --export draws “timeline” or “flame”"), N_("VIEW") },
  { "range", 0, G_OPTION_ARG_STRING, AT (range), GROUP_VIEWING, FOR_WINDOW | FOR_EXPORT,
    N_("Show this part of the trace, in milliseconds from its start, such as 120.5-180"), N_("FROM-TO") },
  { "select", 0, G_OPTION_ARG_STRING, AT (select), GROUP_VIEWING, FOR_WINDOW,
    N_("Select the slowest method whose name contains TEXT, with its parents and children"), N_("TEXT") },
  { "details", 0, G_OPTION_ARG_NONE, AT (details), GROUP_VIEWING, FOR_WINDOW,
    N_("With --select: select that method’s longest call and show its details"), NULL },
  { "find", 0, G_OPTION_ARG_STRING, AT (find), GROUP_VIEWING, FOR_WINDOW,
    N_("Search the timeline for TEXT and go to the first match"), N_("TEXT") },
  { "clock", 0, G_OPTION_ARG_STRING, AT (clock), GROUP_VIEWING, FOR_WINDOW | FOR_REPORT | FOR_EXPORT,
    N_("“wall” (the default) or “cpu”, where a trace has both"), N_("CLOCK") },
  { "mapping", 0, G_OPTION_ARG_FILENAME, AT (mapping), GROUP_VIEWING, FOR_WINDOW | FOR_REPORT | FOR_EXPORT,
    N_("Show the names a ProGuard or R8 mapping.txt gives an obfuscated build"), N_("MAPPING") },
  { "follow-weak", 0, G_OPTION_ARG_NONE, AT (follow_weak), GROUP_VIEWING, FOR_WINDOW | FOR_REPORT,
    N_("Heap dumps: let weak, soft and phantom references keep their referents alive"), NULL },
  { "screenshot", 0, G_OPTION_ARG_FILENAME, AT (screenshot), GROUP_VIEWING, FOR_WINDOW,
    N_("Save the window as a PNG once FILE has loaded, then quit"), N_("PNG") },
  { "size", 0, G_OPTION_ARG_STRING, AT (size), GROUP_VIEWING, FOR_WINDOW | FOR_EXPORT,
    N_("Size in pixels of --screenshot (1280x800) or --export (1600 wide, as tall as the content)"), N_("WxH") },

  { "report", 'r', G_OPTION_ARG_NONE, AT (report), GROUP_REPORTS, FOR_REPORT,
    N_("Print a report of FILE without a window"), NULL },
  { "format", 0, G_OPTION_ARG_STRING, AT (format), GROUP_REPORTS, FOR_REPORT,
    N_("“text” (the default), “json”, “csv”, “folded” (collapsed stacks) or “speedscope” (a file speedscope opens)"), N_("FORMAT") },
  { "tree", 0, G_OPTION_ARG_STRING, AT (tree), GROUP_REPORTS, FOR_REPORT,
    N_("Print the merged call tree: “top-down” or “bottom-up”"), N_("TREE") },
  { "depth", 0, G_OPTION_ARG_INT, AT (depth), GROUP_REPORTS, FOR_REPORT,
    N_("With --tree: print N levels of it; with --format=folded: keep N frames of each stack"), N_("N") },
  { "top", 0, G_OPTION_ARG_INT, AT (top), GROUP_REPORTS, FOR_REPORT,
    N_("Parents and children of the N slowest methods (10), or the N heap objects that retain the most (100)"), N_("N") },
  { "strict-mapping", 0, G_OPTION_ARG_NONE, AT (strict_mapping), GROUP_REPORTS, FOR_REPORT,
    N_("With --mapping: refuse a mapping that does not fit the file (another build’s)"), NULL },

  { "compare", 0, G_OPTION_ARG_FILENAME, AT (compare), GROUP_COMPARING, FOR_WINDOW,
    N_("Open FILE compared with BASELINE, as Compare With… does"), N_("BASELINE") },
  { "diff", 0, G_OPTION_ARG_FILENAME, AT (diff), GROUP_COMPARING, FOR_REPORT,
    N_("With -r: print what changed from BASELINE to FILE, method by method or class by class"), N_("BASELINE") },
  { "fail-if", 0, G_OPTION_ARG_STRING_ARRAY, AT (fail_if), GROUP_COMPARING, FOR_REPORT,
    N_("With --diff: exit with status 3 when a row breaks RULE, such as “incl>+10%” (see below)"), N_("RULE") },
  { "baseline-mapping", 0, G_OPTION_ARG_FILENAME, AT (baseline_mapping), GROUP_COMPARING, FOR_REPORT,
    N_("With --diff: the mapping.txt of BASELINE’s build (the same as --mapping when not given)"), N_("MAPPING") },
  { "match", 0, G_OPTION_ARG_STRING, AT (match), GROUP_COMPARING, FOR_REPORT,
    N_("With --diff: match methods by “signature” (the default) or by “name” alone"), N_("HOW") },

  { "export", 0, G_OPTION_ARG_FILENAME, AT (export_path), GROUP_EXPORTING, FOR_EXPORT,
    N_("Draw FILE as IMAGE (.png, .svg or .pdf) without a window, and quit"), N_("IMAGE") },
  { "theme", 0, G_OPTION_ARG_STRING, AT (theme), GROUP_EXPORTING, FOR_EXPORT,
    N_("With --export: “light” (the default) or “dark”"), N_("THEME") },

  { "version", 'v', G_OPTION_ARG_NONE, AT (version), GROUP_OTHER, FOR_WINDOW | FOR_REPORT | FOR_EXPORT,
    N_("Show the version and exit"), NULL },
  { "help", 'h', G_OPTION_ARG_NONE, AT (help), GROUP_OTHER, FOR_WINDOW | FOR_REPORT | FOR_EXPORT,
    N_("Show this help and exit"), NULL },
};

static const char *
group_title (Group group)
{
  switch (group)
    {
    case GROUP_VIEWING:
      return _("Viewing (the window; most apply to reports and exports too):");
    case GROUP_REPORTS:
      return _("Reports, without a window (-r):");
    case GROUP_COMPARING:
      return _("Comparing:");
    case GROUP_EXPORTING:
      return _("Exporting images, without a window:");
    case GROUP_OTHER:
    case N_GROUPS:
    default:
      return _("Other:");
    }
}

static const char rules_help[] = N_(
  "Rules of --fail-if: FIGURE>VALUE or FIGURE<VALUE, then optionally :PATTERN, a glob\n"
  "on the method or class name; conditions joined by & must all hold. FIGURE is\n"
  "incl, excl or calls for traces, instances, shallow or retained for heap dumps.\n"
  "A signed VALUE is a change: +10% (relative), +5ms, -1MB, +100; an unsigned one\n"
  "is the current value: 20MB, or 1% of the current total. Times take ns, us, ms\n"
  "or s (sample counts on a sampled clock); sizes B, KB, MB, GB or KiB, MiB, GiB.\n"
  "A method or class only in FILE breaks every relative growth rule it matches.\n"
  "Example: strata -r --diff=before.trace --fail-if='incl>+10%&incl>+2ms' after.trace");

static const char exit_help[] = N_(
  "Exit status: 0 done; 1 a file could not be read; 2 bad usage (an unknown or\n"
  "misplaced option, or a request the file cannot meet, such as a call tree of a\n"
  "heap dump); 3 a --fail-if rule was broken (the rows that broke it are printed).");

void
strata_cli_options_init (StrataCliOptions *self)
{
  memset (self, 0, sizeof *self);
  self->depth = -1;
  self->top = -1;
}

void
strata_cli_options_clear (StrataCliOptions *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    {
      gpointer value = (char *) self + options[i].offset;

      if (options[i].arg == G_OPTION_ARG_STRING || options[i].arg == G_OPTION_ARG_FILENAME)
        g_clear_pointer ((char **) value, g_free);
      else if (options[i].arg == G_OPTION_ARG_STRING_ARRAY)
        g_clear_pointer ((char ***) value, g_strfreev);
    }
  g_clear_pointer (&self->files, g_strfreev);
}

/* Whether option @i was given. */
static gboolean
is_given (const StrataCliOptions *self,
          guint                   i)
{
  gconstpointer value = (const char *) self + options[i].offset;

  switch (options[i].arg)
    {
    case G_OPTION_ARG_NONE:
      return *(const gboolean *) value;
    case G_OPTION_ARG_INT:
      return *(const int *) value != -1;
    default:
      return *(const gpointer *) value != NULL;
    }
}

/**
 * strata_cli_options_parse:
 * @argv: the whole command line, the program's name first
 *
 * Fills @self from @argv: the options, and the files after them.
 */
gboolean
strata_cli_options_parse (StrataCliOptions  *self,
                          char             **argv,
                          GError           **error)
{
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_auto(GStrv) args = g_strdupv (argv);
  GOptionEntry entries[G_N_ELEMENTS (options) + 2] = { { NULL } };
  guint n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    if (!g_str_equal (options[i].long_name, "help"))
      entries[n++] = (GOptionEntry) { options[i].long_name, options[i].short_name, 0, options[i].arg,
                                      (char *) self + options[i].offset, options[i].description,
                                      options[i].arg_description };
  entries[n++] = (GOptionEntry) { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &self->files, NULL, NULL };
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  /* --help is strata_cli_options_help()'s, grouped. */
  g_option_context_set_help_enabled (context, FALSE);
  return g_option_context_parse_strv (context, &args, error);
}

StrataCliMode
strata_cli_options_get_mode (const StrataCliOptions *self)
{
  if (self->report)
    return STRATA_CLI_REPORT;
  if (self->export_path != NULL)
    return STRATA_CLI_EXPORT;
  return STRATA_CLI_WINDOW;
}

static const char *
mode_name (StrataCliMode mode)
{
  switch (mode)
    {
    case STRATA_CLI_REPORT:
      return _("reports (-r)");
    case STRATA_CLI_EXPORT:
      return _("exports (--export)");
    case STRATA_CLI_WINDOW:
    default:
      return _("the window");
    }
}

static gboolean
usage_error (GError    **error,
             const char *message)
{
  g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, message);
  return FALSE;
}

/* Values every command reads alike. */
static gboolean
check_values (const StrataCliOptions *self,
              StrataCliMode           mode,
              GError                **error)
{
  double from, to;

  if (self->clock != NULL && !g_str_equal (self->clock, "wall") && !g_str_equal (self->clock, "cpu"))
    return usage_error (error, _("unknown clock; use “cpu” or “wall”"));
  if (self->range != NULL && !strata_units_parse_ms_range (self->range, &from, &to))
    return usage_error (error, _("--range takes FROM-TO in milliseconds, such as 120.5-180"));
  if (mode == STRATA_CLI_WINDOW && self->view != NULL &&
      !g_strv_contains ((const char *[]) { "tree", "bottom-up", "flame", "calls", NULL }, self->view))
    return usage_error (error, _("--view takes “tree”, “bottom-up”, “flame” or “calls”"));
  if (mode == STRATA_CLI_EXPORT && self->view != NULL &&
      !g_str_equal (self->view, "timeline") && !g_str_equal (self->view, "flame"))
    return usage_error (error, _("--view takes “timeline” or “flame” with --export"));
  if (self->strict_mapping && self->mapping == NULL)
    return usage_error (error, _("--strict-mapping needs --mapping=MAPPING"));
  if (mode == STRATA_CLI_WINDOW && self->size != NULL && self->screenshot == NULL)
    return usage_error (error, _("--size needs --screenshot or --export"));
  return TRUE;
}

/**
 * strata_cli_options_check:
 *
 * Returns: %FALSE with @error set when an option does not apply to the
 *   command it was given to (--select with -r, --theme without --export,
 *   -r with --export) or has a value no command reads
 */
gboolean
strata_cli_options_check (const StrataCliOptions *self,
                          GError                **error)
{
  StrataCliMode mode = strata_cli_options_get_mode (self);

  if (self->report && self->export_path != NULL)
    return usage_error (error, _("-r and --export are separate commands; give one of them"));
  for (guint i = 0; i < G_N_ELEMENTS (options); i++)
    if (is_given (self, i) && (options[i].modes & (1 << mode)) == 0)
      {
        g_autoptr(GString) modes = g_string_new (NULL);

        for (StrataCliMode m = STRATA_CLI_WINDOW; m <= STRATA_CLI_EXPORT; m++)
          if (options[i].modes & (1 << m))
            /* Translators: joins the kinds of command an option is for */
            g_string_append_printf (modes, "%s%s", modes->len > 0 ? _(" and ") : "", mode_name (m));
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                     /* Translators: an option, the kinds of command it is for, and the one it was given to */
                     _("--%s is for %s, not %s"), options[i].long_name, modes->str, mode_name (mode));
        return FALSE;
      }
  return check_values (self, mode, error);
}

/**
 * strata_cli_choose_clock:
 * @name: (nullable): --clock as checked: "wall" or "cpu"
 *
 * The clock @name picks in @trace, else the one the window opens on:
 * what the window, reports and exports show.
 */
guint
strata_cli_choose_clock (StrataTrace *trace,
                         const char  *name)
{
  if (g_strcmp0 (name, "cpu") == 0)
    return strata_trace_find_clock (trace, STRATA_CLOCK_THREAD_CPU);
  if (g_strcmp0 (name, "wall") == 0)
    return strata_trace_find_clock (trace, STRATA_CLOCK_WALL);
  return strata_trace_get_default_clock (trace);
}

/* Whether @argv asks for help (before any "--"). */
gboolean
strata_cli_options_wants_help (char **argv)
{
  for (guint i = 1; argv[i] != NULL; i++)
    {
      if (g_str_equal (argv[i], "--"))
        break;
      if (g_str_equal (argv[i], "--help") || g_str_equal (argv[i], "-h") || g_str_equal (argv[i], "-?") ||
          g_str_has_prefix (argv[i], "--help-"))
        return TRUE;
    }
  return FALSE;
}

static void
append_option (GString      *help,
               const Option *option)
{
  g_autofree char *name = NULL;

  if (option->arg_description != NULL)
    name = g_strdup_printf ("--%s=%s", option->long_name, _(option->arg_description));
  else
    name = g_strdup_printf ("--%s", option->long_name);
  if (option->short_name != 0)
    g_string_append_printf (help, "  -%c, ", option->short_name);
  else
    g_string_append (help, "      ");
  /* Padded by characters, not bytes: translated placeholders. */
  g_string_append (help, name);
  for (glong width = g_utf8_strlen (name, -1); width < 27; width++)
    g_string_append_c (help, ' ');
  g_string_append_printf (help, " %s\n", _(option->description));
}

/**
 * strata_cli_options_help:
 *
 * Returns: (transfer full): what `strata --help` prints: every option,
 *   one line each, grouped by what it is for, then the rules of
 *   --fail-if and the exit statuses
 */
char *
strata_cli_options_help (void)
{
  GString *help = g_string_new (NULL);

  g_string_append_printf (help, "%s\n  strata [%s…] [%s…]\n  strata -r [%s…] %s\n  strata --export=%s [%s…] %s\n\n%s\n",
                          _("Usage:"), _("OPTION"), _("FILE"), _("OPTION"), _("FILE"), _("IMAGE"), _("OPTION"), _("FILE"),
                          _("View Android method traces, Java HPROF profiles, Chrome Trace Event JSON, Perfetto traces, V8 CPU profiles and speedscope files."));
  for (Group group = 0; group < N_GROUPS; group++)
    {
      g_string_append_printf (help, "\n%s\n", group_title (group));
      for (guint i = 0; i < G_N_ELEMENTS (options); i++)
        if (options[i].group == group)
          append_option (help, &options[i]);
    }
  g_string_append_printf (help, "\n%s\n\n%s\n", _(rules_help), _(exit_help));
  return g_string_free (help, FALSE);
}
