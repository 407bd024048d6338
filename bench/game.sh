#!/usr/bin/env bash
# What a game kept in a file costs, measured on the release build:
#   1. syncs a line: a 10,000-line --game batch, its fsync and fdatasync
#      calls counted with strace -c -f (the journal entry is the one
#      durable write of a line; the game file is a checkpoint);
#   2. a command on a long game against the same command on a fresh one,
#      as a ratio taken in one run (both measured in turn, best of rounds);
#   3. the peak memory of opening a game of LONG entries (default 10^6).
# Usage: bench/game.sh [LONG]   (needs strace and GNU time: apt-get install strace time)
set -euo pipefail
cd "$(dirname "$0")/.."
long=${1:-1000000}
cargo build --release --quiet
bin=$PWD/target/release/drumhead
armies=(--army armies/leuthen-1757-prussian.toml --army armies/leuthen-1757-austrian.toml)
# Games are built on a tmpfs when there is one: its syncs cost nothing, so
# a long game is written in seconds. The sync count does not depend on it.
base=/dev/shm
[ -d "$base" ] && [ -w "$base" ] || base=${TMPDIR:-/tmp}
tmp=$(mktemp -d "$base/drumhead-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

lines() { # N: a mix of the lines an evening writes
  awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) {
    k = i % 5
    if (k == 0) print "hits 1 aus-3"
    else if (k == 1) print "undo"
    else if (k == 2) print "move gren-1 rolled 4"
    else if (k == 3) print "roll 2d6"
    else print "next-turn" } }'
}

# 1. Syncs a line.
"$bin" "${armies[@]}" --game "$tmp/sync.json" 'hits 1 aus-3' > /dev/null 2>&1
lines 10000 > "$tmp/10k.txt"
strace -f -c -e trace=fsync,fdatasync,sync_file_range,syncfs,sync -o "$tmp/strace.txt" \
  "$bin" --game "$tmp/sync.json" --seed 1 < "$tmp/10k.txt" > /dev/null
syncs=$(awk '$NF ~ /^(fsync|fdatasync|sync_file_range|syncfs|sync)$/ { n += $(NF-1) } END { print n + 0 }' "$tmp/strace.txt")
printf '10000-line --game batch: %d fsync/fdatasync calls, %.3f a line\n' "$syncs" "$(echo "$syncs / 10000" | bc -l)"

# 2. A command on a game of 20,000 entries against a fresh game.
"$bin" "${armies[@]}" --game "$tmp/fresh.json" 'hits 1 aus-3' > /dev/null 2>&1
"$bin" "${armies[@]}" --game "$tmp/long.json" 'hits 1 aus-3' > /dev/null 2>&1
lines 19999 | "$bin" --game "$tmp/long.json" --seed 2 > /dev/null
# Best of five rounds of 20 runs each, the two games in turn.
per_run() { # GAME COMMAND
  local start end
  start=$(date +%s.%N)
  for _ in $(seq 20); do "$bin" --game "$1" "$2" > /dev/null 2>&1; done
  end=$(date +%s.%N)
  echo "($end - $start) / 20" | bc -l
}
for cmd in 'units' 'show aus-3' 'move gren-1 rolled 4'; do
  fresh="" ; long20k=""
  for _ in 1 2 3 4 5; do
    f=$(per_run "$tmp/fresh.json" "$cmd"); l=$(per_run "$tmp/long.json" "$cmd")
    fresh=$(echo "$f $fresh" | awk '{ print ($2 == "" || $1 < $2) ? $1 : $2 }')
    long20k=$(echo "$l $long20k" | awk '{ print ($2 == "" || $1 < $2) ? $1 : $2 }')
  done
  printf '%-40s fresh %.2f ms, 20,000 entries %.2f ms: ratio %.2f\n' "'$cmd'" \
    "$(echo "$fresh * 1000" | bc -l)" "$(echo "$long20k * 1000" | bc -l)" "$(echo "$long20k / $fresh" | bc -l)"
done

# 3. Opening a game of LONG entries.
"$bin" "${armies[@]}" --game "$tmp/huge.json" 'hits 1 aus-3' > /dev/null 2>&1
lines $((long - 1)) | "$bin" --game "$tmp/huge.json" --seed 3 --json > /dev/null
entries=$(($(wc -l < "$tmp/huge.json.journal") - 1))
/usr/bin/time -f '%M' -o "$tmp/rss.txt" "$bin" --game "$tmp/huge.json" units > /dev/null
printf 'units on a game of %d entries: peak %.1f MB\n' "$entries" "$(echo "$(cat "$tmp/rss.txt") / 1024" | bc -l)"
/usr/bin/time -f '%M' -o "$tmp/rss.txt" "$bin" --game "$tmp/huge.json" 'hits 1 aus-3' > /dev/null
printf 'a line written to it: peak %.1f MB\n' "$(echo "$(cat "$tmp/rss.txt") / 1024" | bc -l)"
/usr/bin/time -f '%M' -o "$tmp/rss.txt" "$bin" --game "$tmp/fresh.json" units > /dev/null
printf 'units on a fresh game: peak %.1f MB\n' "$(echo "$(cat "$tmp/rss.txt") / 1024" | bc -l)"
