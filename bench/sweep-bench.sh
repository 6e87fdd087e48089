#!/usr/bin/env bash
# Speed of `gpuplan sweep run`: a 64-case Monte Carlo sweep of bench M
# (1,000 GPUs, 5,000 replicas; greedy plans, the sweep's default) on 1 and
# on 2 worker processes.  Prints the wall times; not a timed test.  The
# Slurm overhead per case is what tests/scripts/test_sweep_slurm.sh prints
# ("submit to done" of 16 cases in 8 array tasks).
#
#   bench/sweep-bench.sh [GPUPLAN]      (default: build/planner/gpuplan)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
gpuplan=${1:-$here/build/planner/gpuplan}
dir=$(mktemp -d /tmp/sweep-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT

"$gpuplan" bench gen --size M -o "$dir/m" >/dev/null
cat >"$dir/sweep.yaml" <<'YAML'
schema: gpuplan-sweep/1
name: bench-m-64
options: [m/scenario.yaml]
design: monte-carlo
samples: 64
seed: 1
parameters:
  demand_scale: {distribution: uniform, min: 0.8, max: 1.2}
  cloud_price_scale: {distribution: triangular, min: 0.7, mode: 0.9, max: 1.1}
  license_price_scale: {distribution: lognormal, mu: 0, sigma: 0.2}
YAML
for j in 1 2; do
	t0=$(date +%s.%N)
	"$gpuplan" sweep run "$dir/sweep.yaml" -o "$dir/out$j" -j $j >/dev/null
	t1=$(date +%s.%N)
	"$gpuplan" sweep merge "$dir/sweep.yaml" -o "$dir/out$j" >/dev/null
	awk -v a="$t0" -v b="$t1" -v j=$j 'BEGIN { printf "sweep run -j %d: 64 cases of bench M in %.2f s (%.3f s a case)\n", j, b - a, (b - a) / 64 }'
done
cmp -s "$dir/out1/sweep.json" "$dir/out2/sweep.json" && echo "merged reports of -j 1 and -j 2: identical"
