#!/bin/sh
# screenshot.sh STRATA OUTDIR: --screenshot renders the welcome and error pages.
set -u
strata=$1
out=$2
mkdir -p "$out"
failed=0
n=0

if [ -z "${DISPLAY:-}" ]; then
  echo "1..0 # SKIP no display; run under xvfb-run"
  exit 77
fi

shoot () {
  # shoot NAME [FILE]
  name=$1; shift
  png="$out/$name.png"
  rm -f "$png"
  n=$((n + 1))
  if ! "$strata" --screenshot="$png" --size=1000x700 "$@" >"$out/$name.log" 2>&1; then
    failed=1; echo "not ok $n - $name: $(cat "$out/$name.log")"; return
  fi
  size=$(identify -format '%wx%h' "$png" 2>/dev/null)
  colours=$(identify -format '%k' "$png" 2>/dev/null)
  if [ "$size" = "1000x700" ] && [ "${colours:-0}" -gt 16 ]; then
    echo "ok $n - $name: $size, $colours colours"
  else
    failed=1; echo "not ok $n - $name: size '$size', colours '$colours'"
  fi
}

shoot welcome
printf '\211PNG\r\n\032\n\0\0\0\rIHDR' >"$out/holiday.trace"
shoot error "$out/holiday.trace"

echo "1..$n"
exit $failed
