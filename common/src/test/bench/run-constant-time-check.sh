#!/bin/sh
# dudect-style timing check of the operations on secret scalars (docs/design-brainpool-arithmetic.md,
# "Constant time"). Run from anywhere, on a quiet machine:
#   common/src/test/bench/run-constant-time-check.sh [measurements per operation, default 40000]
# Builds common (no tests), then runs eu.vpki.common.etsi.crypto.ConstantTimeCheck on common's test class path.
set -eu
cd "$(dirname "$0")/../../../.."
mvn -B -q -pl common -am install -DskipTests
mvn -B -q -pl common dependency:build-classpath -DincludeScope=test -Dmdep.outputFile=target/check.classpath
CP="common/target/test-classes:common/target/classes:$(cat common/target/check.classpath)"
exec java -Xms512m -Xmx512m -cp "$CP" eu.vpki.common.etsi.crypto.ConstantTimeCheck "$@"
