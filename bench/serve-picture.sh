#!/usr/bin/env bash
# docs/serve-phone.png: the phone view of a club's evening, made by the
# README's own command (`drumhead serve --listen 0.0.0.0:7878 --umpire
# --game table1.json --game table2.json`, run in a folder holding two games
# of the Leuthen armies, a few lines played on table1), as headless
# Chromium shows table1 on a 390×844 screen.
# Needs chromium-headless-shell (or chromium) and port 7878 free.
# Run from anywhere: ./bench/serve-picture.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

cargo build -q
drumhead=$root/target/debug/drumhead

browser=""
for b in chromium-headless-shell /usr/lib/chromium/chromium-headless-shell chromium; do
  if command -v "$b" >/dev/null 2>&1; then browser="$b"; break; fi
done
[ -n "$browser" ] || { echo "needs headless Chromium: apt-get install chromium-headless-shell" >&2; exit 1; }

work="$(mktemp -d)"
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"

# An evening so far: a few resolutions on the Leuthen armies.
"$drumhead" --game table2.json \
  --army "$root/armies/leuthen-1757-prussian.toml" --army "$root/armies/leuthen-1757-austrian.toml" \
  >/dev/null 2>&1 </dev/null
"$drumhead" --game table1.json \
  --army "$root/armies/leuthen-1757-prussian.toml" --army "$root/armies/leuthen-1757-austrian.toml" \
  >/dev/null 2>&1 <<'LINES'
move gren-1 rolled 4
hits 7 aus-3
resilience aus-3 shooting rolled 2 5
charge zieten-hussars rolled 3 3
resilience gren-2 melee rolled 2 5
LINES

# The README's command, as the club runs it.
"$drumhead" serve --listen 0.0.0.0:7878 --umpire --game table1.json --game table2.json > serve.out 2> serve.err &
server=$!
for _ in $(seq 100); do
  grep -q '^serving ' serve.out 2>/dev/null && break
  sleep 0.1
done
grep -q '^serving ' serve.out || { cat serve.err >&2; exit 1; }
head -n1 serve.out

"$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
  --hide-scrollbars --user-data-dir="$work/profile" --window-size=390,844 \
  --screenshot="$root/docs/serve-phone.png" "http://127.0.0.1:7878/g/table1/" >/dev/null 2>&1
echo "wrote docs/serve-phone.png"
