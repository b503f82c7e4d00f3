#!/bin/sh
# The long run of CrossCheckTest (docs/design-brainpool-arithmetic.md, "Correctness"): random keys,
# signatures both ways, changed digests and ECDH values of every curve against BouncyCastle.
# `mvn verify` runs 150 rounds per curve (750 checks); this runs 20,000 rounds per curve by default:
# 100,000 checks per curve, 300,000 in all. Not a measurement: a busy machine only makes it slower.
# Run from anywhere:
#   common/src/test/bench/run-cross-check.sh [rounds per curve, default 20000]
# A failure names the round and its seed; every round is reproducible from its seed.
set -eu
cd "$(dirname "$0")/../../../.."
ROUNDS=${1:-20000}
mvn -B -q -pl common -am test -Dtest=CrossCheckTest -Dsurefire.failIfNoSpecifiedTests=false \
    -Dvpki.crypto.crosscheck.rounds="$ROUNDS"
grep -h '^CrossCheckTest:' common/target/surefire-reports/eu.vpki.common.etsi.crypto.CrossCheckTest-output.txt
