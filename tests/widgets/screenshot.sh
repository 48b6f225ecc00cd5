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

expect_bars () {
  # expect_bars NAME CROP WHAT: bars of several colours where they are
  bars=$(convert "$out/$1.png" -crop "$2" +repage -format '%k' info: 2>/dev/null)
  n=$((n + 1))
  if [ "${bars:-0}" -gt 4 ]; then
    echo "ok $n - $3 draws its bars: $bars colours where they are"
  else
    failed=1; echo "not ok $n - $3 draws no bar: '$bars' colours where they should be"
  fi
}

shoot welcome
printf '\211PNG\r\n\032\n\0\0\0\rIHDR' >"$out/holiday.trace"
shoot error "$out/holiday.trace"

# A thread 470,000 levels deep is 8.5 million pixels tall, past what
# cairo's coordinates hold: a rectangle that tall stopped all drawing and
# the track showed no bar. Its top rows must be drawn.
python3 "$(dirname "$0")/../lib/write-nested-trace.py" 470000 "$out/deep.json"
shoot deep "$out/deep.json"
expect_bars deep 300x200+500+200 "a thread 470,000 levels deep"
# Its flame graph is millions of pixels tall too: drawn whole, it took
# gigabytes and was killed; only what the window shows is drawn.
shoot deep-flame --view=flame "$out/deep.json"
expect_bars deep-flame 300x100+500+550 "its flame graph"
rm -f "$out/deep.json"

echo "1..$n"
exit $failed
