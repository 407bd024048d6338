#!/usr/bin/env bash
# `drumhead serve` under an evening's load, on the release build: CLIENTS
# live views (Server-Sent Events) of one game on loopback while a writer
# adds LINES lines, one every GAP ms. Prints the latency from each journal
# append to its delivery at each client (p50, p99, worst) and the server's
# memory a client (VmRSS). Goal: p99 under 100 ms at 200 clients.
# Usage: bench/serve.sh [CLIENTS [LINES [GAP]]]   (default 200 200 25)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo bench --quiet --bench serve -- "$@"
