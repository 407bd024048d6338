#!/usr/bin/env bash
# `drumhead serve` on a long game, on the release build: makes a game of
# ENTRIES journal entries (default 10^6; a batch of one line repeated, an
# undo among every five) in a temporary folder on /dev/shm when there is
# one, then starts the server on it and prints:
#   - the time from starting the server to its first answer (GET /);
#   - its resident memory (VmRSS) then, once it has read the entries
#     before the checkpoint (the page answered), and after reading the
#     whole log a page at a time (log.json?after=N&limit=10000 until no
#     `next`);
#   - the time of one page of the log far into the game.
# Goal: a 10^6-entry game starts in under 1 s in under 100 MB.
# Usage: bench/serve-big-game.sh [ENTRIES]   (needs curl)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
entries=${1:-1000000}
command -v curl >/dev/null || { echo "needs curl" >&2; exit 1; }

cargo build --release --quiet
drumhead=$root/target/release/drumhead

base=/dev/shm
[ -d "$base" ] && [ -w "$base" ] || base=${TMPDIR:-/tmp}
work=$(mktemp -d "$base/drumhead-big-game-XXXXXX")
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work"

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
rss() { awk '/^VmRSS:/ { printf "%.1f MB", $2 / 1024 }' "/proc/$server/status"; }

t0=$(now)
awk -v n="$entries" 'BEGIN {
  split("resilience gren-1 shooting rolled 4 3|hits 1 aus-3|undo|move gren-1 rolled 4|charge zieten-hussars rolled 3 3", l, "|");
  for (i = 0; i < n; i++) print l[i % 5 + 1];
}' | "$drumhead" --game big.json \
  --army "$root/armies/leuthen-1757-prussian.toml" --army "$root/armies/leuthen-1757-austrian.toml" \
  >/dev/null 2>&1
echo "$entries entries written in $(secs "$t0" "$(now)") s ($(du -h big.json.journal | cut -f1) of journal)"

t0=$(now)
"$drumhead" serve --listen 127.0.0.1:0 --game big.json >out.txt 2>err.txt &
server=$!
until grep -q '^serving' out.txt 2>/dev/null; do
  kill -0 "$server" 2>/dev/null || { cat err.txt >&2; exit 1; }
  sleep 0.002
done
url=$(sed -n 's/^serving //p' out.txt | head -1)
until curl -sf -o /dev/null "$url"; do sleep 0.002; done
echo "start: first answer $(secs "$t0" "$(now)") s after the server was started; VmRSS $(rss)"

curl -sf -o /dev/null "${url}g/big/"
echo "entries before the checkpoint read: $(secs "$t0" "$(now)") s after start; VmRSS $(rss)"

after=0
pages=0
t1=$(now)
while [ -n "$after" ]; do
  page=$(curl -sf "${url}g/big/log.json?after=$after&limit=10000")
  after=$(printf '%s' "$page" | grep -o '"next":[0-9]*}$' | grep -o '[0-9]*' || true)
  pages=$((pages + 1))
done
echo "the whole log in $pages pages: $(secs "$t1" "$(now)") s; VmRSS $(rss)"
curl -sf -o /dev/null -w "one page of 1000 entries after entry $((entries / 2)): %{time_total} s, %{size_download} bytes\n" \
  "${url}g/big/log.json?after=$((entries / 2))"
