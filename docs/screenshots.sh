#!/usr/bin/env bash
# docs/serve-{feed,roster,umpire,odds}-{light,dark}.png: the live view of an
# evening as a phone shows it (390×844, mobile emulation, light and dark),
# and docs/screenshots.sha256, the digest of the pages they were made from
# and of each picture. The procedure is tests/serve/pictures.rs: a game of
# three rule systems with a few lines played, `drumhead serve --umpire`, the
# umpire typing three lines on the umpire's page, then a player's phone on
# the feed, a tap on Roster, and the odds form. `cargo test` fails when the
# page served no longer is the one pictured: run this again, then look at
# the pictures before committing them.
# Needs headless Chromium (chromium-headless-shell, or chromium).
# Run from anywhere: ./docs/screenshots.sh
set -euo pipefail
cd "$(dirname "$0")/.."
DRUMHEAD_PICTURES="$PWD/docs" cargo test --test serve -- --ignored --exact pictures::make_the_pictures --nocapture
