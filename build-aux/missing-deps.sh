#!/bin/sh
# missing-deps.sh [LIST]: prints the packages of LIST (default
# debian-packages.txt) that are not installed; prints nothing when all are,
# or when this is not a Debian-like system.
cd "$(dirname "$0")" || exit 1
command -v dpkg-query >/dev/null 2>&1 || exit 0
for package in $(cat "${1:-debian-packages.txt}"); do
  case "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null)" in
    *" installed") ;;
    *) echo "$package" ;;
  esac
done
