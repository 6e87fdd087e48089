#!/usr/bin/env bash
# make-pictures.sh - redraws docs/report-plan.png, the GPU layouts of
# report.html that README.md and docs/report-html.md show, from the bundled
# example as the current gpuplan plans it.
#
# usage: docs/make-pictures.sh [GPUPLAN]   (default build/planner/gpuplan)
# Needs Debian's chromium (installed by `.ci/setup --tests`).  It plans
# data/example/scenario.yaml with --format html into a temporary folder,
# hides every section of the page but "GPU layouts" (a style added to a copy;
# the page's own drawing is untouched) and takes a 1280x1350 screenshot
# headless, offline, with a fresh profile.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
exe=${1:-$top/build/planner/gpuplan}
browser=$(command -v chromium || true)
[ -n "$browser" ] || { echo "make-pictures.sh: chromium not found (apt-get install chromium)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
LC_ALL=C "$exe" plan "$top/data/example/scenario.yaml" -o "$tmp/plan" --format html >/dev/null
sed 's|</head>|<style>body > h1, body > section:not(#layouts) { display: none; }</style></head>|' \
	"$tmp/plan/report.html" >"$tmp/layouts.html"
grep -q 'section:not(#layouts)' "$tmp/layouts.html" || { echo "make-pictures.sh: report.html has no </head>" >&2; exit 1; }
timeout 120 "$browser" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
	--disable-component-update --disable-sync --disable-dev-shm-usage --hide-scrollbars \
	--user-data-dir="$tmp/profile" --window-size=1280,1350 --screenshot="$tmp/report-plan.png" \
	"file://$tmp/layouts.html" >/dev/null 2>&1
mv "$tmp/report-plan.png" "$top/docs/report-plan.png"
echo "wrote docs/report-plan.png"
