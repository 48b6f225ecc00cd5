#!/bin/sh
# install-deps.sh [LIST]: everything Strata needs to build and test, on
# Debian 12 or Ubuntu 22.04 and later (LIST: another package list in
# build-aux, e.g. flatpak-packages.txt). Safe to run again.
set -eu
cd "$(dirname "$0")"
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends $(cat "${1:-debian-packages.txt}")
