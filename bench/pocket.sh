#!/usr/bin/env bash
# The pocket page (`drumhead pocket`, issue 39): its size, raw and gzipped,
# and the time from opening it to its first answer in headless Chromium on
# this machine (from a file, the network off, a phone's 390×844 screen; the
# median of five fresh browsers). Needs the wasm32-unknown-unknown target
# (`rustup target add wasm32-unknown-unknown`) and chromium-headless-shell.
#   bench/pocket.sh
# The page is built as it ships: its module in the `pocket` profile, which
# any drumhead build carries (here a debug one, with DRUMHEAD_POCKET=1).
set -euo pipefail
cd "$(dirname "$0")/.."
export DRUMHEAD_POCKET=1
cargo build --locked --quiet
target=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$target/debug/drumhead" pocket -o "$dir/pocket.html" >/dev/null
raw=$(wc -c <"$dir/pocket.html")
gz=$(gzip -9 -c "$dir/pocket.html" | wc -c)
echo "page: $raw bytes ($((raw / 1024)) KiB), gzipped $gz bytes ($((gz / 1024)) KiB)"
wasm="$target/wasm32-unknown-unknown/pocket/drumhead_pocket.wasm"
if [ -f "$wasm" ]; then
  w=$(wc -c <"$wasm")
  wgz=$(gzip -9 -c "$wasm" | wc -c)
  echo "module: $w bytes ($((w / 1024)) KiB), gzipped $wgz bytes ($((wgz / 1024)) KiB)"
fi
DRUMHEAD_POCKET_PAGE="$dir/pocket.html" cargo test --locked --quiet --test serve -- \
  --ignored --exact browser::pocket::first_answer --nocapture 2>&1 | grep -E '^(round|first answer|SKIPPED)'
