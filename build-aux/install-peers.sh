#!/bin/sh
# install-peers.sh: the independent implementation the call tree test
# compares with: speedscope's shipped app, driven in Debian's Chromium by
# puppeteer-core, installed from the npm registry into $PEERS_DIR
# (default: a "peers" folder in the temporary directory), never into the
# repository. Without it tests/check-speedscope.mjs skips. Safe to run again.
set -eu
cd "$(dirname "$0")"
./install-deps.sh peer-packages.txt
# A node that brings its own npm (NodeSource's) conflicts with Debian's.
if ! command -v npm >/dev/null 2>&1; then
  ./install-deps.sh node-packages.txt
fi
peers=${PEERS_DIR:-${TMPDIR:-/tmp}/peers}
mkdir -p "$peers"
cd "$peers"
[ -f package.json ] || npm init -y >/dev/null
npm install --no-audit --no-fund speedscope@1.25.0 puppeteer-core@24.43.1
