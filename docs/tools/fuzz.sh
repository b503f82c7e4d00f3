#!/usr/bin/env bash
# The long fuzzing run (docs/security.md, "Fuzzing"): every Jazzer target in fuzzing mode for its
# number of inputs, one Maven run per target (Jazzer fuzzes one target per JVM).
#
#   docs/tools/fuzz.sh [--scale F] [--only REGEX] [--results FILE]
#
#   --scale F      multiply every input count by F (e.g. 0.01 for a smoke run); default 1
#   --only REGEX   run only the targets whose "module class#method" matches
#   --results FILE where to append one line per target (default target/fuzz-results.tsv; each target's
#                  console, with libFuzzer's progress, in target/fuzz-<class>-<method>.log):
#                  date, module, target, inputs asked, inputs run, seconds, outcome (ok | finding | error)
#
# A finding fails that target's run: Jazzer writes the input into the target's corpus directory
# (src/test/resources/<package>/<Class>Inputs/<method>/crash-*), where mvn verify replays it from then
# on; the script goes on with the next target. Exit status: 0 when every target ended without finding.
# Needs Java 17 and Maven; run it from a clone (on a shared machine under its CPU lock).
set -u
cd "$(dirname "$0")/../.."

scale=1
only=.
results=target/fuzz-results.tsv
while [ $# -gt 0 ]; do
  case "$1" in
    --scale) scale="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --results) results="$2"; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done

# module  class  method  inputs (12.9 million in total)
TARGETS="
common EtsiDecodingFuzzTest anyType 2500000
common EtsiDecodingFuzzTest certificate 1000000
common EtsiDecodingFuzzTest signedData 1000000
common EtsiDecodingFuzzTest encryptedData 600000
common EtsiDecodingFuzzTest enrolmentRequest 800000
common EtsiDecodingFuzzTest authorizationRequest 800000
common EtsiDecodingFuzzTest validationRequest 500000
common EtsiDecodingFuzzTest caCertificateRequest 500000
common EtsiDecodingFuzzTest ctl 500000
common EtsiDecodingFuzzTest ctlContent 200000
common EtsiDecodingFuzzTest crl 500000
common EtsiDecodingFuzzTest crlContent 200000
common EtsiDecodingFuzzTest validationResponse 400000
ea EaEntryFuzzTest enrolmentBody 200000
ea EaEntryFuzzTest enrolmentPlaintext 100000
ea EaEntryFuzzTest validationBody 200000
ea EaEntryFuzzTest validationPlaintext 100000
aa AuthorizationFuzzTest authorizationBody 200000
aa AuthorizationFuzzTest authorizationPlaintext 100000
dc TrustListIngestFuzzTest ingest 500000
common CommandCodecFuzzTest message 1500000
common CommandCodecFuzzTest origin 500000
"

mkdir -p target "$(dirname "$results")" # each target's console goes to target/fuzz-<class>-<method>.log
mvn -B -q -o -pl common,ea,aa,dc -am test-compile || exit 1
status=0
while read -r module class method inputs; do
  [ -z "$module" ] && continue
  echo "$module $class#$method" | grep -Eq -- "$only" || continue
  n=$(awk -v n="$inputs" -v s="$scale" 'BEGIN { printf "%d", n * s }')
  start=$(date +%s)
  mvn -B -q -o -Pfuzz -pl "$module" -am test -Dtest="$class#$method" -Djazzer.max_executions="$n" \
      -Dsurefire.failIfNoSpecifiedTests=false > "target/fuzz-$class-$method.log" 2>&1
  rc=$?
  seconds=$(( $(date +%s) - start ))
  # libFuzzer reports on the console, i.e. into the target's log: "Done <runs> runs in <s> second(s)"
  runs=$(grep -aEo 'Done [0-9]+ runs' "target/fuzz-$class-$method.log" | tail -1 | grep -Eo '[0-9]+')
  if [ $rc -eq 0 ]; then
    outcome=ok
  elif grep -aq "FuzzTestFinding\|== Java Exception" "target/fuzz-$class-$method.log"; then
    outcome=finding; status=1
  else
    outcome=error; status=1
  fi
  printf '%s\t%s\t%s#%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$module" "$class" "$method" "$n" "${runs:-0}" "$seconds" "$outcome" \
    | tee -a "$results"
done <<< "$TARGETS"
exit $status
