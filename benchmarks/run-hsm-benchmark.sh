#!/usr/bin/env bash
# Issue #36: ECDSA signing and ECDH through a SoftHSM2 token against software keys, per curve, in one run.
# Makes a token under benchmarks/target/hsm-bench (never the machine-wide SoftHSM2 configuration), records
# the load average before and after, and runs HsmBenchmark with 1 and 2 threads.
# Usage: [VPKI_BENCH_THREADS="1 2"] benchmarks/run-hsm-benchmark.sh [--no-build] [JMH options, default -wi 2 -w 2s -i 3 -r 3s]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--no-build" ]; then shift; else mvn -B -q -pl benchmarks -am package -DskipTests; fi
command -v softhsm2-util >/dev/null || { echo "softhsm2-util missing: apt-get install softhsm2" >&2; exit 1; }
dir="$PWD/benchmarks/target/hsm-bench"
rm -rf "$dir" && mkdir -p "$dir/tokens"
printf 'directories.tokendir = %s/tokens\nobjectstore.backend = file\nlog.level = ERROR\nslots.removable = false\n' "$dir" > "$dir/softhsm2.conf"
export SOFTHSM2_CONF="$dir/softhsm2.conf"
export VPKI_PKCS11_PIN="bench-pin-1234"
out=$(softhsm2-util --init-token --free --label vpki-bench --so-pin bench-so-1234 --pin "$VPKI_PKCS11_PIN")
export VPKI_BENCH_PKCS11_SLOT=$(echo "$out" | sed -n 's/.*reassigned to slot \([0-9]*\).*/\1/p')
export VPKI_BENCH_PKCS11_MODULE="${VPKI_BENCH_PKCS11_MODULE:-/usr/lib/softhsm/libsofthsm2.so}"
echo "commit $(git rev-parse --short HEAD), $(date -u +%FT%TZ), load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
opts=("$@")
[ ${#opts[@]} -gt 0 ] || opts=(-wi 2 -w 2s -i 3 -r 3s)
for t in ${VPKI_BENCH_THREADS:-1 2}; do
  java -jar benchmarks/target/benchmarks.jar HsmBenchmark -t "$t" -f 1 "${opts[@]}"
done
echo "$(date -u +%FT%TZ), load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
