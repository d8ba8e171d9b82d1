#!/usr/bin/env bash
# The container image and the compose stack (Dockerfile, compose.yaml, docs/deploy.md), proven
# the way an operator runs them: build the image; bring up PostgreSQL, Redis, two replicas and
# HAProxy; then, through the balancer (.ci/stack-check.ts): /health answers, a sync fills the
# catalogue, rate limits count across the replicas, a replica stopped with SIGTERM under load
# drops no request and the other keeps answering, and after `down` and `up` the catalogue, its
# history and a webhook are still there; then, under a load of reads (.ci/fault-check.ts), one
# replica killed with SIGKILL, PostgreSQL and Redis each stopped for 10 s, and each started
# again: only documented 503s while a dependency is down, recovery within 5 s, no record lost
# or duplicated, the count of each status per phase printed. Also: the image alone (`run -p`)
# starts the embedded default and prints its key, and the image adds at most 150 MB to its base.
#
# Engine: podman with podman-compose (or `podman compose`). The base images come from a
# registry when one answers; otherwise from the stand-in script of this workplace
# (STAND_IN_IMAGES, default ../shared/containers/stand-in-images.sh beside the repository),
# which installs podman and builds local images under the public names. Run as root, from
# anywhere; `node` (22 or newer) must be on PATH for the checks.
set -euo pipefail
cd "$(dirname "$0")/.."

PROJECT=${CI_COMPOSE_PROJECT:-cloudprice-ci}
PORT=${CI_STACK_PORT:-18080}
IMAGE=localhost/cloudprice:ci
STAND_IN_IMAGES=${STAND_IN_IMAGES:-$(cd .. && pwd)/shared/containers/stand-in-images.sh}
BASE_IMAGES=(node:22-bookworm-slim postgres:15 redis:7 haproxy:2.6)
work=$(mktemp -d "${TMPDIR:-/tmp}/cloudprice-containers.XXXXXX")

log() { printf '\n-- containers: %s\n' "$*"; }
fail() { echo "containers: FAILED: $*" >&2; exit 1; }

have_base_images() {
  local image
  for image in "${BASE_IMAGES[@]}"; do podman image exists "docker.io/library/$image" || return 1; done
}

# Base images: present, pulled, or built by the stand-in script.
if command -v podman >/dev/null 2>&1 && have_base_images; then
  log "base images present"
elif command -v podman >/dev/null 2>&1 &&
  timeout 60 podman pull -q "docker.io/library/${BASE_IMAGES[0]}" >/dev/null 2>&1; then
  log "pulling base images from the registry"
  for image in "${BASE_IMAGES[@]:1}"; do podman pull -q "docker.io/library/$image" >/dev/null; done
else
  [ -f "$STAND_IN_IMAGES" ] || fail "no registry answers and no stand-in script at $STAND_IN_IMAGES"
  log "no registry: building stand-in base images ($STAND_IN_IMAGES)"
  # shellcheck source=/dev/null
  . "$STAND_IN_IMAGES"
  # The sourced script defines a log() of its own.
  log() { printf '\n-- containers: %s\n' "$*"; }
fi
# The stand-in script's podman settings (runtime, ulimits) when it has run on this machine.
if [ -z "${CONTAINERS_CONF:-}" ] && [ -f "${XDG_CACHE_HOME:-$HOME/.cache}/stand-in-images/containers.conf" ]; then
  export CONTAINERS_CONF="${XDG_CACHE_HOME:-$HOME/.cache}/stand-in-images/containers.conf"
fi
if podman compose version >/dev/null 2>&1; then compose=(podman compose); else compose=(podman-compose); fi

export CLOUDPRICE_IMAGE=$IMAGE CLOUDPRICE_PORT=$PORT
export API_KEYS=ci-client-key-0123456789abcdef
export HEALTH_CHECK_KEY=ci-health-key-0123456789abcdef
export POSTGRES_PASSWORD=ci-postgres-password
export BASE=http://127.0.0.1:$PORT API_KEY=$API_KEYS
stack() { "${compose[@]}" -p "$PROJECT" -f compose.yaml "$@" >>"$work/compose.log" 2>&1; }
# `down` as Docker Compose does it: podman-compose 1.0 leaves the project's network, whose DNS
# (aardvark) can keep the removed containers' addresses, so a replica after `up` may resolve
# `postgres` to a container that is gone and time out connecting (seen in CI).
stack_down() {
  stack down "$@" || return 1
  podman network rm -f "${PROJECT}_default" >>"$work/compose.log" 2>&1 || true
}
container() { # the container of compose service $1
  podman ps -a -q --filter "label=com.docker.compose.project=$PROJECT" \
    --filter "label=com.docker.compose.service=$1" | head -n 1
}
solo=cloudprice-ci-solo
# Every service's whole log, kept as CI artifacts when the step fails: the log of the first `up`
# (saved before `down`) and of the containers running at the failure.
artifacts=${CI_ARTIFACTS:-test-results}/containers
save_logs() { # label
  local service id
  for service in app1 app2 haproxy postgres redis; do
    id=$(container "$service" || true)
    [ -n "$id" ] && podman logs -t "$id" >"$work/$1-$service.log" 2>&1 || true
  done
}
cleanup() {
  local status=$?
  if [ "$status" -ne 0 ]; then
    save_logs failed
    id=$(container app1 || true)
    [ -n "$id" ] && podman exec "$id" getent hosts postgres redis >"$work/failed-dns.log" 2>&1 || true
    echo "containers: logs of the stack (last lines of each, the replicas' above info level)" >&2
    for service in app1 app2 haproxy postgres; do
      [ -f "$work/failed-$service.log" ] || continue
      echo "--- $service" >&2
      grep -v '"level":"info"' "$work/failed-$service.log" | tail -n 15 | cut -c1-600 >&2 || true
    done
    tail -n 20 "$work/compose.log" >&2 || true
    rm -rf "$artifacts" && mkdir -p "$artifacts" && cp "$work"/*.log "$artifacts"/ &&
      { cp "$work"/fault-answers.json "$artifacts"/ 2>/dev/null || true; } &&
      echo "containers: every service's whole log, and compose's: $artifacts/" >&2
  fi
  podman rm -f -v "$solo" >/dev/null 2>&1 || true
  stack_down -v -t 20 || true
  rm -rf "$work"
}
trap cleanup EXIT
# A timeout (`.ci/run`) or Ctrl-C still removes the stack.
trap 'exit 143' TERM INT

log "building $IMAGE"
# Docker's image format keeps the HEALTHCHECK (OCI's has no field for it).
podman build --pull=never --format docker -q -t "$IMAGE" . >/dev/null
added=$(( ($(podman image inspect "$IMAGE" --format '{{.Size}}') -
  $(podman image inspect "docker.io/library/${BASE_IMAGES[0]}" --format '{{.Size}}')) / 1000000 ))
echo "the image adds $added MB to ${BASE_IMAGES[0]}"
[ "$added" -le 150 ] || fail "the image adds $added MB to its base (at most 150)"

log "the image alone: embedded default, a generated key"
podman rm -f -v "$solo" >/dev/null 2>&1 || true
podman run -d --name "$solo" -p "127.0.0.1:$((PORT + 1)):8080" "$IMAGE" >/dev/null
key=""
for _ in $(seq 1 120); do
  key=$(podman logs "$solo" 2>&1 | grep -o '"apiKey":"[^"]*"' | cut -d'"' -f4 || true)
  [ -n "$key" ] && break
  sleep 1
done
[ -n "$key" ] || fail "the image alone printed no generated key"
code=$(curl -s -o /dev/null -w '%{http_code}' -H "X-API-Key: $key" "http://127.0.0.1:$((PORT + 1))/health")
[ "$code" = 200 ] || fail "the image alone: /health answered $code"
podman healthcheck run "$solo" >/dev/null 2>&1 || fail "the image's HEALTHCHECK failed"
[ "$(podman exec "$solo" id -u)" != 0 ] || fail "the image runs as root"
podman stop -t 15 "$solo" >/dev/null
[ "$(podman inspect "$solo" --format '{{.State.ExitCode}}')" = 0 ] || fail "SIGTERM did not end the image alone with 0"
podman rm -f -v "$solo" >/dev/null
echo "listened, printed its key, /health 200, HEALTHCHECK passed, non-root, exit 0 on SIGTERM"

log "compose up ($PROJECT, balancer on 127.0.0.1:$PORT)"
stack_down -v -t 5 || true
stack up -d || fail "compose up failed"
node .ci/stack-check.ts ready "$work/state.json"
node .ci/stack-check.ts fill "$work/state.json"
node .ci/stack-check.ts limits "$work/state.json"
STOP_COMMAND="podman stop -t 30 $(container app1)" REPLICA=app1 \
  node .ci/stack-check.ts sigterm "$work/state.json"
[ "$(podman inspect "$(container app1)" --format '{{.State.ExitCode}}')" = 0 ] ||
  fail "app1 did not exit with 0 after SIGTERM"

log "compose down and up (volumes kept)"
save_logs first-up
stack_down -t 20 || fail "compose down failed"
stack up -d || fail "compose up failed"
node .ci/stack-check.ts ready "$work/state.json"
node .ci/stack-check.ts persisted "$work/state.json"

# Real faults under a load of reads through the balancer (.ci/fault-check.ts): app1 killed with
# SIGKILL and started again, PostgreSQL stopped for 10 s, Redis stopped for 10 s.
log "faults under load: kill -9 app1, PostgreSQL down 10 s, Redis down 10 s"
APP1_CONTAINER=$(container app1) POSTGRES_CONTAINER=$(container postgres) \
  REDIS_CONTAINER=$(container redis) RESULTS_FILE="$work/fault-answers.json" \
  timeout 400 node .ci/fault-check.ts || fail "the fault check failed"
log "image and stack checked"
