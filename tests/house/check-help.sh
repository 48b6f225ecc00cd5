#!/bin/sh
# check-help.sh SRCDIR: the Mallard help is valid, every page is linked
# from the index and installed, and each language of help/LINGUAS
# translates every string of it, with nothing fuzzy or missing.
set -u
cd "$1" || exit 1
for tool in yelp-check itstool msgmerge msgfmt; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "1..0 # SKIP $tool is not installed (build-aux/install-deps.sh)"
    exit 0
  fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
check() {
  name=$1; shift
  n=$((n + 1))
  if out=$("$@" 2>&1); then
    echo "ok $n - $name"
  else
    echo "not ok $n - $name"; printf '%s\n' "$out" | sed 's/^/# /' | head -20; failed=1
  fi
}
check "yelp-check validate help/C/*.page" yelp-check validate help/C/*.page
check "every link leads to a page" yelp-check links help/C/*.page
check "every page is linked from the index" sh -c '[ -z "$(yelp-check orphans help/C/*.page)" ]'
# Every page in help/C is built and installed.
for page in help/C/*.page; do
  check "help/meson.build installs $(basename "$page")" grep -q "'$(basename "$page")'" help/meson.build
done
(cd help && itstool -o "$tmp/help.pot" C/*.page) || exit 1
langs=$(grep -v '^#' help/LINGUAS)
check "help/LINGUAS names the languages" test -n "$langs"
for lang in $langs; do
  po=help/$lang/$lang.po
  check "$po compiles" msgfmt --check -o /dev/null "$po"
  msgmerge --quiet --no-fuzzy-matching "$po" "$tmp/help.pot" -o "$tmp/$lang.po"
  check "$po translates every string of the help" sh -c \
    "LC_ALL=C msgfmt --statistics -o /dev/null '$tmp/$lang.po' 2>&1 | grep -qv 'untranslated\|fuzzy'"
done
echo "1..$n"
exit $failed
