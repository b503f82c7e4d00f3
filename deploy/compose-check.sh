#!/usr/bin/env bash
# The compose deployment checked end to end on a machine with a Docker engine (docs/deployment.md, "Compose"):
#   1. (--build) the base images from Debian's packages if missing (deploy/images/build-base-images.sh), the jars and
#      the service images on them (Jib into the local daemon);
#   2. `up` from empty volumes, timed until every service is healthy and every one-shot exited 0;
#   3. the load client (module station, `vpki register|enrol|fetch`) registers a fleet through the Operator, enrols it
#      at the 3 EA replicas, fetches ATs from the 2 AAs, verifying every certificate (a failure fails the check);
#   4. stop and `up` again: every replica's Redis holds the same content as before (the number of keys and a digest of
#      every key's name, type and value: deploy/redis-digest.lua), the RCA the same root certificate, and the fleet's
#      ECs still get ATs;
#   5. ea-1's container killed (SIGKILL) while more stations register and enrol at the others, then started again:
#      it catches up to the same content as the other replicas; ea-2's JVM killed from the host (a crash, not a
#      stop): the restart policy brings it back by itself, and every replica's content is what it was;
#   6. Prometheus (compose's `prometheus`) scrapes all 8 services: every target's `up` is 1;
#   7. `down -v` (containers, volumes, network; the images stay) unless --keep.
# Not part of `mvn verify` or CI: it needs a Docker engine and takes minutes (about 10 on a busy 2-core machine).
#
# Usage: deploy/compose-check.sh [--build] [--keep]
# Environment: VPKI_CHECK_PROJECT (vpki-check: the compose project, hence container and volume names),
#   VPKI_CHECK_BASE_PORT (publish the ports at BASE+81.. instead of compose.yaml's 8081..: RCA +81, DC +82,
#   EAs +83/+183/+283, Operator +84, AAs +85/+185, Prometheus +90), VPKI_SUBNET (compose.yaml's, 172.29.0), VPKI_CHECK_STATIONS (200),
#   VPKI_CHECK_PER_STATION (5), VPKI_CHECK_TIMEOUT (900 s for all healthy), VPKI_MVN_ARGS (extra Maven arguments,
#   e.g. -o), VPKI_REDIS_IMAGE (vpki-base/redis:7.0-bookworm here; compose.yaml's default is redis:7.0),
#   VPKI_PROMETHEUS_IMAGE (vpki-base/prometheus:2.42-bookworm here; compose.yaml's default is prom/prometheus).
# Writes target/compose-check/: summary.txt (the figures), the load client's reports, the services' logs.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
build=false keep=false
for arg in "$@"; do
  case $arg in
    --build) build=true ;;
    --keep) keep=true ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "compose-check.sh: unknown argument $arg (--build, --keep)" >&2; exit 2 ;;
  esac
done
project=${VPKI_CHECK_PROJECT:-vpki-check}
stations=${VPKI_CHECK_STATIONS:-200}
per_station=${VPKI_CHECK_PER_STATION:-5}
timeout=${VPKI_CHECK_TIMEOUT:-900}
export VPKI_REDIS_IMAGE=${VPKI_REDIS_IMAGE:-vpki-base/redis:7.0-bookworm}
export VPKI_PROMETHEUS_IMAGE=${VPKI_PROMETHEUS_IMAGE:-vpki-base/prometheus:2.42-bookworm}
jre_base=vpki-base/jre:17-bookworm
work=$root/target/compose-check
if [[ -n ${VPKI_CHECK_BASE_PORT:-} ]]; then
  b=$VPKI_CHECK_BASE_PORT
  export VPKI_PORT_RCA=$((b + 81)) VPKI_PORT_DC=$((b + 82)) VPKI_PORT_EA_0=$((b + 83)) VPKI_PORT_EA_1=$((b + 183))
  export VPKI_PORT_EA_2=$((b + 283)) VPKI_PORT_OPERATOR=$((b + 84)) VPKI_PORT_AA_0=$((b + 85)) VPKI_PORT_AA_1=$((b + 185))
  export VPKI_PORT_PROMETHEUS=$((b + 90))
fi
prometheus_port=${VPKI_PORT_PROMETHEUS:-9090} dc_port=${VPKI_PORT_DC:-8082} operator_port=${VPKI_PORT_OPERATOR:-8084}
ea_urls=http://localhost:${VPKI_PORT_EA_0:-8083},http://localhost:${VPKI_PORT_EA_1:-8183},http://localhost:${VPKI_PORT_EA_2:-8283}
aa_urls=http://localhost:${VPKI_PORT_AA_0:-8085},http://localhost:${VPKI_PORT_AA_1:-8185}
services=(rca dc redis-ea-0 redis-ea-1 redis-ea-2 redis-operator-0 ea-0 ea-1 ea-2 operator-0 aa-0 aa-1 prometheus)
one_shots=(volumes secrets tls replication certify)
replicas=(ea-0 ea-1 ea-2 operator-0)

docker info >/dev/null 2>&1 || { echo "compose-check.sh: no Docker engine answers (docs/deployment.md, \"A Docker engine on Debian\")" >&2; exit 2; }
if command -v docker-compose >/dev/null; then dc_cmd=(docker-compose); else dc_cmd=(docker compose); fi
compose() { "${dc_cmd[@]}" -p "$project" -f "$root/compose.yaml" "$@"; }
say() { echo "[$(date -u +%H:%M:%S)] $*" >&2; }
record() { echo "$*" | tee -a "$work/summary.txt"; }
# the container of a service, by compose's labels (v1 and v2 set them): the docker client answers in milliseconds,
# docker-compose 1.29 (Python) takes seconds of CPU per call
container() {
  docker ps -aq --filter "label=com.docker.compose.project=$project" --filter "label=com.docker.compose.service=$1" \
    --filter "label=com.docker.compose.oneoff=False"
}

rm -rf "$work"; mkdir -p "$work/reports" "$work/logs"
if $build; then
  docker image inspect "$jre_base" "$VPKI_REDIS_IMAGE" "$VPKI_PROMETHEUS_IMAGE" >/dev/null 2>&1 || bash deploy/images/build-base-images.sh
  say "building the jars and the images on $jre_base (mvn package -Pimages, Jib into the local daemon)"
  # shellcheck disable=SC2086
  ./mvnw -B -q ${VPKI_MVN_ARGS:-} -Pimages -DskipTests -Dvpki.image.goal=dockerBuild -Dvpki.image.base="docker://$jre_base" \
    -pl rca,dc,ea,aa,operator,admin,cli -am package
fi
cli=$(ls -t cli/target/vpki-cli-*.jar 2>/dev/null | head -n 1 || true)
[[ -n $cli ]] || { echo "compose-check.sh: no cli/target/vpki-cli-*.jar (run with --build, or ./mvnw -B -DskipTests package)" >&2; exit 2; }
vpki() { java -jar "$root/$cli" "$@"; }

cleanup() {
  local rc=$?
  for s in "${services[@]}" "${one_shots[@]}"; do
    local c; c=$(container "$s" 2>/dev/null || true)
    [[ -z $c ]] || docker logs "$c" > "$work/logs/$s.log" 2>&1 || true
  done
  if $keep; then say "kept: ${dc_cmd[*]} -p $project down -v removes it"; else compose down -v --remove-orphans >/dev/null 2>&1 || true; fi
  [[ $rc == 0 ]] && say "compose check passed: $work/summary.txt" || say "compose check FAILED (exit $rc): $work/summary.txt, $work/logs/"
}
trap cleanup EXIT

# wait_healthy LABEL: until every service's health check passes and every one-shot exited 0; records the seconds
wait_healthy() {
  local label=$1 start=$2 deadline=$(($(date +%s) + timeout))
  while :; do
    local pending=()
    for s in "${one_shots[@]}"; do
      local c; c=$(container "$s")
      local st; st=$(docker inspect -f '{{.State.Status}} {{.State.ExitCode}}' "$c" 2>/dev/null || echo missing)
      [[ $st == "exited 0" ]] || pending+=("$s:$st")
      [[ $st != exited\ [1-9]* ]] || { echo "one-shot $s failed: $st" >&2; docker logs "$c" 2>&1 | tail -20 >&2; return 1; }
    done
    for s in "${services[@]}"; do
      local c; c=$(container "$s")
      local h; h=$(docker inspect -f '{{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}' "$c" 2>/dev/null || echo missing)
      [[ $h == healthy ]] || pending+=("$s:$h")
    done
    [[ ${#pending[@]} -gt 0 ]] || break
    (($(date +%s) < deadline)) || { echo "not healthy after ${timeout}s: ${pending[*]}" >&2; return 1; }
    sleep 2
  done
  record "$label: all ${#services[@]} services healthy and ${#one_shots[@]} one-shots done after $(($(date +%s) - start)) s"
}

# keys REPLICA: "<key count> <SHA-1 of every key's name, type and value>" of the replica's Redis (deploy/redis-digest.lua)
keys() {
  docker exec -i "$(container "redis-$1")" sh -c 'export REDISCLI_AUTH="$(cat /secrets/redis-password)"; redis-cli --eval /dev/stdin' \
    < "$root/deploy/redis-digest.lua" | tr '\n' ' ' | sed 's/ $//'
}

# converged [REPLICA...]: waits (at most 120 s) until the replicas (default all four) hold the same content, and prints it
converged() {
  local deadline=$(($(date +%s) + 120)) members=("$@")
  [[ ${#members[@]} -gt 0 ]] || members=("${replicas[@]}")
  while :; do
    local seen=() r
    for r in "${members[@]}"; do seen+=("$(keys "$r")"); done
    if [[ $(printf '%s\n' "${seen[@]}" | sort -u | wc -l) == 1 ]]; then echo "${seen[0]}"; return 0; fi
    (($(date +%s) < deadline)) || { echo "replicas differ after 120 s: ${members[*]}: ${seen[*]}" >&2; return 1; }
    sleep 2
  done
}

state() { for r in "${replicas[@]}"; do echo "$r $(keys "$r")"; done; }

say "starting the compose project $project from empty volumes (images: vpki/*, $VPKI_REDIS_IMAGE, $VPKI_PROMETHEUS_IMAGE)"
compose down -v --remove-orphans >/dev/null 2>&1 || true
record "compose check, $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
record "images: $(docker image inspect -f '{{index .RepoTags 0}} {{.Id}}' "vpki/ea:${VPKI_VERSION:-0.2.0-SNAPSHOT}" | cut -c1-40)..., Redis $VPKI_REDIS_IMAGE, $VPKI_PROMETHEUS_IMAGE"
t0=$(date +%s)
compose up -d >"$work/logs/up.log" 2>&1 || { cat "$work/logs/up.log" >&2; exit 1; }
wait_healthy "first start" "$t0"
for s in rca dc ea-0 ea-1 ea-2 operator-0 aa-0 aa-1; do
  line=$(docker logs "$(container "$s")" 2>&1 | grep -o 'Started [A-Za-z]* in [0-9.]* seconds' | tail -n 1 || true)
  record "  $s: ${line:-no start-up line}"
done
# Prometheus: every service's target up (it scrapes every 15 s)
deadline=$(($(date +%s) + 120))
until [[ $(curl -fsS "http://localhost:$prometheus_port/api/v1/query" --data-urlencode 'query=sum(up{job!="prometheus"})' \
            | grep -o '"value":\[[^]]*\]' | grep -o '"[0-9]*"]' | tr -dc 0-9) == 8 ]]; do
  (($(date +%s) < deadline)) || { record "FAILED: Prometheus does not see all 8 services up"; exit 1; }
  sleep 3
done
record "  prometheus: all 8 service targets up (rca, dc, ea x3, operator, aa x2: /actuator/prometheus on each management port)"
users=$(for s in "${services[@]}"; do docker exec "$(container "$s")" id -u; done | sort -u | tr '\n' ' ')
record "  user ids inside the long-running containers: $users"
[[ $users == "10001 " ]] || { record "FAILED: a container runs as another user than 10001"; exit 1; }

docker cp "$(container operator-0):/secrets/tls/ca.crt" "$work/ca.crt"
docker cp "$(container operator-0):/secrets/operator-token" "$work/operator-token"
docker cp "$(container dc):/pki/rca.cert" "$work/rca.cert"
rca_before=$(sha256sum < "$work/rca.cert" | cut -c1-16)
target=(--dc "http://localhost:$dc_port" --rca-cert "$work/rca.cert" --ea-url "$ea_urls" --aa-url "$aa_urls")
run() { # run NAME COMMAND ARGS...: the load client; its report kept, its figures recorded, a failure fails the check
  local name=$1 command=$2; shift 2
  local args=("$@")
  [[ $command == register ]] || args+=(--report-dir "$work/reports/$name")
  say "vpki $command ${args[*]}"
  vpki "$command" "${args[@]}" > "$work/reports/$name.txt" 2>&1 || { grep -v ' INFO ' "$work/reports/$name.txt" >&2; return 1; }
  if [[ $command == register ]]; then
    record "  $name: $(grep -m1 '^registered' "$work/reports/$name.txt")"
  else
    record "  $name: $(grep -m1 -A1 '^phase ' "$work/reports/$name.txt" | tail -n 1 | tr -s ' ')"
    record "    ($(grep -m1 -E '^(all operations|[0-9]+ failed)' "$work/reports/$name.txt" || echo 'see the report'))"
  fi
}

record "load client (module station) against the deployment, from the host; figures from a busy 2-core machine"
record "  (phase, offered/s, achieved/s, ok, failed, p50, p90, p99, p99.9, max ms):"
run register register --operator "https://localhost:$operator_port" --tls-ca "$work/ca.crt" \
  --operator-token-file "$work/operator-token" --stations "$stations" --fleet "$work/fleet.json"
converged >/dev/null
run enrol enrol "${target[@]}" --fleet "$work/fleet.json"
converged >/dev/null
run fetch fetch "${target[@]}" --fleet "$work/fleet.json" --per-station "$per_station"
converged >/dev/null
state > "$work/state-before-stop.txt"
record "replica contents (keys, digest) before stop: $(tr '\n' ';' < "$work/state-before-stop.txt")"

say "stop, then up again"
compose stop >/dev/null 2>&1
t1=$(date +%s)
compose up -d >"$work/logs/up-again.log" 2>&1 || { cat "$work/logs/up-again.log" >&2; exit 1; }
wait_healthy "restart (stop, up)" "$t1"
state > "$work/state-after-restart.txt"
if ! diff "$work/state-before-stop.txt" "$work/state-after-restart.txt" >&2; then record "FAILED: the replicas' contents changed across stop and start"; exit 1; fi
docker cp "$(container dc):/pki/rca.cert" "$work/rca-after.cert"
[[ $(sha256sum < "$work/rca-after.cert" | cut -c1-16) == "$rca_before" ]] || { record "FAILED: the RCA certificate changed"; exit 1; }
record "  every replica's content and the RCA certificate unchanged after stop and start"
# the checks after a restart or a kill ask for state, not throughput: 4 in flight, so that an AA's validation call to
# an EA just restarted on a loaded machine does not time out (aa-ea-cantreachea at 16 in flight, load average 49)
run fetch-after-restart fetch "${target[@]}" --fleet "$work/fleet.json" --per-station 2 --concurrency 4

say "kill ea-1 (SIGKILL) while more stations register and enrol at ea-0 and ea-2"
ea1_before=$(keys ea-1)
ea0_before=$(keys ea-0)
docker kill "$(container ea-1)" >/dev/null
run register-2 register --operator "https://localhost:$operator_port" --tls-ca "$work/ca.crt" \
  --operator-token-file "$work/operator-token" --stations 50 --fleet "$work/fleet-2.json"
# ASYNC: ea-0 and ea-2 apply the registrations before they are asked to enrol those stations (the client does not retry)
deadline=$(($(date +%s) + 120))
until now=$(converged ea-0 ea-2 operator-0 2>/dev/null) && [[ $now != "$ea0_before" ]]; do
  (($(date +%s) < deadline)) || { record "FAILED: ea-0 and ea-2 did not apply the new registrations"; exit 1; }
  sleep 1
done
run enrol-2 enrol --concurrency 4 --dc "http://localhost:$dc_port" --rca-cert "$work/rca.cert" --aa-url "$aa_urls" \
  --ea-url "http://localhost:${VPKI_PORT_EA_0:-8083},http://localhost:${VPKI_PORT_EA_2:-8283}" --fleet "$work/fleet-2.json"
ea0_now=$(keys ea-0)
t2=$(date +%s)
docker start "$(container ea-1)" >/dev/null
wait_healthy "ea-1 started again after SIGKILL" "$t2"
after=$(converged)
record "  ea-1: $ea1_before before the kill, $(keys ea-1) after catching up (ea-0 had $ea0_now meanwhile); all four replicas: $after"

say "crash ea-2's JVM from the host (SIGKILL to its process): the restart policy must restart it"
restarts=$(docker inspect -f '{{.RestartCount}}' "$(container ea-2)")
kill -KILL "$(docker inspect -f '{{.State.Pid}}' "$(container ea-2)")"
t3=$(date +%s)
until [[ $(docker inspect -f '{{.RestartCount}}' "$(container ea-2)") != "$restarts" ]]; do
  (($(date +%s) < t3 + 60)) || { record "FAILED: ea-2 not restarted by its restart policy"; exit 1; }
  sleep 1
done
wait_healthy "ea-2 restarted by its restart policy after a crash" "$t3"
after_crash=$(converged)
[[ $after_crash == "$after" ]] || { record "FAILED: the replicas' contents changed across ea-2's crash: $after, then $after_crash"; exit 1; }
record "  ea-2 restarted by the restart policy, all four replicas still $after_crash"
run fetch-after-kills fetch "${target[@]}" --fleet "$work/fleet-2.json" --per-station 2 --concurrency 4
state > "$work/state-end.txt"
record "replica contents at the end: $(tr '\n' ';' < "$work/state-end.txt")"
