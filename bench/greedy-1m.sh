#!/usr/bin/env bash
# bench/greedy-1m.sh [-b BASELINE] [GPUPLAN] - the greedy planner at one million replicas, and
# the overrun of --time-limit.  Not a test: it prints wall-clock seconds and peak RSS
# (/usr/bin/time) per run; docs/benchmarks.md "Greedy at one million replicas" (issue #30).
#
# The instance is bench XL (seed 1) with every inventory count and every workload's replicas
# times 10: 64 node classes, 400 workloads, 1,000,000 replicas, 200,000 GPUs.  With -b the same
# runs are made with BASELINE first (e.g. main's build), in the same run of the script.
# OPENB=DIR (the Alibaba openb trace: openb_node_list_gpu_node.csv, openb_pod_list_default.csv)
# adds the openb import to the --time-limit runs; LIMIT (default 10) is that limit in seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
base=
if [ "${1:-}" = -b ]; then base=$2; shift 2; fi
exe=${1:-build/planner/gpuplan}
limit=${LIMIT:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$exe" bench gen --size XL -o "$work/xl" >/dev/null
"$exe" bench gen --size L -o "$work/L" >/dev/null
mkdir "$work/x1m"
sed 's/^name: .*/name: bench-XL-s1-x10/' "$work/xl/scenario.yaml" >"$work/x1m/scenario.yaml"
awk -F, 'BEGIN { OFS = "," } /^#/ || /^name,/ { print; next } { $2 *= 10; print }' \
	"$work/xl/inventory.csv" >"$work/x1m/inventory.csv"
awk -F, 'BEGIN { OFS = "," } /^#/ || /^name,/ { print; next } { $3 *= 10; print }' \
	"$work/xl/workloads.csv" >"$work/x1m/workloads.csv"
sizes="L xl"
if [ -n "${OPENB:-}" ]; then
	"$exe" import openb "$OPENB/openb_node_list_gpu_node.csv" "$OPENB/openb_pod_list_default.csv" \
		-o "$work/openb" >/dev/null
	sizes="$sizes openb"
fi
run() {	# LABEL EXE ARGS...: one line, wall seconds and peak RSS
	local label=$1 x=$2
	shift 2
	/usr/bin/time -f "$label: %e s wall, %U s CPU, %M KB peak" "$x" "$@" >"$work/out.txt" 2>"$work/err.txt" ||
		{ cat "$work/err.txt"; exit 1; }
	tail -1 "$work/err.txt"
}
for x in $base $exe; do
	run "$x plan --greedy, 1,000,000 replicas" "$x" plan "$work/x1m/scenario.yaml" --greedy -o "$work/o"
	for s in $sizes; do
		run "$x plan $s --time-limit $limit" "$x" plan "$work/$s/scenario.yaml" --time-limit "$limit" -o "$work/o"
	done
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
