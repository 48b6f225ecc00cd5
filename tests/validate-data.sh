#!/bin/sh
# validate-data.sh SRCDIR DESKTOP METAINFO: the desktop integration files are valid
# and agree with each other ($STRATA_CORPUS_DIR, when set, adds an Android dump).
set -u
src=$1 desktop=$2 metainfo=$3 corpus=${STRATA_CORPUS_DIR:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
n=0
app_id=io.github.stratatrace.Strata

check () {
  n=$((n + 1))
  name=$1; shift
  if "$@" >"$tmp/log" 2>&1; then echo "ok $n - $name"; else failed=1; echo "not ok $n - $name"; sed 's/^/# /' "$tmp/log"; fi
}

check "desktop-file-validate" desktop-file-validate "$desktop"
check "appstreamcli validate" appstreamcli validate --no-net "$metainfo"
check "glib-compile-schemas --strict" glib-compile-schemas --strict --dry-run "$src/data"
check "xmllint MIME XML" xmllint --noout "$src/data/$app_id.mime.xml"
check "xmllint UI files" xmllint --noout "$src/src/app/strata-window.ui" "$src/src/app/gtk/help-overlay.ui"
check "xmllint icons" xmllint --noout "$src/data/icons/$app_id.svg" "$src/data/icons/$app_id-symbolic.svg"

mkdir -p "$tmp/mime/packages"
cp "$src/data/$app_id.mime.xml" "$tmp/mime/packages/$app_id.xml"
check "update-mime-database accepts the MIME XML" \
  sh -c "XDG_DATA_DIRS='$tmp' update-mime-database '$tmp/mime' 2>&1 | (! grep .)"

# The installed types recognise real files by content, whatever their name.
type_of () {
  cp "$1" "$tmp/$2"
  XDG_DATA_DIRS="$tmp:/usr/share" gio info -a standard::content-type "$tmp/$2" | sed -n 's/.*standard::content-type: //p'
}
seeds=$src/tests/fuzz/seeds
check "dmtrace by content" test "$(type_of "$src/tests/data/third-party/dmtrace/studio-perflib-exception.trace" a.bin)" = application/x-android-dmtrace
check "streaming dmtrace by content" test "$(type_of "$seeds/streaming.trace" b.bin)" = application/x-android-dmtrace
check "binary HPROF by content" test "$(type_of "$seeds/allocations-head.hprof" c.bin)" = application/x-java-hprof
check "HPROF text by name" test "$(type_of "$seeds/hprof-text.java.hprof.txt" java.hprof.txt)" = text/x-java-hprof
if [ -n "$corpus" ] && [ -f "$corpus/hprof/studio-perflib-dialer.android-hprof" ]; then
  check "Android HPROF by content" test "$(type_of "$corpus/hprof/studio-perflib-dialer.android-hprof" d.bin)" = application/x-java-hprof
else
  n=$((n + 1)); echo "ok $n - Android HPROF by content # SKIP needs the shared corpus (STRATA_CORPUS_DIR)"
fi

# Every type we define is claimed by the desktop file and the metainfo.
for type in $(grep -o 'mime-type type="[^"]*"' "$src/data/$app_id.mime.xml" | cut -d'"' -f2); do
  check "desktop file lists $type" grep -q "MimeType=.*$type;" "$desktop"
  check "metainfo lists $type" grep -q "<mediatype>$type</mediatype>" "$metainfo"
done
check "desktop file offers Open With for JSON and gzip" grep -q "MimeType=.*application/json;.*application/gzip;" "$desktop"
check "metainfo launchable is the desktop file" grep -q "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" "$metainfo"
check "desktop Icon is the app id" grep -qx "Icon=$app_id" "$desktop"

echo "1..$n"
exit $failed
