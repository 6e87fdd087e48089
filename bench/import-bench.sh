#!/usr/bin/env bash
# Speed of `gpuplan import kubectl`: 5,000 nodes and 50,000 pods (bench/gen_kubectl.py:
# a third each passthrough H100, MIG-mixed H100 and time-sliced T4 nodes; Deployments of
# 10 replicas).  Prints the wall and CPU times and the peak memory; not a timed test
# (the target is under 5 s of CPU time).
#
#   bench/import-bench.sh [GPUPLAN]      (default: build/planner/gpuplan)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
gpuplan=${1:-$here/build/planner/gpuplan}
dir=$(mktemp -d /tmp/import-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT

python3 "$here/bench/gen_kubectl.py" --nodes 5000 --pods 50000 "$dir"
ls -l "$dir"/nodes.json "$dir"/pods.json | awk '{printf "%s %d MB\n", $NF, $5 / 1e6}'
/usr/bin/time -f "import kubectl: %e s wall, %U s user, %S s system, %M KB peak" \
	"$gpuplan" import kubectl "$dir/nodes.json" "$dir/pods.json" -o "$dir/out"
