#!/usr/bin/env bash
# bench/big_inputs.sh [GPUPLAN] [ROWS] - how long `gpuplan validate` takes on a ROWS-row
# inventory (with the small workloads of tests/bad/base) and on a ROWS-row workloads file (with
# its small inventory); default 1,000,000 rows (the CSV row limit less the header).  Not a
# test: it prints wall-clock and CPU seconds and peak memory (docs/testing.md, issue #34).
set -euo pipefail
cd "$(dirname "$0")/.."
exe=${1:-build/planner/gpuplan}
rows=${2:-999999}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp tests/bad/base/* "$work/"
awk -v n="$rows" 'BEGIN {
	print "name,count,gpu_type,gpus_per_node,hypervisor,site,cpu_cores,ram_gib,ownership,capex_usd,amortization_years,hourly_usd,base_power_w"
	for (i = 0; i < n; i++) printf "bm%d,1,H100-SXM5-80GB,8,baremetal,dc1,112,1024,owned,,,,\n", i }' >"$work/inv-big.csv"
awk -v n="$rows" 'BEGIN {
	print "name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,gpu_types,modes,sites,needs_nvaie,priority"
	for (i = 0; i < n; i++) printf "w%d,t%d,1,1,,,exclusive,false,4,32,,passthrough,,false,1\n", i, i % 10 }' >"$work/wl-big.csv"
sed 's/^inventory: .*/inventory: inv-big.csv/' "$work/scenario.yaml" >"$work/big-inventory.yaml"
sed 's/^workloads: .*/workloads: wl-big.csv/' "$work/scenario.yaml" >"$work/big-workloads.yaml"
for s in big-inventory big-workloads; do
	/usr/bin/time -f "$s ($rows rows): %e s wall, %U s user + %S s system, %M KB peak" "$exe" validate "$work/$s.yaml" >/dev/null 2>"$work/$s.err" ||
		{ cat "$work/$s.err"; exit 1; }
	tail -1 "$work/$s.err"
done
