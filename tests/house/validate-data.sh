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

# The installed types recognise real files by content, whatever their name,
# as a desktop sees them: xdg-mime where there is one (it asks gio on GNOME),
# with our types in a scratch XDG_DATA_HOME.
mkdir -p "$tmp/home"
cp -r "$tmp/mime" "$tmp/home/mime"
type_of () {
  cp "$1" "$tmp/$2"
  if command -v xdg-mime >/dev/null; then
    XDG_CURRENT_DESKTOP=GNOME XDG_DATA_HOME="$tmp/home" XDG_DATA_DIRS=/usr/share xdg-mime query filetype "$tmp/$2"
  else
    XDG_DATA_HOME="$tmp/home" XDG_DATA_DIRS=/usr/share gio info -a standard::content-type "$tmp/$2" | sed -n 's/.*standard::content-type: //p'
  fi
}
seeds=$src/tests/fuzz/seeds
check "dmtrace by content" test "$(type_of "$src/tests/data/third-party/dmtrace/studio-perflib-exception.trace" a.bin)" = application/x-android-dmtrace
check "dmtrace named *.trace" test "$(type_of "$src/tests/data/third-party/dmtrace/studio-perflib-exception.trace" e.trace)" = application/x-android-dmtrace
check "streaming dmtrace by content" test "$(type_of "$seeds/streaming.trace" b.bin)" = application/x-android-dmtrace
check "binary HPROF by content" test "$(type_of "$seeds/allocations-head.hprof" c.bin)" = application/x-java-hprof
check "HPROF text by name" test "$(type_of "$seeds/hprof-text.java.hprof.txt" java.hprof.txt)" = text/x-java-hprof
check "ANR dump by content" test "$(type_of "$seeds/anr-long-running.txt" i.bin)" = text/x-android-anr-dump
check "ANR dump by name" test "$(type_of "$seeds/anr-long-running.txt" traces.txt)" = text/x-android-anr-dump
printf '{"$schema":"https://www.speedscope.app/file-format-schema.json","profiles":[]}' >"$tmp/speedscope.json"
check "speedscope by content" test "$(type_of "$tmp/speedscope.json" k.json)" = application/x-speedscope+json
check "ART format V2 by content" test "$(type_of "$seeds/art-v2-streaming.trace" h.bin)" = application/x-android-dmtrace

# A Perfetto protobuf named *.trace is not a method trace.
printf '\n\x8a\x01\x12\x05perfetto\x00\x01\x02' >"$tmp/perfetto.bin"
check "Perfetto by name" test "$(type_of "$tmp/perfetto.bin" p.pftrace)" = application/x-perfetto-trace
check "Perfetto *.trace is not dmtrace" test "$(type_of "$tmp/perfetto.bin" f.trace)" != application/x-android-dmtrace

# Trace Event JSON by content; other JSON stays JSON.
printf '{"traceEvents":[{"ph":"X","name":"a","ts":0,"dur":1,"pid":1,"tid":1}]}' >"$tmp/object.json"
printf '{\n  "traceEvents": [\n' >"$tmp/indented.json"
printf '[{"name":"a","ph":"B","ts":0,"pid":1,"tid":1},\n' >"$tmp/array.json"
printf '{"name":"strata","version":"1.0"}' >"$tmp/plain.json"
printf '[1, 2, 3]' >"$tmp/numbers.json"
check "Trace Event object form by content" test "$(type_of "$tmp/object.json" g.bin)" = application/x-trace-event+json
check "Trace Event indented object by content" test "$(type_of "$tmp/indented.json" h.bin)" = application/x-trace-event+json
check "Trace Event array form by content" test "$(type_of "$tmp/array.json" i.bin)" = application/x-trace-event+json
check "V8 CPU profile by content" test "$(type_of "$src/tests/data/cpuprofile/hot.cpuprofile" j.bin)" = application/x-v8-cpuprofile+json
check "V8 CPU profile by name" test "$(type_of "$src/tests/data/cpuprofile/hot.cpuprofile" k.cpuprofile)" = application/x-v8-cpuprofile+json
check "Trace Event named *.trace.json" test "$(type_of "$tmp/array.json" j.trace.json)" = application/x-trace-event+json
check "other JSON named *.json stays JSON" test "$(type_of "$tmp/plain.json" k.json)" = application/json
check "other JSON array is not a trace" test "$(type_of "$tmp/numbers.json" l.bin)" != application/x-trace-event+json
gzip -c "$tmp/object.json" >"$tmp/object.json.gz"
check "gzip'd trace named *.json.gz" test "$(type_of "$tmp/object.json.gz" m.json.gz)" = application/x-trace-event+json+gzip
check "other gzip stays gzip" test "$(type_of "$tmp/object.json.gz" n.tar.gz)" = application/x-compressed-tar
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
# Claiming these would make Strata the default for every JSON and gzip file.
check "desktop file does not claim all JSON" sh -c "! grep -q 'MimeType=.*application/json;' '$desktop'"
check "desktop file does not claim all gzip" sh -c "! grep -q 'MimeType=.*application/gzip;' '$desktop'"
check "metainfo launchable is the desktop file" grep -q "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" "$metainfo"
check "desktop Icon is the app id" grep -qx "Icon=$app_id" "$desktop"
# The releases come from NEWS, the newest first, and it is this version.
newest=$(sed -n 's/^Strata \([^ ]*\) (.*/\1/p' "$src/NEWS" | head -n 1)
check "NEWS's newest release is the project's version" grep -q "version: '$newest'" "$src/meson.build"
check "metainfo's first release is NEWS's newest" sh -c "grep -m1 '<release ' '$metainfo' | grep -q 'version=\"$newest\"'"
check "metainfo has a release per NEWS section" test "$(grep -c '<release ' "$metainfo")" = "$(grep -c '^Strata ' "$src/NEWS")"

echo "1..$n"
exit $failed
