#!/usr/bin/env bash
# Large answers are written as they are made (issue 37): the peak memory
# (RSS) and time of a sweep within every limit, in text, CSV and JSON from
# the command line, and through `/g/NAME/odds` of `drumhead serve` (the
# server's peak while it answers, VmHWM). Goal: every peak under 64 MB.
# Usage: bench/stream.sh [DRUMHEAD]   (default: target/release/drumhead,
# built if missing)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/drumhead}
[[ -x $bin ]] || cargo build --release --quiet
line='odds mayhem fire roundshot 1"..20" figures=11..30 rerolls=1'
dir=$(mktemp -d)
trap 'kill "${server:-}" 2>/dev/null || true; rm -rf "$dir"' EXIT

for format in text json csv; do
  /usr/bin/time -f '%M %e' -o "$dir/time" "$bin" --format "$format" "$line" >"$dir/out"
  read -r kib secs <"$dir/time"
  printf 'cli %-5s %6d KiB peak  %5s s  %9d bytes\n' "$format" "$kib" "$secs" "$(wc -c <"$dir/out")"
done

"$bin" --game "$dir/g.toml" 'roll 2d6' >/dev/null 2>&1
"$bin" serve --listen 127.0.0.1:0 --game "$dir/g.toml" >"$dir/serve.out" 2>"$dir/serve.err" &
server=$!
for _ in $(seq 100); do [[ -s $dir/serve.out ]] && break; sleep 0.05; done
base=$(head -1 "$dir/serve.out" | sed -e 's/^serving //' -e 's#/$##')
name=g.toml
before=$(awk '/VmHWM/ {print $2}' "/proc/$server/status")
query=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1][5:]))' "$line")
curl -sS -o "$dir/odds.json" -w '%{http_code} first byte %{time_starttransfer} s, all %{time_total} s\n' \
  "$base/g/$name/odds?line=$query"
python3 -c "import json, sys; v = json.load(open(sys.argv[1])); assert len(v[\"rows\"]) == 400" "$dir/odds.json"
hwm=$(awk '/VmHWM/ {print $2}' "/proc/$server/status")
printf 'serve json %6d KiB peak (%d before the request)  %9d bytes\n' "$hwm" "$before" "$(wc -c <"$dir/odds.json")"
