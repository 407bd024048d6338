#!/usr/bin/env bash
# Whole-process timings of the release build: one-shot start-up and batch
# throughput. Usage: bench/run.sh [LINES]   (default 100000)
set -euo pipefail
cd "$(dirname "$0")/.."
lines=${1:-100000}
cargo build --release --quiet
bin=target/release/drumhead
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

awk -v n="$lines" 'BEGIN { for (i = 0; i < n; i++) print "resilience shooting +determined +hit" }' > "$tmp/resilience.txt"

# Best of five, in seconds, of a command reading the given file.
best() {
  local file=$1; shift
  local best=""
  for _ in 1 2 3 4 5; do
    local start end
    start=$(date +%s.%N)
    "$@" < "$file" > /dev/null
    end=$(date +%s.%N)
    best=$(echo "$end - $start" | bc -l | awk -v b="$best" '{ if (b == "" || $1 < b) print $1; else print b }')
  done
  echo "$best"
}

# One-shot: 100 whole processes in a row, so the clock's own cost is spread.
oneshot_runs() {
  local start end
  start=$(date +%s.%N)
  for _ in $(seq 100); do "$bin" --seed 1 'resilience +determined' > /dev/null; done
  end=$(date +%s.%N)
  echo "($end - $start) / 100" | bc -l
}
oneshot=$(for _ in 1 2 3; do oneshot_runs; done | sort -n | head -1)
text=$(best "$tmp/resilience.txt" "$bin" --seed 1)
json=$(best "$tmp/resilience.txt" "$bin" --seed 1 --json)
printf 'one-shot command (resilience +determined): %.1f ms\n' "$(echo "$oneshot * 1000" | bc -l)"
printf 'batch, %d resilience commands, text: %.3f s (%.0f commands/s)\n' "$lines" "$text" "$(echo "$lines / $text" | bc -l)"
printf 'batch, %d resilience commands, JSON: %.3f s (%.0f commands/s)\n' "$lines" "$json" "$(echo "$lines / $json" | bc -l)"

# The slowest shipped procedures under odds: the largest pools and groups
# the words allow, and the Mayhem draws that branch per figure or combat.
slow=("odds melee foot bases=30 vs foot bases=30"
      "odds melee foot bases=100 vs cavalry bases=100"
      "odds shoot musket 2BW formed bases=60"
      "odds shoot field-artillery 20BW bases=23 bounce at square bases=6"
      "odds roll 100d6"
      "odds roll 1d500"
      "odds roll 500d6>=4"
      "mayhem odds fire canister 30\" figures=30"
      "mayhem odds fire roundshot 20\" figures=30 rerolls=1"
      "mayhem odds courage group=$(printf '3%.0s,' $(seq 49))3"
      "mayhem odds fight leader rerolls=1 vs armed rerolls=1"
      "mayhem odds fight leader vs armed vs armed vs armed vs armed vs armed vs armed vs armed vs armed"
      "mayhem odds fight leader saves=9 rerolls=9 vs armed rerolls=9 saves=9 vs unarmed rerolls=2 vs shock saves=3 vs armed rerolls=9 vs superior saves=9 vs leader rerolls=9 saves=9 vs armed rerolls=9 vs armed saves=9"
      "saber odds attack 9 mr=4 vs 3 mr=3 disrupted"
      "saber odds attack 7 mr=4 leader-mr=1 disrupted cavalry-charge cavalry vs 4 mr=3 leader-mr=1 disrupted form-square"
      "saber-quickplay odds attack 6 mr=4 cavalry cavalry-charge vs 3 mr=3")
echo "odds of the slowest procedures, mean in-process latency (µs):"
cargo run --release --quiet --example odds_latency -- "${slow[@]}"
echo

# Exact odds inside the process, beside icepool (Python, from PyPI) on the
# same distributions.
cases=("odds roll 60d6>=4" "odds roll 30d6>=4" "odds resilience melee lost-round general")
echo
echo "odds, mean in-process latency (µs):"
cargo run --release --quiet --example odds_latency -- "${cases[@]}" | tee "$tmp/drumhead-odds.txt"

venv=target/bench-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv" && "$venv/bin/pip" install --quiet icepool || { echo "icepool could not be installed: comparison skipped"; exit 0; }
fi
echo
echo "icepool $("$venv/bin/python" -c 'import icepool; print(icepool.__version__)'), first computation (µs):"
"$venv/bin/python" bench/icepool_pools.py "${cases[@]}" | tee "$tmp/icepool.txt"
echo
echo "ratio (icepool / drumhead):"
paste "$tmp/icepool.txt" "$tmp/drumhead-odds.txt" | awk -F'\t' '{ printf "  %6.1fx  %s\n", $1 / $3, $2 }'
