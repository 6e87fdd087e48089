#!/bin/bash
# test_check_baselines.sh - the project gates itself: every bundled scenario
# is planned with `gpuplan check` against its baseline in reports/baseline/
# (the pairs come from reports/baseline/regenerate.sh --list) and must pass
# with the default thresholds and show no change at all; every baseline
# belongs to a bundled scenario.
#
# usage: bash test_check_baselines.sh GPUPLAN_EXE SRC_DIR WORK_DIR
# A failure names the scenario and shows check's table.  When a change to
# the planner or the data moves a figure on purpose, regenerate the
# baselines (reports/baseline/regenerate.sh build/planner/gpuplan), review
# `git diff reports/baseline/` and commit them with the change.
. "$(dirname "$0")/lib.sh"

pairs=$("$src/reports/baseline/regenerate.sh" --list) || { bad "regenerate.sh --list failed"; finish; }
while read -r scenario baseline; do
	n=$(basename "$baseline" .json)
	if [ ! -f "$src/$baseline" ]; then
		bad "$baseline missing for $scenario: run reports/baseline/regenerate.sh"
		continue
	fi
	# from the top of the tree with relative paths, as the baselines were written
	(cd "$src" && LC_ALL=C "$exe" check "$scenario" --baseline "$baseline" --format json) >"$n.json" 2>"$n.err"
	rc=$?
	if [ "$rc" -eq 0 ] && grep -q '"changed":	false' "$n.json"; then
		ok
	else
		if [ "$rc" -eq 0 ]; then
			bad "$scenario differs from $baseline (stale baseline? see the header of this script)"
		else
			bad "check $scenario exited $rc: $(cat "$n.err")"
		fi
		(cd "$src" && LC_ALL=C "$exe" check "$scenario" --baseline "$baseline")
	fi
done <<<"$pairs"
# no orphan baselines
for f in "$src"/reports/baseline/*.json; do
	rel=reports/baseline/$(basename "$f")
	if grep -q " $rel\$" <<<"$pairs"; then ok; else bad "$rel has no bundled scenario"; fi
done
finish
