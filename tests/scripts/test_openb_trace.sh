#!/bin/bash
# test_openb_trace.sh - every openb_pod_list_*.csv of the Alibaba GPU trace
# imports and plans (issue 61): `import openb` with the node list, then
# `plan --greedy` of the scenario it writes, which must verify and place
# replicas.  The trace is read where the shared copy sits
# (../shared/traces/alibaba-openb/ beside the worktree, or $GPUPLAN_OPENB_TRACE);
# it is never copied into the project.  Without it the script prints SKIP and
# exits 77, which ctest reports as skipped.  The greedy plan keeps the test
# cheap; the ILP over the trace is bench/run.sh --openb's business.
#
# usage: bash test_openb_trace.sh GPUPLAN_EXE SRC_DIR WORK_DIR
. "$(dirname "$0")/lib.sh"

trace=${GPUPLAN_OPENB_TRACE:-$src/../shared/traces/alibaba-openb}
nodes=$trace/openb_node_list_gpu_node.csv
if [ ! -f "$nodes" ]; then
	echo "SKIP: no Alibaba openb trace at $trace"
	exit 77
fi
n=0
for pods in "$trace"/openb_pod_list_*.csv; do
	[ -f "$pods" ] || continue
	n=$((n + 1))
	name=$(basename "$pods" .csv)
	if ! "$exe" import openb "$nodes" "$pods" -o "$name" >"$name.import" 2>&1; then
		bad "import openb $name: $(tail -n 3 "$name.import")"
		continue
	fi
	ok
	if ! "$exe" plan "$name/scenario.yaml" --greedy --quiet -o "$name/plan" >"$name.plan" 2>&1; then
		bad "plan $name (greedy) exited non-zero: $(tail -n 3 "$name.plan")"
		continue
	fi
	placed=$(sed -n 's/^replicas_placed,//p' "$name/plan/summary.csv")
	if [ -n "$placed" ] && [ "$placed" -gt 0 ]; then ok; else bad "plan $name placed '${placed:-?}' replicas"; fi
done
[ "$n" -gt 0 ] && ok || bad "no openb_pod_list_*.csv in $trace"
finish
