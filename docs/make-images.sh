#!/usr/bin/env bash
# The README's pictures, made by the same commands a user types: the odds
# charts drumhead draws itself (--svg); for a sheet and a roster drumhead
# writes the page, headless Chromium prints it to PDF, and pdftoppm draws
# the first page (needs chromium-headless-shell, or chromium, and
# poppler-utils). Run from anywhere: ./docs/make-images.sh
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build -q
drumhead=target/debug/drumhead

"$drumhead" --force --svg docs/odds.svg 'odds shoot musket 6BW formed bases=4' >/dev/null
"$drumhead" --force --svg docs/sweep-bases.svg 'odds shoot musket 6BW formed bases=2..8' >/dev/null
"$drumhead" --force --svg docs/sweep.svg 'odds shoot musket 2BW,6BW formed bases=2..8' >/dev/null
"$drumhead" --force --svg docs/compare.svg 'odds shoot musket 2BW formed bases=2 compare first-shot' >/dev/null
echo "wrote docs/odds.svg docs/sweep-bases.svg docs/sweep.svg docs/compare.svg"

browser=""
for b in chromium-headless-shell /usr/lib/chromium/chromium-headless-shell chromium; do
  if command -v "$b" >/dev/null 2>&1; then browser="$b"; break; fi
done
if [ -z "$browser" ] || ! command -v pdftoppm >/dev/null 2>&1; then
  echo "the sheet and roster pictures need headless Chromium and pdftoppm: apt-get install chromium-headless-shell poppler-utils" >&2
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# NAME ARGS…: the page, its PDF, and its first page as docs/NAME.png.
picture() {
  local name="$1"; shift
  "$drumhead" "$@" -o "$work/$name.html" >/dev/null
  "$browser" --headless --no-sandbox --disable-gpu --no-pdf-header-footer --no-first-run \
    --user-data-dir="$work/profile-$name" --print-to-pdf="$work/$name.pdf" \
    "file://$work/$name.html" >/dev/null 2>&1
  pdftoppm -png -r 40 -f 1 -l 1 -singlefile "$work/$name.pdf" "docs/$name"
  echo "wrote docs/$name.png"
}

picture sheet-drums sheet drums
picture roster-leuthen roster --army armies/leuthen-1757-prussian.toml --army armies/leuthen-1757-austrian.toml
