#!/usr/bin/env bash
# bash bench/instructions-per-request.sh <tree> [new|cached] — user-space instructions per GET
# /instances request of <tree>'s built server (`npm run build` first; dist/src/main.js), counted
# by valgrind's callgrind: a count, not a time, so it repeats whatever else the machine does
# (timings on this project's 2-vCPU machines swing by up to 50% between server processes).
# The server starts once on a fresh data directory (filling it from the tree's bundled
# snapshots), stops, starts again under callgrind with collection off, answers 600 warm-up
# requests (WARMUP=<n> for another number: under valgrind V8 is still compiling hot code after
# thousands of requests, and that compiling is counted), then collection is on for 2,000 more (bench/support/sequential-requests.ts, one
# connection, identity encoding) and the total is divided by 2,000. REQUESTS=<n> counts another
# number: a major GC costs ~200 million instructions and falls in or out of a short window, so a
# longer one averages it better. All the process's threads are
# counted (JIT compilers, GC helpers); the kernel is not (the socket writes of bigger answers do
# not show here). Prints the figure; writes nothing else. Needs valgrind (on every machine kind).
set -euo pipefail
tree=$(cd "${1:?usage: instructions-per-request.sh <tree> [new|cached]}" && pwd)
mode=${2:-new}
count=${REQUESTS:-2000}
warmup=${WARMUP:-600}
here=$(cd "$(dirname "$0")" && pwd)
port=$((20000 + RANDOM % 20000))
work=$(mktemp -d "${TMPDIR:-/tmp}/cloudprice-instructions.XXXXXX")
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
# HOST also names valgrind's control pipe: callgrind_control below runs with the same value.
export DATA_DIR=$work/data PORT=$port HOST=127.0.0.1 API_KEYS=bench-key-0123456789abcdef \
  CLIENT_IP_HEADER=x-bench-client RATE_LIMIT_MAX_COUNTERS=10000000
mkdir -p "$DATA_DIR"
wait_listening() {
  for _ in $(seq 1 900); do
    if grep -q "listening" "$1"; then return 0; fi
    sleep 1
  done
  echo "the server did not start: $1" >&2
  exit 1
}
cd "$tree"
node dist/src/main.js >"$work/fill.log" 2>&1 &
server=$!
wait_listening "$work/fill.log"
kill "$server"
wait "$server" 2>/dev/null || true
valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$work/callgrind.out" \
  node dist/src/main.js >"$work/server.log" 2>&1 &
server=$!
wait_listening "$work/server.log"
requests() { npx --prefix "$here/.." tsx "$here/support/sequential-requests.ts" "$port" "$1" "$2" "$mode"; }
requests 0 "$warmup" >/dev/null
callgrind_control -i on "$server" >/dev/null 2>&1
answered=$(requests 100000 "$count")
callgrind_control -i off "$server" >/dev/null 2>&1
callgrind_control -d "$server" >/dev/null 2>&1
sleep 2
total=$(callgrind_annotate "$work"/callgrind.out.* | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
echo "$tree, $mode: $answered; $total instructions, $((total / count)) per request"
