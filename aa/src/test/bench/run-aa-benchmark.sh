#!/bin/sh
# AA issuance benchmark (docs/benchmarks.md, "AA issuance"). Run from the repository root:
#   aa/src/test/bench/run-aa-benchmark.sh [-Dbench.aas=1,2,4] [-Dbench.ea-client=APACHE] [-Dbench.jfr=true] ...
# Builds the modules it needs (Maven downloads what a fresh machine lacks), then runs eu.vpki.aa.bench.AaThroughputBenchmark on the aa test class path;
# the AA processes it starts use the same class path. Output: stdout and aa/target/aa-benchmark/*.md (+ AA logs, JFR).
set -eu
cd "$(dirname "$0")/../../../.."
# one reactor run: common comes from the reactor (its target/), nothing is installed into ~/.m2
mvn -B -q -pl aa -am test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.classpath
CP="aa/target/test-classes:aa/target/classes:$(cat aa/target/bench.classpath)"
exec java -Xms1g -Xmx1g -XX:+UseParallelGC -Dbench.out=aa/target/aa-benchmark "$@" -cp "$CP" eu.vpki.aa.bench.AaThroughputBenchmark
