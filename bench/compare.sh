#!/usr/bin/env bash
# Two builds of drumhead side by side, in one run: one-shot start-up,
# batch throughput (text and JSON) and the slowest odds, measured in
# alternation so that a shared, noisy machine weighs on both alike.
# Prints each figure for both and the ratio new / old (below 1.00 is faster).
#
# (bench/targets.sh measures issue 24's three targets the same way, each one command.)
#
# Usage: bench/compare.sh OLD_DIR NEW_DIR [LINES]
#   OLD_DIR, NEW_DIR: checkouts of drumhead (each is built in release mode),
#   e.g. a `git worktree add ../old <commit>` beside this one.
set -euo pipefail
old=$(cd "$1" && pwd)
new=$(cd "$2" && pwd)
lines=${3:-100000}
for dir in "$old" "$new"; do
  (cd "$dir" && cargo build --release --quiet && cargo build --release --quiet --example odds_latency)
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk -v n="$lines" 'BEGIN { for (i = 0; i < n; i++) print "resilience shooting +determined +hit" }' > "$tmp/batch.txt"

now() { date +%s.%N; }

# Seconds for 100 one-shot processes.
oneshot() {
  local start; start=$(now)
  for _ in $(seq 100); do "$1" --seed 1 'resilience +determined' > /dev/null; done
  echo "$(now) - $start" | bc -l
}

# Seconds for the batch file, with extra options.
batch() {
  local bin=$1; shift
  local start; start=$(now)
  "$bin" --seed 1 "$@" < "$tmp/batch.txt" > /dev/null
  echo "$(now) - $start" | bc -l
}

min() { sort -g | head -1; }

declare -A best
for round in 1 2 3 4 5; do
  for side in old new; do
    dir=${!side}
    bin="$dir/target/release/drumhead"
    echo "$(oneshot "$bin")" >> "$tmp/$side.oneshot"
    echo "$(batch "$bin")" >> "$tmp/$side.text"
    echo "$(batch "$bin" --json)" >> "$tmp/$side.json"
  done
done

report() {
  local what=$1 unit=$2 scale=$3
  local o n
  o=$(min < "$tmp/old.$what"); n=$(min < "$tmp/new.$what")
  printf '%-44s old %9.3f %s   new %9.3f %s   ratio %.2f\n' "$4" \
    "$(echo "$o * $scale" | bc -l)" "$unit" "$(echo "$n * $scale" | bc -l)" "$unit" "$(echo "$n / $o" | bc -l)"
}
report oneshot ms 10 "one-shot command (mean of 100)"
report text s 1 "batch, $lines lines, text"
report json s 1 "batch, $lines lines, JSON"

# The slowest odds (bench/run.sh's list), in-process, alternating.
slow=("odds melee foot bases=30 vs foot bases=30"
      "odds melee foot bases=100 vs cavalry bases=100"
      "odds shoot musket 2BW formed bases=60"
      "odds shoot field-artillery 20BW bases=23 bounce at square bases=6"
      "odds roll 100d6"
      "odds roll 500d6>=4"
      "mayhem odds fire canister 30\" figures=30"
      "mayhem odds fire roundshot 20\" figures=30 rerolls=1"
      "mayhem odds fight leader vs armed vs armed vs armed vs armed vs armed vs armed vs armed vs armed"
      "saber odds attack 9 mr=4 vs 3 mr=3 disrupted"
      "saber-quickplay odds attack 6 mr=4 cavalry cavalry-charge vs 3 mr=3")
for round in 1 2 3; do
  for side in old new; do
    dir=${!side}
    "$dir/target/release/examples/odds_latency" "${slow[@]}" >> "$tmp/$side.odds" 2>/dev/null || true
  done
done
echo "odds, best of 3 (µs):"
for line in "${slow[@]}"; do
  o=$(awk -F'\t' -v l="$line" '$2 == l { print $1 }' "$tmp/old.odds" | min)
  n=$(awk -F'\t' -v l="$line" '$2 == l { print $1 }' "$tmp/new.odds" | min)
  if [ -n "$o" ] && [ -n "$n" ]; then
    printf '  old %9.1f   new %9.1f   ratio %.2f   %s\n' "$o" "$n" "$(echo "$n / $o" | bc -l)" "$line"
  else
    printf '  (not in both builds)   %s\n' "$line"
  fi
done
