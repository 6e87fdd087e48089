#!/bin/bash
# test_failure_every.sh - every command that writes files exits 5 and leaves
# its output path as it was when the output cannot be written (issue 57).
#
# usage: bash test_failure_every.sh GPUPLAN_EXE SRC_DIR WORK_DIR
# The commands: plan (-o, --deploy, --export-model), compare, check -o,
# simulate, sweep expand, run, merge and submit (--slurm, --k8s), every
# import (openb, kubectl with and without pods, nvidia-smi MIG listings and
# hosts, skypilot) and bench gen.  Each first runs where it can write (exit
# 0, which also gives the "older output" below), then fails three ways:
#   - a read-only folder: the output path in a folder nobody may write, and
#     an older output there (as an unprivileged user when run as root, via
#     setpriv; skipped when that is impossible);
#   - a file size limit of 0 (ulimit -f 0: every write fails with EFBIG);
#   - a full tmpfs (mounted in a private mount namespace: unshare -m as
#     root, unshare -rm as a user; skipped when neither is allowed).
# Each time into a path that does not exist (it must still not exist) and
# over an older output (every file and folder the same, byte for byte).
# Exit 5 and one "gpuplan: ..." line are wanted.  Also run on the ASan+UBSan
# build (asan/script/failure_every): the error paths of every import, of
# sweep expand and sweep submit.  Ends with "N passed, N failed".
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
. "$(dirname "$0")/lib.sh"
export LC_ALL=C TZ=UTC GPUPLAN_TODAY=2026-11-25
unset SLURM_ARRAY_TASK_ID SLURM_PROCID OMPI_COMM_WORLD_RANK PMI_RANK JOB_COMPLETION_INDEX

cases=$src/tests/cases sw=$src/tests/sweep
cp "$src"/tests/bad/base/* .
mkdir -p in/deploy in/kubectl in/openb in/smi in/hosts in/sky/aws
cp "$cases"/deploy-named-nodes/*.{yaml,csv} in/deploy/
cp "$cases"/import-kubectl-mixed/*.json in/kubectl/
cp "$cases"/import-openb-tiny/*.csv in/openb/
cp "$cases"/import-smi-h100/*.txt in/smi/
cp "$cases"/import-smi-hosts/*.csv in/hosts/
cp "$cases"/import-skypilot-aws/catalogs/v7/aws/vms.csv in/sky/aws/
chmod -R a+rX . # readable by the unprivileged user of the read-only runs

# The commands, by name: run NAME OUT runs it with its output at OUT.  sweep merge writes into the
# sweep's own folder, so a new OUT is there a copy of a run's folder (merge-fresh).
names="plan deploy model.lp compare check simulate sweep-expand sweep-run sweep-merge sweep-slurm sweep-k8s
	import-openb import-kubectl import-kubectl-nodes import-smi-mig import-smi-hosts import-skypilot bench-gen"
run() {
	local name=$1 out=$2
	case $name in
	plan) "$exe" plan scenario.yaml -o "$out" ;;
	deploy) "$exe" plan in/deploy/scenario.yaml --greedy -o "$out" --deploy "$out/deploy" ;;
	model.lp) "$exe" plan scenario.yaml -o - --export-model "$out" ;;
	compare) "$exe" compare scenario.yaml in/deploy/scenario.yaml -o "$out" ;;
	check) "$exe" check scenario.yaml --baseline baseline.json -o "$out" ;;
	simulate) "$exe" simulate scenario.yaml --generate flat --hours 4 -o "$out" ;;
	sweep-expand) "$exe" sweep expand "$sw/grid.yaml" -o "$out" ;;
	sweep-run) "$exe" sweep run "$sw/oat.yaml" -j 1 -o "$out" ;;
	sweep-merge) "$exe" sweep merge "$sw/oat.yaml" --format all -o "$out" ;;
	sweep-slurm) env PATH=/nonexistent "$exe" sweep submit "$sw/grid.yaml" --slurm --shards 2 -o "$out" ;;
	sweep-k8s) "$exe" sweep submit "$sw/grid.yaml" --k8s --shards 2 -o "$out" ;;
	import-openb) "$exe" import openb in/openb/nodes.csv in/openb/pods.csv -o "$out" ;;
	import-kubectl) "$exe" import kubectl in/kubectl/nodes.json in/kubectl/pods.json -o "$out" ;;
	import-kubectl-nodes) "$exe" import kubectl in/kubectl/nodes.json -o "$out" ;;
	import-smi-mig) "$exe" import nvidia-smi in/smi/lgip.txt in/smi/lgipp.txt --gpu-id H100-X -o "$out" ;;
	import-smi-hosts) "$exe" import nvidia-smi in/hosts/*.csv --cpu-cores 96 --ram-gib 1024 -o "$out" ;;
	import-skypilot) "$exe" import skypilot in/sky/aws/vms.csv --as-of 2025-05-31 -o "$out" ;;
	bench-gen) "$exe" bench gen --size S --seed 1 -o "$out" ;;
	esac
}

# state PATH: what is at PATH, every file with its bytes' sum ("absent" when nothing is)
state() {
	if [ -e "$1" ] || [ -L "$1" ]; then
		find "$1" | sort
		find "$1" -type f -exec cksum {} + | sort
	else
		echo absent
	fi
}

# fails HOW NAME OUT [WRAP...]: NAME into OUT, behind WRAP, exits 5 with one gpuplan: line and OUT as it was
export -f run
export exe sw
fails() {
	local how=$1 name=$2 out=$3 before rc
	shift 3
	before=$(state "$out")
	# stderr through a pipe: under ulimit -f 0 a file could not take the message either
	{ "$@" bash -c 'run "$0" "$1"' "$name" "$out" >/dev/null; } 2>&1 | cat >"err-$how-$name.txt"
	rc=${PIPESTATUS[0]}
	if [ "$rc" = 5 ] && [ "$(wc -l <"err-$how-$name.txt")" = 1 ] && grep -q '^gpuplan: ' "err-$how-$name.txt"; then ok; else
		bad "$how: $name into $out: want exit 5 and one gpuplan: line, got $rc: $(head -3 "err-$how-$name.txt")"
	fi
	[ "$(state "$out")" = "$before" ] && ok || bad "$how: $name changed $out: $(diff <(echo "$before") <(state "$out") | head -4)"
}

# older DEST: a copy of every command's output; sweep run's with half its results gone (a run cut short),
# so that the run has cases left to write
older() {
	cp -a ok "$1" && rm -f "$1"/sweep-run/results/case-*[13579].json
}

limited() { (ulimit -f 0 && exec "$@"); }
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

# each_fails HOW DIR OLDER [WRAP...]: every command into DIR/NAME (nothing there yet; for sweep merge a
# run's results) and over the older output OLDER/NAME
each_fails() {
	local how=$1 dir=$2 older=$3 name
	shift 3
	for name in $names; do
		fails "$how" "$name" "$dir/$name" "$@"
		fails "$how-older" "$name" "$older/$name" "$@"
	done
}

# 3. a full tmpfs (this script again, in a mount namespace of its own: the mount goes with it)
if [ "${GPUPLAN_TEST_PHASE:-}" = tmpfs ]; then
	parent=$4
	cp -a "$parent/ok" "$parent/merge-fresh" "$parent/baseline.json" .
	mkdir full
	mount -t tmpfs -o size=$(($(du -sk ok merge-fresh | awk '{ s += $1 } END { print s }') + 1024))k tmpfs full || exit 77
	older full/older && cp -a merge-fresh full/new-sweep-merge || exit 77
	mkdir full/new && mv full/new-sweep-merge full/new/sweep-merge
	dd if=/dev/zero of=full/fill bs=4k >/dev/null 2>&1 # until it is full
	each_fails tmpfs full/new full/older
	umount full
	finish
fi

# Where each command can write: it works, and its output is the "older output" of the runs below.
"$exe" plan scenario.yaml -o base >/dev/null && cp base/plan.json baseline.json || bad "plan for the baseline"
mkdir ok
for name in $names; do
	[ "$name" = sweep-merge ] && { "$exe" sweep run "$sw/oat.yaml" -j 1 -o ok/$name >/dev/null 2>&1 || bad "sweep run for merge"; }
	run "$name" "ok/$name" >"ok-$name.out" 2>&1 && ok || bad "$name: exit $? where it can write: $(head -3 "ok-$name.out")"
	[ -e "ok/$name" ] && ok || bad "$name wrote nothing at ok/$name"
done
# sweep merge's new path: the results of a run, none of merge's reports
"$exe" sweep run "$sw/oat.yaml" -j 1 -o merge-fresh >/dev/null 2>&1 || bad "sweep run for merge"
chmod -R a+rX .

# 1. ulimit -f 0
mkdir fz && older fzx && cp -a merge-fresh fz/sweep-merge
each_fails ulimit fz fzx limited

# 2. a read-only folder (root writes anyway: run as nobody then)
mkdir ro && older rox && cp -a merge-fresh ro/sweep-merge
if [ "$(id -u)" -ne 0 ]; then
	chmod -R a-w ro rox
	each_fails read-only ro rox
	chmod -R u+w ro rox
elif command -v setpriv >/dev/null && as_nobody true 2>/dev/null && as_nobody test -x "$exe" -a -r scenario.yaml; then
	each_fails read-only ro rox as_nobody
else
	echo "SKIP: read-only folder (root, and cannot run as nobody)"
fi

# 3. a full tmpfs: unshare -m as root, unshare -rm (a user namespace) as a user
userns=
unshare -m true 2>/dev/null || userns=-r
if unshare $userns -m true 2>/dev/null; then
	GPUPLAN_TEST_PHASE=tmpfs unshare $userns -m bash "$self" "$exe" "$src" "$work/tmpfs" "$work" >tmpfs.out 2>&1
	rc=$?
	if [ $rc = 77 ]; then echo "SKIP: full tmpfs (cannot mount one)"; else
		grep '^FAIL' tmpfs.out
		echo "full tmpfs: $(tail -1 tmpfs.out)"
		if [ "$rc" = 0 ] || [ "$rc" = 1 ] && tail -1 tmpfs.out | grep -q '^[0-9]* passed, [0-9]* failed$'; then
			pass=$((pass + $(tail -1 tmpfs.out | cut -d' ' -f1))) fail=$((fail + $(tail -1 tmpfs.out | cut -d' ' -f3)))
		else
			bad "the full tmpfs runs exited $rc: $(tail -3 tmpfs.out)"
		fi
	fi
else
	echo "SKIP: full tmpfs (no mount namespace: unshare -m and unshare -rm refused)"
fi
finish
