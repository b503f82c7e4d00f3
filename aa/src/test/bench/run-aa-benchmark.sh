#!/bin/sh
# AA issuance benchmark (docs/benchmarks.md, "AA issuance"). Run from the repository root:
#   aa/src/test/bench/run-aa-benchmark.sh [-Dbench.aas=1,2,4] [-Dbench.ea-client=JDK] [-Dbench.jfr=true] ...
#   [-Dbench.backends=software,pkcs11]: the same with the EA's and the AA's keys in SoftHSM2 tokens, in the same run (needs
#   Debian's softhsm2; docs/benchmarks.md, "AT issuance with keys in a token")
# (VPKI_BENCH_SCHED=other aa/src/test/bench/run-aa-benchmark.sh ...: without SCHED_BATCH, see below)
# Builds the modules it needs (Maven downloads what a fresh machine lacks), then runs eu.vpki.aa.bench.AaThroughputBenchmark on the aa test class path;
# the AA and EA processes it starts get their modules' runtime class paths. Output: stdout and aa/target/aa-benchmark/*.md (+ AA and EA logs, JFR).
set -eu
cd "$(dirname "$0")/../../../.."
# reactor runs: common comes from the reactor (its target/), nothing is installed into ~/.m2; build-classpath writes each
# module's class path into its own target/
mvn -B -q -pl aa -am test-compile dependency:build-classpath -DincludeScope=test -Dmdep.outputFile=target/bench.classpath
# the AA and EA processes get their modules' runtime class paths, as a deployed AA or EA has them (without the other
# authorities' classes and the Spring Security and springdoc they bring, which the harness JVM needs). test-compile, not
# compile: build-classpath resolves every scope, and only a reactor past test-compile hands out common's test jar (its
# target/test-classes); after compile Maven looks for that jar in the local repository, where a fresh machine has none
mvn -B -q -pl aa -am test-compile dependency:build-classpath -DincludeScope=runtime -Dmdep.outputFile=target/runtime.classpath
CP="aa/target/test-classes:aa/target/classes:$(cat aa/target/bench.classpath)"
AA_CP="$(pwd)/aa/target/classes:$(cat aa/target/runtime.classpath)"
EA_CP="$(pwd)/ea/target/classes:$(cat ea/target/runtime.classpath)"
# keys in SoftHSM2 tokens (-Dbench.backends=software,pkcs11, issue #36): the harness makes the tokens with softhsm2-util
# under aa/target (never the machine-wide SoftHSM2 configuration); the EA and AA processes inherit the variable
SOFTHSM2_CONF="$(pwd)/aa/target/aa-benchmark-softhsm/softhsm2.conf"
export SOFTHSM2_CONF
# every process of the run (this JVM with the load generator and the ceiling, the AA and EA JVMs it starts and their
# redis-servers) runs SCHED_BATCH, as the services are deployed (benchmarks/scheduling.sh); the harness logs each policy
. benchmarks/scheduling.sh
# shellcheck disable=SC2086 # SCHED is a list of words without spaces
exec $SCHED java -Xms1g -Xmx1g -XX:+UseParallelGC -Dbench.out=aa/target/aa-benchmark -Dbench.aa-classpath="$AA_CP" -Dbench.ea-classpath="$EA_CP" "$@" -cp "$CP" eu.vpki.aa.bench.AaThroughputBenchmark
