#!/usr/bin/env bash
# test_sweep_mpi.sh - a sweep under Open MPI: the line that `gpuplan sweep
# submit --mpi --shards 4` prints, run with --oversubscribe, runs the
# 16-case grid as 4 ranks (the shard from
# OMPI_COMM_WORLD_RANK/SIZE; gpuplan links no MPI) and the merged report
# equals the local run's, byte for byte.  Skipped, with a message, when
# mpirun is not installed (.ci/setup --tests installs openmpi-bin).
# Usage: test_sweep_mpi.sh GPUPLAN SRC_DIR WORK_DIR
. "$(dirname "$0")/lib.sh"

command -v mpirun >/dev/null 2>&1 || { echo "SKIP: mpirun not installed (apt-get install openmpi-bin)"; exit 0; }
fix=$src/tests/sweep
unset SLURM_ARRAY_TASK_ID SLURM_PROCID OMPI_COMM_WORLD_RANK PMI_RANK JOB_COMPLETION_INDEX
# mpirun refuses root unless told; these two say so without a flag other MPIs lack.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

"$exe" sweep run "$fix/grid.yaml" -o local -j 2 >/dev/null && "$exe" sweep merge "$fix/grid.yaml" -o local >/dev/null \
	&& ok || bad "local run"
# the line `gpuplan sweep submit --mpi` prints, with --oversubscribe (4 ranks on 2 cores)
line=$("$exe" sweep submit "$fix/grid.yaml" --mpi --shards 4 -o mpi)
[ "$line" = "mpirun -n 4 $exe sweep run $fix/grid.yaml -o $work/mpi" ] && ok || bad "submit --mpi: $line"
eval "timeout 120 ${line/mpirun/mpirun --oversubscribe}" >mpi.out 2>&1 || bad "mpirun: $(cat mpi.out)"
[ "$(grep -c 'OMPI_COMM_WORLD_RANK): 4 cases, 4 done' mpi.out)" = 4 ] && ok || bad "ranks: $(cat mpi.out)"
"$exe" sweep merge "$fix/grid.yaml" -o mpi >/dev/null || bad "merge"
for f in sweep.json cases.csv options.csv sensitivity.csv breakeven.csv; do
	cmp -s local/$f mpi/$f && ok || bad "$f differs from the local run's"
done
finish
