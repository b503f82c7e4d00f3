#!/bin/sh
# EA enrolment benchmark, 3 replicas (docs/benchmarks.md, "EA enrolment (replicated)"). Run from anywhere:
#   ea/src/test/bench/run-ea-benchmark.sh [-Dbench.curve=brainpoolP256r1] [-Dbench.modes=FIFO+ASYNC] ... [requests [clients]]
# Options starting with -D go to the benchmark's JVM, the rest to eu.vpki.ea.bench.EnrolmentBenchmark
# (requests per mode and pass, default 30000; client threads, default 4). Builds what it needs in one
# reactor run (Maven downloads what a fresh machine lacks; nothing is installed into ~/.m2).
# Output: stdout (each mode's rate and latency beside the crypto-only ceiling measured in the same JVM).
set -eu
cd "$(dirname "$0")/../../../.."
mvn -B -q -pl ea -am test-compile dependency:build-classpath -DincludeScope=test -Dmdep.outputFile=target/bench.classpath
CP="ea/target/test-classes:ea/target/classes:$(cat ea/target/bench.classpath)"
JVM=""
ARGS=""
for a in "$@"; do
  case "$a" in
    -D*) JVM="$JVM $a" ;;
    *) ARGS="$ARGS $a" ;;
  esac
done
# the parallel collector and SCHED_BATCH (benchmarks/scheduling.sh; the replicas in this JVM and their redis-servers
# inherit it), as the services are deployed
. benchmarks/scheduling.sh
# shellcheck disable=SC2086 # SCHED, JVM and ARGS are lists of words without spaces
exec $SCHED java -XX:+UseParallelGC $JVM -cp "$CP" eu.vpki.ea.bench.EnrolmentBenchmark $ARGS
