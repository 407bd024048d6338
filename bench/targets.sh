#!/usr/bin/env bash
# Issue 24's targets, each one command, on the README's line
# (`resilience shooting line +determined +hit rolled 4 3`):
#   bench/targets.sh text    OLD NEW [LINES]   text batch, lines/s (target ≥ 500,000)
#   bench/targets.sh json    OLD NEW [LINES]   JSON batch, lines/s (target ≥ 1,000,000)
#   bench/targets.sh oneshot OLD NEW [RUNS]    one-shot command against /bin/true (target ≤ 2×)
#   bench/targets.sh armies  OLD NEW [RUNS]    a one-shot naming units of two armies against the
#                                              same line typed without them (target ≤ 1.2×)
#   bench/targets.sh all     OLD NEW           the first three in turn
# OLD and NEW are each a checkout of drumhead (built here as it ships: on
# Linux x86-64 as `cargo build-static` builds it, in the checkout's `dist`
# profile where it has one and `release` where not; LINK=dynamic for a
# plain build of that profile, LINK=fixed for the static build at a fixed
# address that shipped before issue 37) or a drumhead binary (a copy of an earlier
# build, say). The builds are
# run in alternation, ROUNDS times (default 7), and the best run of each
# is kept: the machine is shared and noisy, and a slow run says less about
# a build than a fast one. Each figure is printed for both builds with the
# ratio new / old, so that the comparison holds however loaded the machine.
set -euo pipefail
what=${1:?usage: bench/targets.sh text|json|oneshot|armies|all OLD NEW [COUNT]}
rounds=${ROUNDS:-7}
line='resilience shooting line +determined +hit rolled 4 3'

# The static build's flags, given here rather than by its alias so that an
# older checkout without the alias is built the same way.
static_flags="target.x86_64-unknown-linux-gnu.rustflags = ['-C', 'target-feature=+crt-static']"
if [ "${LINK:-static}" = fixed ]; then
  static_flags="target.x86_64-unknown-linux-gnu.rustflags = ['-C', 'target-feature=+crt-static', '-C', 'relocation-model=static']"
fi
binary() { # DIR or BINARY: the binary to run
  if [ -d "$1" ]; then
    local profile=release
    grep -q '^\[profile\.dist\]' "$1/Cargo.toml" && profile=dist
    if [ "${LINK:-static}" != dynamic ] && [ "$(uname -sm)" = "Linux x86_64" ]; then
      (cd "$1" && cargo build --profile "$profile" --quiet --target x86_64-unknown-linux-gnu --config "$static_flags") >&2
      echo "$(cd "$1" && pwd)/target/x86_64-unknown-linux-gnu/$profile/drumhead"
    else
      (cd "$1" && cargo build --profile "$profile" --quiet) >&2
      echo "$(cd "$1" && pwd)/target/$profile/drumhead"
    fi
  else
    echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
  fi
}
old=$(binary "${2:?OLD}")
new=$(binary "${3:?NEW}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Seconds a command took, as "wall cpu" (cpu: user + system, of every
# process it ran). On a loaded machine the wall clock counts the waits for
# a core as well; the processor time does not, and is printed beside it.
TIMEFORMAT='%3R %3U %3S'
timed() {
  local t
  t=$( { time "$@" > /dev/null; } 2>&1 )
  echo "$t" | awk '{ printf "%s %s\n", $1, $2 + $3 }'
}
best() { sort -g | head -1; }

batch() { # KIND LINES
  local kind=$1 lines=$2 opts=()
  [ "$kind" = json ] && opts=(--json)
  awk -v n="$lines" -v l="$line" 'BEGIN { for (i = 0; i < n; i++) print l }' > "$tmp/batch.txt"
  for _ in $(seq "$rounds"); do
    for side in old new; do
      timed "${!side}" "${opts[@]}" < "$tmp/batch.txt" >> "$tmp/$side.$kind"
    done
  done
  local col o n
  for col in 1 2; do
    o=$(cut -d' ' -f$col < "$tmp/old.$kind" | best); n=$(cut -d' ' -f$col < "$tmp/new.$kind" | best)
    printf '%s batch, %d lines, %-4s: old %8.0f lines/s   new %8.0f lines/s   time ratio new/old %.2f\n' \
      "$kind" "$lines" "$( [ $col = 1 ] && echo wall || echo cpu)" \
      "$(echo "$lines / $o" | bc -l)" "$(echo "$lines / $n" | bc -l)" "$(echo "$n / $o" | bc -l)"
  done
}

oneshot() { # RUNS
  local runs=$1
  read -r -a words <<< "$line"
  for _ in $(seq "$rounds"); do
    for side in true old new; do
      local bin
      if [ "$side" = true ]; then bin=/bin/true; else bin=${!side}; fi
      timed bash -c 'for _ in $(seq "$1"); do "$2" "${@:3}" > /dev/null; done' _ "$runs" "$bin" "${words[@]}" \
        | awk -v n="$runs" '{ print $1 / n, $2 / n }' >> "$tmp/$side.oneshot"
    done
  done
  local col t o n
  for col in 1 2; do
    t=$(cut -d' ' -f$col < "$tmp/true.oneshot" | best)
    o=$(cut -d' ' -f$col < "$tmp/old.oneshot" | best)
    n=$(cut -d' ' -f$col < "$tmp/new.oneshot" | best)
    printf 'one-shot, %-4s best of %d rounds of %d: /bin/true %.2f ms   old %.2f ms (%.2f× true)   new %.2f ms (%.2f× true)   ratio new/old %.2f\n' \
      "$( [ $col = 1 ] && echo wall || echo cpu)" "$rounds" "$runs" "$(echo "$t * 1000" | bc -l)" \
      "$(echo "$o * 1000" | bc -l)" "$(echo "$o / $t" | bc -l)" \
      "$(echo "$n * 1000" | bc -l)" "$(echo "$n / $t" | bc -l)" "$(echo "$n / $o" | bc -l)"
  done
}

# Issue 37's pair: `shoot gren-1 2BW at aus-3` with the two Leuthen
# armies loaded, and the same shooting with gren-1's and aus-3's facts
# typed (the same pool of 9D6 at 4+ is thrown).
armies_dir=$(cd "$(dirname "$0")/.." && pwd)/armies
named=(--army "$armies_dir/leuthen-1757-prussian.toml" --army "$armies_dir/leuthen-1757-austrian.toml"
  'shoot gren-1 2BW at aus-3')
typed=('shoot musket column-of-attack two-rank bases=6 first-shot 2BW at open light bases=4')
armies() { # RUNS
  local runs=$1 side kind
  for _ in $(seq "$rounds"); do
    for side in old new; do
      for kind in typed named; do
        local -n args=$kind
        timed bash -c 'for _ in $(seq "$1"); do "$2" "${@:3}" > /dev/null; done' _ "$runs" "${!side}" "${args[@]}" \
          | awk -v n="$runs" '{ print $1 / n, $2 / n }' >> "$tmp/$side.$kind"
      done
    done
  done
  local col t n
  for col in 1 2; do
    for side in old new; do
      t=$(cut -d' ' -f$col < "$tmp/$side.typed" | best)
      n=$(cut -d' ' -f$col < "$tmp/$side.named" | best)
      printf 'one-shot with two armies, %-4s best of %d rounds of %d, %s: typed %.2f ms   units named %.2f ms   ratio named/typed %.2f\n' \
        "$( [ $col = 1 ] && echo wall || echo cpu)" "$rounds" "$runs" "$side" \
        "$(echo "$t * 1000" | bc -l)" "$(echo "$n * 1000" | bc -l)" "$(echo "$n / $t" | bc -l)"
    done
  done
}

case $what in
  text | json) batch "$what" "${4:-100000}" ;;
  oneshot) oneshot "${4:-100}" ;;
  armies) armies "${4:-100}" ;;
  all) batch text 100000; batch json 100000; oneshot 100 ;;
  *) echo "usage: bench/targets.sh text|json|oneshot|armies|all OLD NEW [COUNT]" >&2; exit 2 ;;
esac
