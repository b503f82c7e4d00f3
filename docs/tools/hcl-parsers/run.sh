#!/usr/bin/env bash
# Measures maintained Java HCL2 parsers on our Terraform: which files each parses, and what it keeps of
# the references the checks need. Not part of the build (docs/deployment.md, "Reading the HCL").
#   docs/tools/hcl-parsers/run.sh            (needs Java 17+ and Maven; fetches the two parsers)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cp="$(mktemp)"
trap 'rm -f "$cp"' EXIT
mvn -B -q -f "$here/pom.xml" dependency:build-classpath -Dmdep.outputFile="$cp"
java -cp "$(cat "$cp")" "$here/HclParsersProbe.java" "$here/../../../terraform" 2>&1 | grep -v '^SLF4J'
