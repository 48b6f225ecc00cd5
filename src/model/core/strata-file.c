/* strata-file.c: one way in for every file Strata reads, and no way to
 * write over one
 *
 * A trace, the partners of a split one, a baseline and a mapping are all
 * opened here: without blocking (a FIFO would wait for a writer forever),
 * and only if they are regular files (a device may never end). Each is
 * noted by its device and inode, and a picture or table is never written
 * over a file noted so, nor into anything but a regular file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "strata-error.h"
#include "strata-file.h"

/* A file read, by device and inode. */
typedef struct
{
  dev_t dev;
  ino_t ino;
} FileId;

static GMutex read_lock;
static GArray *read_files;  /* FileId */

static void
note_input (const struct stat *info)
{
  FileId id = { info->st_dev, info->st_ino };

  g_mutex_lock (&read_lock);
  if (read_files == NULL)
    read_files = g_array_new (FALSE, FALSE, sizeof (FileId));
  for (guint i = 0; i < read_files->len; i++)
    if (g_array_index (read_files, FileId, i).dev == id.dev && g_array_index (read_files, FileId, i).ino == id.ino)
      {
        g_mutex_unlock (&read_lock);
        return;
      }
  g_array_append_val (read_files, id);
  g_mutex_unlock (&read_lock);
}

static gboolean
is_input (const struct stat *info)
{
  gboolean found = FALSE;

  g_mutex_lock (&read_lock);
  for (guint i = 0; read_files != NULL && i < read_files->len && !found; i++)
    found = g_array_index (read_files, FileId, i).dev == info->st_dev && g_array_index (read_files, FileId, i).ino == info->st_ino;
  g_mutex_unlock (&read_lock);
  return found;
}

/**
 * strata_file_error_from:
 * @local_error: (transfer full): what GIO or the system said
 *
 * Says what went wrong with a file in words a user reads: a missing file,
 * a permission, a folder; anything else as it was said.
 */
void
strata_file_error_from (GError  *local_error,
                        GError **error)
{
  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                         _("The file does not exist."));
  else if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED))
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                         _("You do not have permission to read it."));
  else if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY))
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY,
                         _("It is a folder, not a file."));
  else
    g_propagate_error (error, g_steal_pointer (&local_error));
  g_clear_error (&local_error);
}

/**
 * strata_file_set_not_regular_error:
 *
 * GIO reports a symbolic link it could not follow, or a file in a folder
 * the user may not enter, as neither a file nor an error: the system is
 * asked why, so the message says what is wrong.
 */
void
strata_file_set_not_regular_error (GFile   *file,
                                   GError **error)
{
  g_autofree char *path = g_file_get_path (file);
  GStatBuf info;
  int reason = path != NULL && g_stat (path, &info) != 0 ? errno : 0;

  if (reason == ELOOP)
    g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_NOT_REGULAR,
                         _("It is a symbolic link that leads round in a loop, never to a file."));
  else if (reason == EACCES)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                         _("You do not have permission to open a folder on its path."));
  else if (reason == ENOENT)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                         _("It is a symbolic link to a file that does not exist."));
  else
    /* A pipe or device could block or never end. */
    g_set_error_literal (error, STRATA_LOAD_ERROR, STRATA_LOAD_ERROR_NOT_REGULAR,
                         _("It is not a regular file (it may be a device, pipe or socket)."));
}

/**
 * strata_file_open_regular:
 * @path: @file's local path
 * @info: (out) (optional): what the system says of the file
 *
 * Opens a file to read, without blocking, if it is a regular file, and
 * notes it as one this process reads.
 *
 * Returns: a descriptor in blocking mode, or -1 with @error set
 */
int
strata_file_open_regular (GFile        *file,
                          const char   *path,
                          struct stat  *info,
                          GError      **error)
{
  struct stat local;
  struct stat *st = info != NULL ? info : &local;
  int fd = g_open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0);

  if (fd < 0)
    {
      int saved = errno;

      if (saved == ELOOP || saved == ENXIO)
        strata_file_set_not_regular_error (file, error);
      else
        strata_file_error_from (g_error_new_literal (G_IO_ERROR, g_io_error_from_errno (saved), g_strerror (saved)),
                                error);
      return -1;
    }
  if (fstat (fd, st) != 0 || !S_ISREG (st->st_mode))
    {
      gboolean folder = S_ISDIR (st->st_mode);

      close (fd);
      if (folder)
        strata_file_error_from (g_error_new (G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY, "%s", ""), error);
      else
        strata_file_set_not_regular_error (file, error);
      return -1;
    }
  /* Read in blocking mode from here: a regular file never waits long. */
  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);
  note_input (st);
  return fd;
}

/* Whether @path names the file @info describes. */
static gboolean
is_same (const char        *path,
         const struct stat *info)
{
  struct stat other;

  return path != NULL && stat (path, &other) == 0 && other.st_dev == info->st_dev && other.st_ino == info->st_ino;
}

/**
 * strata_file_check_output:
 * @inputs: (nullable) (array zero-terminated=1): paths about to be read
 *
 * Whether @file may be written: it does not exist, or it is a regular
 * file this process has not read and is not about to. Writers replace
 * it through a new file renamed over it, so a failed write leaves it as
 * it was.
 *
 * Returns: %FALSE with @error set if not
 */
gboolean
strata_file_check_output (GFile              *file,
                          const char * const *inputs,
                          GError            **error)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *name = g_file_get_parse_name (file);
  struct stat info;
  gboolean read = FALSE;

  if (path == NULL || stat (path, &info) != 0)
    return TRUE;
  if (S_ISDIR (info.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY, _("%s is a folder, not a file to write."), name);
      return FALSE;
    }
  if (!S_ISREG (info.st_mode))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   _("%s is not a regular file (it may be a device, pipe or socket); Strata writes only to files."), name);
      return FALSE;
    }
  for (guint i = 0; inputs != NULL && inputs[i] != NULL && !read; i++)
    read = is_same (inputs[i], &info);
  if (read || is_input (&info))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                   _("%s is a file Strata is reading; it is never written over. Choose another name."), name);
      return FALSE;
    }
  return TRUE;
}
