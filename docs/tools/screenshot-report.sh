#!/usr/bin/env bash
# Renders a load report (station module) as HTML in a real browser (headless Chromium) and saves a PNG screenshot.
#   docs/tools/screenshot-report.sh run/reports/demo.html docs/img/report-demo.png [1600,2900]
# Needs Debian's chromium (apt-get install -y chromium). The profile is a fresh empty directory, deleted
# afterwards; the flags keep the browser off the network (the report has no script and loads nothing).
set -euo pipefail
html=$(realpath "$1")
png=$(realpath -m "$2")
size=${3:-1600,2900}
browser=$(command -v chromium || command -v chromium-browser || true)
if [[ -z "$browser" ]]; then
  echo "no chromium on PATH (apt-get install -y chromium)" >&2
  exit 3
fi
profile=$(mktemp -d "${TMPDIR:-/tmp}/vpki-chromium-XXXXXX")
trap 'rm -rf "$profile"' EXIT
mkdir -p "$(dirname "$png")"
"$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
  --disable-component-update --disable-sync --hide-scrollbars --user-data-dir="$profile" \
  --window-size="$size" --screenshot="$png" "file://$html" >"$profile/chromium.log" 2>&1 || {
  cat "$profile/chromium.log" >&2
  exit 1
}
[[ -s "$png" ]] || { echo "chromium wrote no screenshot" >&2; cat "$profile/chromium.log" >&2; exit 1; }
echo "$png"
