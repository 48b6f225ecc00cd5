#!/bin/sh
# check-potfiles.sh SRCDIR: every file with translatable strings is in po/POTFILES.in.
set -u
cd "$1" || exit 1
failed=0
listed=$(grep -v '^#' po/POTFILES.in | grep -v '^$')

for f in $listed; do
  if [ ! -f "$f" ]; then
    echo "po/POTFILES.in lists $f, which does not exist"; failed=1
  fi
done

for f in $(grep -rlE '(^|[^A-Za-z0-9_])((N|C|NC)?_|g_dngettext|ngettext) ?\(|translatable="yes"' src --include='*.c' --include='*.ui' | sort); do
  if ! echo "$listed" | grep -qx "$f"; then
    echo "$f has translatable strings but is missing from po/POTFILES.in"; failed=1
  fi
done

for f in data/*.desktop.in data/*.metainfo.xml.in data/*.gschema.xml; do
  if ! echo "$listed" | grep -qx "$f"; then
    echo "$f is missing from po/POTFILES.in"; failed=1
  fi
done

[ $failed -eq 0 ] && echo "po/POTFILES.in is complete ($(echo "$listed" | wc -l) files)"
exit $failed
