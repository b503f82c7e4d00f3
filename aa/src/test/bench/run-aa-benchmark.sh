#!/bin/sh
# AA issuance benchmark (docs/benchmarks.md, "AA issuance"). Run from the repository root:
#   aa/src/test/bench/run-aa-benchmark.sh [-Dbench.aas=1,2,4] [-Dbench.ea-client=APACHE] [-Dbench.jfr=true] ...
# Builds the modules it needs (Maven downloads what a fresh machine lacks), then runs eu.vpki.aa.bench.AaThroughputBenchmark on the aa test class path;
# the AA processes it starts get the AA's runtime class path. Output: stdout and aa/target/aa-benchmark/*.md (+ AA logs, JFR).
set -eu
cd "$(dirname "$0")/../../../.."
# reactor runs: common comes from the reactor (its target/), nothing is installed into ~/.m2
mvn -B -q -pl aa -am test-compile dependency:build-classpath -DincludeScope=test -Dmdep.outputFile=target/bench.classpath
# the AA processes get the AA's runtime class path, as a deployed AA has it (without the other authorities' classes and
# the Spring Security and springdoc they bring, which the harness JVM needs). test-compile, not compile: build-classpath
# resolves every scope, and only a reactor past test-compile hands out common's test jar (its target/test-classes);
# after compile Maven looks for that jar in the local repository, where a fresh machine has none
mvn -B -q -pl aa -am test-compile dependency:build-classpath -DincludeScope=runtime -Dmdep.outputFile=target/runtime.classpath
CP="aa/target/test-classes:aa/target/classes:$(cat aa/target/bench.classpath)"
AA_CP="$(pwd)/aa/target/classes:$(cat aa/target/runtime.classpath)"
exec java -Xms1g -Xmx1g -XX:+UseParallelGC -Dbench.out=aa/target/aa-benchmark -Dbench.aa-classpath="$AA_CP" "$@" -cp "$CP" eu.vpki.aa.bench.AaThroughputBenchmark
