#!/usr/bin/env bash
# nodes.csv is keyed by Kubernetes node: one row per node the deploy files label (the host on bare
# metal and in clouds, worker VMs on vSphere and KVM), hosts.csv one per machine with its cost.
# tests/scripts/k8s_nodes.py checks them against each other and the deploy files on greedy plans
# of the example (passthrough, MIG and MPS worker VMs, vGPU workers, hosts whose GPUs all go to VM
# workloads), the vSphere scenario and the multi-vGPU case; then on copies with a VM host's worker
# row dropped, a worker's GPUs changed and a host's cost changed, which it must refuse.
# usage: test_k8s_nodes.sh GPUPLAN SRC_DIR WORK_DIR
. "$(dirname "$0")/lib.sh"
chk="$src/tests/scripts/k8s_nodes.py"

# run TAG DIR ARGS...: gpuplan plan ARGS in DIR -o TAG/r --deploy TAG/d, then the checker
run() {
	local tag=$1 dir=$2
	shift 2
	mkdir -p "$tag"
	if (cd "$dir" && "$exe" plan "$@" -o "$work/$tag/r" --deploy "$work/$tag/d") >"$tag/plan.log" 2>&1; then
		ok
	else
		bad "gpuplan plan $* ($tag): $(tail -1 "$tag/plan.log")"
		return
	fi
	if python3 "$chk" "$tag/r" "$tag/d" >"$tag/check.txt"; then ok; else bad "$tag: $(grep -m3 FAIL "$tag/check.txt")"; fi
}
run example "$src/data/example" scenario.yaml --greedy
run vsphere "$src/data/scenarios" vsphere.yaml --greedy
run multi-vgpu "$src/tests/cases/plan-multi-vgpu-vsphere" scenario.yaml

# refuse TAG WHAT SED: the example's reports with SED applied to FILE must fail the checker
refuse() {
	local tag=$1 what=$2 file=$3 expr=$4
	rm -rf "$tag" && cp -r example "$tag" && sed -i "$expr" "$tag/r/$file"
	if cmp -s "example/r/$file" "$tag/r/$file"; then
		bad "$tag: the edit ($expr) changed nothing"
	elif python3 "$chk" "$tag/r" "$tag/d" >"$tag/check.txt"; then
		bad "$tag: $what passed the checker"
	else
		ok
	fi
}
refuse no-worker "a VM host's worker row dropped" nodes.csv '/^vs-a100-001-k8s,/d'
refuse vgpu-worker "a vGPU worker row dropped" nodes.csv '/^kvm-l40s-001-k8s-1,/d'
refuse worker-gpus "a worker VM with a GPU too many" nodes.csv 's/^\(vs-a100-003-k8s,\([^,]*,\)\{7\}\)2,/\13,/'
refuse host-cost "a host's cost changed" hosts.csv '2s/,\([0-9]*\)\.\([0-9]*\)$/,1\1.\2/'
finish
