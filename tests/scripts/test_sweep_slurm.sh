#!/usr/bin/env bash
# test_sweep_slurm.sh - a sweep on a real Slurm: starts munged, slurmctld
# and slurmd (one node, its own slurm.conf, munge key and ports, nothing
# written to /etc, no systemd), runs the 16-case grid as a job array
# (the script of `gpuplan sweep submit --slurm --shards 8`, two cases a
# task) and as one srun step of 2 tasks,
# and checks that each merged report equals the local run's, byte for
# byte.  The daemons are stopped on every way out (trap on EXIT: TERM,
# then KILL after 5 s), also when a check fails or the test is killed.
# Skipped, with a message, when Slurm or munge is not installed (.ci/setup --tests
# installs slurm-wlm and munge).
# Usage: test_sweep_slurm.sh GPUPLAN SRC_DIR WORK_DIR
. "$(dirname "$0")/lib.sh"

for t in munged mungekey slurmctld slurmd sbatch srun squeue sinfo; do
	command -v $t >/dev/null 2>&1 || PATH=$PATH:/usr/sbin:/sbin
	command -v $t >/dev/null 2>&1 || { echo "SKIP: $t not installed (apt-get install slurm-wlm munge)"; exit 0; }
done
fix=$src/tests/sweep
reports="sweep.json cases.csv options.csv sensitivity.csv breakeven.csv"
unset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT SLURM_PROCID SLURM_NTASKS OMPI_COMM_WORLD_RANK PMI_RANK \
	JOB_COMPLETION_INDEX

# munged wants every directory above its socket world-executable: a private /tmp directory, 755.
D=$(mktemp -d /tmp/gpuplan-slurm.XXXXXX) || exit 1
chmod 755 "$D"
H=$(hostname -s)
MEM=$(free -m | awk '/^Mem:/ { print $2 }')
U=$(id -un)
# Ports of our own (two suites at once must not collide): from the process id.
P=$((20000 + ($$ % 4000) * 2))
pids=()

stop() {	# TERM every daemon started (slurmd, slurmctld, munged), KILL what is left after 5 s
	local p i
	for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done
	for i in $(seq 50); do
		local alive=0
		for p in "${pids[@]}"; do	# a zombie (exited, not yet waited for) counts as stopped
			ps -o stat= -p "$p" 2>/dev/null | grep -qv '^Z' && alive=1
		done
		[ $alive = 0 ] && break
		sleep 0.1
	done
	for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	rm -rf "$D"
}
trap stop EXIT
trap 'exit 1' INT TERM

mkdir -p "$D"/munge/{etc,run,lib,log} "$D"/{state,spool,log}
chmod 755 "$D/munge" "$D/munge/run"
chmod 700 "$D/munge/etc" "$D/munge/lib" "$D/munge/log"
mungekey --create --keyfile="$D/munge/etc/munge.key" || { bad "mungekey"; finish; }
munged -F --key-file="$D/munge/etc/munge.key" --socket="$D/munge/run/munge.sock" \
	--pid-file="$D/munge/run/munged.pid" --log-file="$D/munge/log/munged.log" \
	--seed-file="$D/munge/lib/munged.seed" >"$D/log/munged.out" 2>&1 &
pids=($! "${pids[@]}")
for i in $(seq 100); do [ -S "$D/munge/run/munge.sock" ] && break; sleep 0.1; done

cat >"$D/slurm.conf" <<EOF
ClusterName=gpuplantest
SlurmctldHost=$H
SlurmUser=$U
SlurmdUser=$U
SlurmctldPort=$P
SlurmdPort=$((P + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$D/munge/run/munge.sock
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=1,sched_interval=1,batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
MinJobAge=300
NodeName=$H CPUs=2 RealMemory=$MEM State=UNKNOWN
PartitionName=debug Nodes=$H Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
EOF
export SLURM_CONF=$D/slurm.conf
slurmctld -D -c -f "$SLURM_CONF" >"$D/log/slurmctld.out" 2>&1 &
pids=($! "${pids[@]}")
slurmd -D -f "$SLURM_CONF" >"$D/log/slurmd.out" 2>&1 &
pids=($! "${pids[@]}")
up=0
for i in $(seq 150); do
	timeout 5 sinfo -h -o %T 2>/dev/null | grep -qx idle && { up=1; break; }
	sleep 0.1
done
if [ $up = 0 ]; then
	bad "slurm did not come up: $(tail -3 "$D/log/slurmctld.log" "$D/log/slurmd.log" 2>/dev/null)"
	finish
fi
ok

# The local run, the reference.
"$exe" sweep run "$fix/grid.yaml" -o local -j 2 >/dev/null && "$exe" sweep merge "$fix/grid.yaml" -o local >/dev/null \
	&& ok || bad "local run"

# wait_job J: until squeue no longer lists J (at most 120 s).
wait_job() {
	timeout 120 bash -c "while [ -n \"\$(squeue -h -j $1 2>/dev/null)\" ]; do sleep 0.1; done" || bad "job $1 still queued"
}
same() {
	local f d=1
	for f in $reports; do cmp -s "local/$f" "$1/$f" || { d=0; bad "$1: $f differs from the local run's"; }; done
	[ $d = 1 ] && ok
}

t0=$(date +%s.%N)
"$exe" sweep submit "$fix/grid.yaml" --slurm --shards 8 -o array >submit.out 2>&1 || bad "submit: $(cat submit.out)"
J=$(awk '{ print $NF }' submit.out)
grep -q '^#SBATCH --array=0-7$' array/sweep.sbatch && ok || bad "sweep.sbatch: $(cat array/sweep.sbatch)"
wait_job "$J"
t1=$(date +%s.%N)
cat array/slurm-*.out | sort >tasks.txt
[ "$(wc -l <tasks.txt)" = 8 ] && grep -q 'shard 7/8 (SLURM_ARRAY_TASK_ID): 2 cases, 2 done' tasks.txt && ok \
	|| bad "array tasks: $(cat array/slurm-*.out)"
"$exe" sweep merge "$fix/grid.yaml" -o array >/dev/null && same array || bad "merge of the array job"
echo "slurm array: 16 cases in 8 tasks, submit to done $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s"

J=$(timeout 30 sbatch --parsable -n 2 -o "$work/steps.out" \
	--wrap "srun '$exe' sweep run '$fix/grid.yaml' -o '$work/steps'") || bad "sbatch srun"
wait_job "$J"
grep -q 'shard 1/2 (SLURM_PROCID): 8 cases, 8 done' steps.out && ok || bad "srun tasks: $(cat steps.out)"
"$exe" sweep merge "$fix/grid.yaml" -o steps >/dev/null && same steps || bad "merge of the srun step"
finish
