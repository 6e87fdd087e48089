#!/usr/bin/env bash
# The deploy files through NVIDIA's and Kubernetes' own code (issue #60):
# ../shared/conformance/check-deploy.sh (NVIDIA's real mig-parted and device-plugin binaries and
# their config code, Kubernetes' label validation and OpenAPI schemas; its README says what each
# check proves) on the deploy output of every bundled scenario, the example's greedy plan and
# every golden case that writes deploy files. Each runs under the ClusterPolicy mig.strategy that
# docs/deploy.md tells users to use: unset (the default: each node's config governs), and the
# scenario's sharing.operator_mig_strategy as well when it says the cluster keeps one. The node
# file given is the plan's REPORTS/nodes.csv, as the conformance README documents: one row per
# Kubernetes node, which on vSphere and KVM are worker VMs (hosts.csv lists the hosts).
# Then, on each output and on the bench L plan (greedy), tests/scripts/deploy_replicas.py: per
# workload, pod requests plus VM workloads = replicas placed; no request names a hypervisor host;
# tests/scripts/k8s_nodes.py: nodes.csv and hosts.csv agree with each other and the deploy files;
# and tests/scripts/deploy_spread.py: requests.yaml's spread and PDBs are well-formed (issue #62).
# Prints SKIP and exits 77 (ctest: skipped, not passed) where ../shared/conformance is absent
# (GPUPLAN_CONFORMANCE_DIR: another copy).
# usage: test_deploy_conformance.sh GPUPLAN SRC_DIR WORK_DIR
set -u
gpuplan=$1 src=$2 work=$3
conf=${GPUPLAN_CONFORMANCE_DIR:-$src/../shared/conformance}
if [ ! -f "$conf/check-deploy.sh" ]; then
	echo "SKIP: $conf/check-deploy.sh is absent: NVIDIA's own checks of the deploy files did not run"
	exit 77
fi
npm_dir=${GPUPLAN_NPM_DIR:-$src/build/npm}
[ -d "$npm_dir/node_modules/kubernetes-models" ] && export KUBERNETES_MODELS_DIR=$npm_dir/node_modules
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail=0 runs=0

# conform TAG STRATEGY: check-deploy.sh on TAG/d under ClusterPolicy mig.strategy STRATEGY ("" unset)
conform() {
	local tag=$1 strat=$2 log
	log="$tag/check${strat:+-$strat}.txt"
	OPERATOR_MIG_STRATEGY=$strat CHECK_TAG="$tag${strat:+ (ClusterPolicy mig.strategy $strat)}" \
		bash "$conf/check-deploy.sh" "$tag/d" "$tag/r/nodes.csv" >"$log" 2>&1
	local rc=$?
	runs=$((runs + 1))
	if [ $rc -ne 0 ] || grep -q '^FAIL' "$log" || ! grep -qE '^[0-9]+ passed, 0 failed$' "$log"; then
		echo "FAIL: check-deploy.sh on $tag${strat:+ under $strat} (exit $rc):"
		grep -E '^FAIL|passed, ' "$log" | head -20
		fail=1
	else
		echo "ok: $tag${strat:+ under $strat}: $(tail -1 "$log")"
	fi
}

# replicas TAG: the deploy files run every replica placed, on the nodes nodes.csv lists
replicas() {
	if ! python3 "$src/tests/scripts/deploy_replicas.py" "$1/r" "$1/d" >"$1/replicas.txt" 2>&1; then
		echo "FAIL: replicas in $1's deploy files:"
		head -20 "$1/replicas.txt"
		fail=1
	fi
	if ! python3 "$src/tests/scripts/k8s_nodes.py" "$1/r" "$1/d" >"$1/k8s-nodes.txt" 2>&1; then
		echo "FAIL: Kubernetes nodes and hosts of $1's reports:"
		grep FAIL "$1/k8s-nodes.txt" | head -20
		fail=1
	fi
	if ! python3 "$src/tests/scripts/deploy_spread.py" "$1/d" >"$1/spread.txt" 2>&1; then
		echo "FAIL: spread or disruption budgets in $1's requests.yaml:"
		head -20 "$1/spread.txt"
		fail=1
	fi
}

# plan TAG ARGS...: gpuplan plan ARGS -o TAG/r --deploy TAG/d, then both checks
plan() {
	local tag=$1 strat
	shift
	mkdir -p "$tag"
	if ! "$gpuplan" plan "$@" -o "$tag/r" --deploy "$tag/d" >"$tag/plan.log" 2>&1; then
		echo "FAIL: gpuplan plan $* ($tag): $(tail -1 "$tag/plan.log")"
		fail=1
		return
	fi
	conform "$tag" ""
	strat=$(sed -n 's/.*operator_mig_strategy: *\([a-z]*\).*/\1/p' "$tag/scenario.txt" 2>/dev/null)
	[ -n "$strat" ] && [ "$strat" != unset ] && conform "$tag" "$strat"
	replicas "$tag"
}

# the bundled scenarios with their own solver settings, and the example's greedy plan
for sc in "$src"/data/example/scenario.yaml "$src"/data/scenarios/*.yaml; do
	tag=$(basename "$(dirname "$sc")")-$(basename "$sc" .yaml)
	mkdir -p "$tag" && cp "$sc" "$tag/scenario.txt"
	plan "$tag" "$sc"
done
mkdir -p example-greedy && cp "$src/data/example/scenario.yaml" example-greedy/scenario.txt
plan example-greedy "$src/data/example/scenario.yaml" --greedy

# every golden case that writes deploy files (exit 0), with its own arguments
for cmdf in "$src"/tests/cases/*/cmd; do
	case_dir=$(dirname "$cmdf")
	grep -q -- '--deploy' "$cmdf" && [ "$(cat "$case_dir/expected/rc")" = 0 ] || continue
	tag=case-$(basename "$case_dir")
	rm -rf "$tag.in" && cp -r "$case_dir" "$tag.in" && rm -rf "$tag.in/expected"
	read -r -a args <<<"$(sed "s|@SRC@|$src|g" "$cmdf")"
	keep=() skip=0 sc=""
	for a in "${args[@]}"; do	# drop its -o and --deploy: plan() gives its own
		if [ $skip = 1 ]; then skip=0; continue; fi
		case $a in -o|--deploy) skip=1; continue ;; esac
		case $a in *.yaml) sc=$a ;; esac
		keep+=("$a")
	done
	mkdir -p "$tag"
	(cd "$tag.in" && cat "$sc") >"$tag/scenario.txt" 2>/dev/null
	cd "$tag.in" || exit 1
	plan "../$tag" "${keep[@]:1}"
	cd .. || exit 1
done

# the bench L plan: replicas only (check-deploy's MIG check knows only go-nvml's mock profile tables)
mkdir -p bench-l
if "$gpuplan" bench gen --size L --seed 1 -o bench-l/in >/dev/null &&
	"$gpuplan" plan bench-l/in/scenario.yaml --greedy -o bench-l/r --deploy bench-l/d >/dev/null; then
	replicas bench-l
else
	echo "FAIL: bench L plan"
	fail=1
fi

[ $runs -ge 8 ] || { echo "FAIL: only $runs check-deploy runs"; fail=1; }
[ $fail = 0 ] && echo "ok: $runs check-deploy runs with no FAIL; every workload's replicas in the deploy files"
exit $fail
