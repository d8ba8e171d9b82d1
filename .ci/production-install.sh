#!/usr/bin/env bash
# The production install as an operator does it, on the Node.js whose bin/ is $1 (default: the
# `node` on PATH): a clean copy of HEAD (`git archive`, so nothing built or installed here
# leaks in), `npm ci --omit=dev`, `npm start`; it must build, print what it builds before
# building, listen, answer /health with the generated key and serve the web UI, then stop on
# SIGTERM. First, without the build tools (`--omit=optional`), `npm start` must refuse with a
# message that says how to install them (docs/adr/0015). npm's cache is warm in CI
# (`--prefer-offline`); run from the repository root.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${1:-}" ]; then export PATH="$1:$PATH"; fi

work=$(mktemp -d "${TMPDIR:-/tmp}/cloudprice-production-install.XXXXXX")
server=""
cleanup() {
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then kill -KILL -- "-$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "production install: $*" >&2
  [ -f "$work/start.log" ] && tail -n 40 "$work/start.log" >&2
  exit 1
}

git archive --format=tar HEAD | tar -x -C "$work"
cd "$work"
echo "production install on Node.js $(node --version) in $work"

npm_ci() { npm ci --prefer-offline --no-audit --no-fund --loglevel=error "$@" >"$work/npm-ci.log" 2>&1 || { cat "$work/npm-ci.log" >&2; fail "npm ci $* failed"; }; }

npm_ci --omit=dev --omit=optional
if node scripts/prestart.mjs >"$work/start.log" 2>&1; then fail "prestart built without the build tools"; fi
grep -q 'cannot be built: node_modules/typescript/bin/tsc is not installed' "$work/start.log" ||
  fail "prestart without the build tools did not say why it cannot build"

npm_ci --omit=dev
[ ! -e node_modules/vitest ] || fail "npm ci --omit=dev installed a dev dependency (vitest)"

# Its own process group, so SIGTERM reaches npm and the server alike and cleanup finds both.
PORT=0 setsid npm start >"$work/start.log" 2>&1 &
server=$!
url=""
for _ in $(seq 1 300); do
  url=$(grep -o '"msg":"cloudprice listening on http://[^"]*"' "$work/start.log" | grep -o 'http://[^"]*' || true)
  [ -n "$url" ] && break
  kill -0 "$server" 2>/dev/null || fail "npm start exited before listening"
  sleep 1
done
[ -n "$url" ] || fail "npm start did not listen within 300 s"
grep -q '^cloudprice: building the server' "$work/start.log" || fail "no line said the server was being built"
grep -q '^cloudprice: building the web UI' "$work/start.log" || fail "no line said the web UI was being built"

key=$(grep -v '^#' data/api-keys | head -n 1)
[ -n "$key" ] || fail "no generated key in data/api-keys"
code=$(curl -s -o "$work/health.json" -w '%{http_code}' -H "X-API-Key: $key" "$url/health")
[ "$code" = 200 ] || fail "/health answered $code"
code=$(curl -s -o /dev/null -w '%{http_code}' -H "X-API-Key: $key" "$url/instances?limit=1")
[ "$code" = 200 ] || fail "/instances answered $code"
code=$(curl -s -o /dev/null -w '%{http_code}' "$url/ui/")
[ "$code" = 200 ] || fail "/ui/ answered $code"

kill -TERM -- "-$server"
status=0
wait "$server" || status=$?
server=""
grep -q '"msg":"shutting down"' "$work/start.log" || fail "the server did not log its shutdown (exit $status)"
echo "production install: built, listened on $url, /health, /instances and /ui/ answered 200, stopped on SIGTERM"
