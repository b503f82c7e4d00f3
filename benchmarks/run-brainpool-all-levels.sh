#!/bin/sh
# Every brainpool figure of docs/benchmarks.md ("Brainpool at every level"), each beside the ceiling
# measured in the same run, in one run on one machine:
#   1. JMH (EcdsaBenchmark, EncryptionBenchmark, one thread) between two `openssl speed -seconds 3
#      ecdsabrp256r1 ecdsabrp384r1 ecdhbrp256r1 ecdhbrp384r1 ecdsap256 ecdhp256` runs, with ratios
#      and the targets of issue #20 (OpenSslComparison);
#   1b. where a C compiler and OpenSSL's headers exist: what a libcrypto binding would do per operation,
#      in C (benchmarks/openssl-binding-floor.c: key import of a first-seen key included);
#   2. EA enrolment, 3 replicas, brainpoolP256r1 authorities and stations (EnrolmentBenchmark; its
#      crypto-only ceiling in the same JVM);
#   3. AA issuance, 1 AA + 1 EA, brainpoolP256r1 authorities and stations (AaThroughputBenchmark; its
#      crypto-only ceiling before and after);
#   4. `vpki demo` with brainpoolP256r1 authorities and stations, then the same demo on nistP256 as
#      the same-run reference (every EC and AT verified by the load client).
# Run from anywhere, on a quiet machine (on the shared VM: inside /work/locks/quiet):
#   benchmarks/run-brainpool-all-levels.sh [--build-only | --no-build] [--quick] [--out DIR]
# --build-only builds the jars and class paths and records the services' AppCDS archives (a cluster
# starts and stops), which is heavy but measures nothing; --no-build measures only (about 25 minutes
# on the project's 2-core VM); --quick runs every step briefly (about 8 minutes: to try the script,
# its figures mean nothing). Ports: the demos' cluster on VPKI_BENCH_BASE_PORT (default 18080) and
# VPKI_BENCH_JGROUPS_BASE_PORT (default 17800); the harnesses take free ephemeral ports.
# Output: DIR (default run/brainpool-<UTC time>): one file per step and summary.md.
set -eu
cd "$(dirname "$0")/.."
BUILD=yes
MEASURE=yes
QUICK=no
OUT="run/brainpool-$(date -u +%Y%m%dT%H%M%SZ)"
while [ $# -gt 0 ]; do
  case "$1" in
    --build-only) MEASURE=no ;;
    --no-build) BUILD=no ;;
    --quick) QUICK=yes ;;
    --out) OUT="$2"; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
BASE_PORT=${VPKI_BENCH_BASE_PORT:-18080}
JGROUPS_BASE_PORT=${VPKI_BENCH_JGROUPS_BASE_PORT:-17800}
CLIENT=$(ls -t cli/target/vpki-cli-*.jar 2>/dev/null | head -n 1)
if [ "$QUICK" = yes ]; then
  JMH_ARGS="--quick"; FLOOR_SECONDS=0.5; EA_REQUESTS=1500; EA_WARMUP=5; AA_LEVELS=8; AA_WARMUP=PT20S; AA_MEASURE=PT5S; STATIONS=40
else
  JMH_ARGS=""; FLOOR_SECONDS=3; EA_REQUESTS=6000; EA_WARMUP=30; AA_LEVELS=4,8,16,8; AA_WARMUP=PT60S; AA_MEASURE=PT15S; STATIONS=300
fi

if [ "$BUILD" = yes ]; then
  # one reactor: the JMH jar, the services' jars, the aa and ea test class paths; nothing installed into ~/.m2
  mvn -B -q -DskipTests -pl benchmarks,rca,dc,ea,operator,aa,admin,station,testbed,faults,experiments,cli -am package dependency:build-classpath \
      -DincludeScope=test -Dmdep.outputFile=target/bench.classpath
  CLIENT=$(ls -t cli/target/vpki-cli-*.jar | head -n 1)
  # optional: the floor of a libcrypto binding (docs/design-brainpool-arithmetic.md), where a C compiler and OpenSSL's headers exist
  cc -O2 -o benchmarks/target/openssl-binding-floor benchmarks/openssl-binding-floor.c -lcrypto 2>/dev/null \
      || echo "no C compiler or OpenSSL headers: the libcrypto binding floor will not be measured" >&2
  java -jar "$CLIENT" cluster prepare --authority-curve brainpoolP256r1 --base-port "$BASE_PORT" --jgroups-base-port "$JGROUPS_BASE_PORT"
fi
[ "$MEASURE" = yes ] || exit 0

# a `vpki faults` run on this machine keeps a whole cluster busy: wait for it (at most 20 minutes)
waited=0
while pgrep -f 'vpki-cli.*\.jar faults' > /dev/null && [ $waited -lt 1200 ]; do
  [ $waited -eq 0 ] && echo "waiting for the vpki faults run(s) on this machine to end" >&2
  sleep 15; waited=$((waited + 15))
done
mkdir -p "$OUT"
SUMMARY="$OUT/summary.md"
step() {
  echo "- $(date -u +%H:%M:%S) UTC, load average $(cut -d' ' -f1-3 /proc/loadavg): $1" | tee -a "$SUMMARY"
}
failed() {
  step "FAILED (exit code $1): $2; the later steps still run"
}
echo "# Brainpool at every level, one run ($(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, $(git rev-parse --short HEAD))" > "$SUMMARY"
echo >> "$SUMMARY"
[ $waited -gt 0 ] && step "waited $waited s for vpki faults runs to end$(pgrep -f 'vpki-cli.*\.jar faults' > /dev/null && echo ' (one still runs: these figures are not from a quiet machine)')"

step "JMH against openssl speed"
java -cp benchmarks/target/benchmarks.jar eu.vpki.benchmarks.OpenSslComparison $JMH_ARGS --out "$OUT/crypto-vs-openssl.md" > "$OUT/crypto-vs-openssl.log" 2>&1 \
    || failed $? "see $OUT/crypto-vs-openssl.log"

if [ -x benchmarks/target/openssl-binding-floor ]; then
  step "libcrypto binding floor (benchmarks/openssl-binding-floor.c)"
  benchmarks/target/openssl-binding-floor "$FLOOR_SECONDS" > "$OUT/openssl-binding-floor.txt" 2>&1 || failed $? "see $OUT/openssl-binding-floor.txt"
fi

# the EA and AA benchmarks under SCHED_BATCH, as their own scripts and deploy/systemd run the services
. benchmarks/scheduling.sh
step "EA enrolment, brainpoolP256r1 (EnrolmentBenchmark $EA_REQUESTS 4; scheduling ${SCHED:-default})"
# shellcheck disable=SC2086 # SCHED is a list of words without spaces
$SCHED java -XX:+UseParallelGC -Dbench.curve=brainpoolP256r1 -Dbench.warmup-passes=1 -Dbench.warmup-seconds="$EA_WARMUP" \
    -cp "ea/target/test-classes:ea/target/classes:$(cat ea/target/bench.classpath)" \
    eu.vpki.ea.bench.EnrolmentBenchmark "$EA_REQUESTS" 4 > "$OUT/ea-enrolment.txt" 2>&1 || failed $? "see $OUT/ea-enrolment.txt"

step "AA issuance, brainpoolP256r1, 1 AA + 1 EA (scheduling ${SCHED:-default})"
# shellcheck disable=SC2086
$SCHED java -Xms1g -Xmx1g -XX:+UseParallelGC -Dbench.out="$OUT/aa" -Dbench.curve=brainpoolP256r1 -Dbench.aas=1 \
    -Dbench.concurrency="$AA_LEVELS" -Dbench.warmup="$AA_WARMUP" -Dbench.measure="$AA_MEASURE" \
    -cp "aa/target/test-classes:aa/target/classes:$(cat aa/target/bench.classpath)" \
    eu.vpki.aa.bench.AaThroughputBenchmark > "$OUT/aa-issuance.txt" 2>&1 || failed $? "see $OUT/aa-issuance.txt"

for curve in brainpoolP256r1 nistP256; do
  step "vpki demo, $curve authorities and stations, $STATIONS stations"
  java -jar "$CLIENT" demo --authority-curve "$curve" --curve "$curve" --stations "$STATIONS" \
      --base-port "$BASE_PORT" --jgroups-base-port "$JGROUPS_BASE_PORT" --report-dir "$OUT/demo-$curve" > "$OUT/demo-$curve.txt" 2>&1 \
      || failed $? "see $OUT/demo-$curve.txt"
  cp -r run/cluster/logs "$OUT/demo-$curve/logs" 2>/dev/null || true # the services' logs: which crypto backend each ran
done
step "done"

{
  echo
  cat "$OUT/crypto-vs-openssl.md" 2>/dev/null || true
  echo
  if [ -f "$OUT/openssl-binding-floor.txt" ]; then
    echo "## libcrypto binding floor"
    echo '```'
    cat "$OUT/openssl-binding-floor.txt"
    echo '```'
  fi
  echo "## EA enrolment (brainpoolP256r1)"
  echo '```'
  grep -E 'EC/s|ceiling|crypto:' "$OUT/ea-enrolment.txt" || true
  echo '```'
  echo "## AA issuance (brainpoolP256r1)"
  echo '```'
  grep -E 'AT/s|crypto|load average|^\|' "$OUT/aa-issuance.txt" || true
  echo '```'
  for curve in brainpoolP256r1 nistP256; do
    echo "## demo ($curve)"
    echo '```'
    cat "$OUT/demo-$curve"/*.txt 2>/dev/null || tail -20 "$OUT/demo-$curve.txt"
    echo "crypto backends logged by the services:"
    grep -h 'crypto: ' "$OUT/demo-$curve"/logs/*.log 2>/dev/null | sed 's/^.* - //; s/^.*  *: crypto:/crypto:/' | sort | uniq -c || true
    echo '```'
  done
} >> "$SUMMARY"
cat "$SUMMARY"
