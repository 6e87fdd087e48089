#!/bin/sh
# regenerate.sh - rewrite the baselines reports/baseline/*.json from the
# bundled scenarios: data/example/scenario.yaml -> example.json and
# data/scenarios/NAME.yaml -> NAME.json.
#
# usage: reports/baseline/regenerate.sh [GPUPLAN]    (default: build/planner/gpuplan)
#        reports/baseline/regenerate.sh --list       (print "SCENARIO BASELINE" pairs)
#
# Runs `gpuplan plan SCENARIO --format json` from the top of the source
# tree with relative paths (so no absolute path lands in a baseline) and
# LC_ALL=C, and moves each plan.json into place only when every scenario
# planned.  Review the change with `git diff reports/baseline/` (or
# `gpuplan diff OLD.json NEW.json`) before committing it.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

pairs() {
	echo "data/example/scenario.yaml reports/baseline/example.json"
	for s in data/scenarios/*.yaml; do
		[ -e "$s" ] || continue
		n=$(basename "$s" .yaml)
		echo "$s reports/baseline/$n.json"
	done
}

if [ "${1:-}" = "--list" ]; then
	pairs
	exit 0
fi
exe=${1:-build/planner/gpuplan}
case $exe in /*) ;; *) exe=$root/$exe ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pairs | while read -r scenario baseline; do
	n=$(basename "$baseline" .json)
	if ! LC_ALL=C "$exe" plan "$scenario" --format json -o "$tmp/$n" >"$tmp/$n.log" 2>&1; then
		echo "regenerate.sh: gpuplan plan $scenario failed:" >&2
		cat "$tmp/$n.log" >&2
		exit 1
	fi
done
pairs | while read -r scenario baseline; do
	n=$(basename "$baseline" .json)
	mv "$tmp/$n/plan.json" "$baseline"
	echo "$baseline <- $scenario"
done
