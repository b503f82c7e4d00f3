#!/bin/sh
# Our ECDSA and ECIES beside `openssl speed` for the same curves, in one run (docs/benchmarks.md,
# "Brainpool against OpenSSL"). Run from anywhere, on a quiet machine:
#   benchmarks/run-crypto-vs-openssl.sh [--quick] [--out report.md]
# Builds benchmarks/target/benchmarks.jar (Maven, no tests), then runs eu.vpki.benchmarks.OpenSslComparison:
# openssl speed, the JMH benchmarks (1 thread), openssl speed again, and a table with ratios and targets.
# VPKI_CRYPTO_BRAINPOOL=off / VPKI_CRYPTO_NATIVE=off in the environment measure the BouncyCastle fallback instead.
set -eu
cd "$(dirname "$0")/.."
mvn -B -q -pl benchmarks -am package -DskipTests
exec java -cp benchmarks/target/benchmarks.jar eu.vpki.benchmarks.OpenSslComparison "$@"
