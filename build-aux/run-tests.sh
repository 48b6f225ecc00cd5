#!/bin/sh
# run-tests.sh [BUILDDIR]: install what the tests need if anything is
# missing, build with AddressSanitizer and UBSan, run every test under a
# virtual X server, and end with one line "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 1
builddir=${1:-_build-tests}

missing=$(build-aux/missing-deps.sh)
if [ -n "$missing" ]; then
  echo "Installing what the tests need:" $missing
  build-aux/install-deps.sh || exit 1
fi

if [ ! -d "$builddir" ]; then
  meson setup "$builddir" -Db_sanitize=address,undefined -Dbuildtype=debug || exit 1
fi
meson compile -C "$builddir" || exit 1

# -noreset: the X server would otherwise restart whenever its last window
# closes, and a test starting the next one in that moment cannot connect.
xvfb-run -a -s '-screen 0 1600x1000x24 -noreset' \
  meson test -C "$builddir" --print-errorlogs --num-processes 2
status=$?

python3 - "$builddir/meson-logs/testlog.json" <<'PY'
import json, os, sys
counts = {}
for line in open(sys.argv[1], encoding="utf-8"):
    result = json.loads(line)["result"]
    counts[result] = counts.get(result, 0) + 1
# Steps run outside meson (the Flatpak build), as NAME=OK|FAIL,...
for extra in filter(None, os.environ.get("STRATA_EXTRA_RESULTS", "").split(",")):
    name, _, result = extra.partition("=")
    print(f"{name}: {result}")
    counts[result] = counts.get(result, 0) + 1
passed = counts.get("OK", 0) + counts.get("EXPECTEDFAIL", 0)
skipped = counts.get("SKIP", 0)
failed = sum(n for r, n in counts.items() if r not in ("OK", "EXPECTEDFAIL", "SKIP"))
if skipped:
    print(f"{skipped} skipped")
print(f"{passed} passed, {failed} failed")
PY
case "${STRATA_EXTRA_RESULTS:-}" in *FAIL*) status=1 ;; esac
exit $status
