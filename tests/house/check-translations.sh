#!/bin/sh
# check-translations.sh SRCDIR: every language in po/LINGUAS translates every
# current string, with nothing fuzzy or missing.
set -u
cd "$1" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

xgettext --package-name=strata --from-code=UTF-8 --add-comments \
  --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
  --keyword=g_dngettext:2,3 --keyword=ngettext:1,2 \
  --files-from=po/POTFILES.in --directory=. --output="$tmp/strata.pot" || exit 1
total=$(msgattrib --no-obsolete "$tmp/strata.pot" | grep -c '^msgid ' )

for lang in $(grep -v '^#' po/LINGUAS); do
  po="po/$lang.po"
  if [ ! -f "$po" ]; then
    echo "$po is missing"; failed=1; continue
  fi
  msgfmt --check --output-file=/dev/null "$po" || { echo "$po does not compile"; failed=1; }
  msgmerge --quiet --no-fuzzy-matching "$po" "$tmp/strata.pot" -o "$tmp/$lang.po" || exit 1
  stats=$(LC_ALL=C msgfmt --statistics --output-file=/dev/null "$tmp/$lang.po" 2>&1)
  echo "$lang: $stats"
  case "$stats" in
    *untranslated*|*fuzzy*) failed=1
      msgattrib --untranslated --no-obsolete "$tmp/$lang.po" | grep '^msgid' | head -20 ;;
  esac
done

echo "$((total - 1)) strings in the template"
exit $failed
