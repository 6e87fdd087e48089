#!/usr/bin/env bash
# bench/run.sh - the gpuplan benchmark: per size, gpuplan against CBC and HiGHS on the
# model gpuplan exports, all in one run.
#
# usage: bench/run.sh [-g GPUPLAN] [-b BEFORE_GPUPLAN] [-s "S M L XL"] [--seed N]
#                     [--no-cbc] [--no-highs] [--no-x10] [--no-1m] [--openb DIR | --no-openb]
#                     [-w WORKDIR]
#
# For each size: `gpuplan bench gen`, then `gpuplan --verbose plan` with the size's time
# limit (S, M, L 10 s; XL 60 s) and --export-model; with -b the same for a baseline
# gpuplan (e.g. a build of an older commit) on the same instance. Then, on the model
# the first gpuplan exported, CBC (Debian coinor-cbc; `sec` with `timeMode elapsed`,
# so wall-clock seconds; CBC's default counts CPU seconds) and HiGHS (npm `highs`:
# HiGHS compiled to WebAssembly, single-threaded; `time_limit`, wall-clock seconds),
# each with the same limit and with 10 times the limit, relative gap 1e-4, one after
# the other; each solver's plan is then made concrete by the first gpuplan
# (`plan --start` with its solution file, not timed).  Every run is under
# /usr/bin/time (wall time, peak RSS).
# Prints one table row per run: limit, wall, overrun (wall - limit), peak RSS, status,
# objective, proven bound, gap (objective - bound) / objective, LP bound (gpuplan's),
# the objective over the first gpuplan's and the plan made concrete over it (the
# solvers' objectives are of the model: their plans dealt over real nodes may cost
# more, or leave replicas unplaced), and the plan made concrete over the instance's
# best known concrete plan (bench/best-known.csv, when its row still fits the
# instance and the models: the same bytes of each, bench/lib/parse.sh); then per
# size the instance, the greedy plan's objective, the best plan and best bound of all
# runs, how far gpuplan's plan is above that bound and above the best known plan,
# and "new best known" when a run's concrete plan is better than the file's row by
# the priority rule, then by cost (docs/formulation.md, "Priority"; as bench/paired.sh).
# gpuplan's bound and gap are the `lower_bound` and `gap`
# of its summary.csv, what it reports; the solvers' are their own best bounds.
# Then the greedy path at a million replicas, one row: bench XL with node counts and
# replicas times 10, `plan --greedy`, 60 s.
# Last, when the Alibaba openb trace is given (--openb DIR, or
# $GPUPLAN_OPENB_TRACE=DIR: a directory holding openb_node_list_gpu_node.csv and
# openb_pod_list_default.csv from cluster-trace-gpu-v2023/csv/ of
# github.com/alibaba/clusterdata), imports it, plans all pods at once (60 s) and
# prints the GPU allocation rate next to the paper's best online figure (FGD
# 95.23%), and, when python3 and glpsol are there, the upper bound no placement can
# beat (bench/openb_bound.py).
# Options: --no-x10 skips the 10x runs, --no-cbc / --no-highs a solver, --no-1m the
# million-replica row.
# Needs: bash, awk, /usr/bin/time, glpsol (both installed with apt-get when missing),
# cbc, node and npm (HiGHS is installed with npm into build/npm when missing).
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(dirname "$here")
gpuplan=$src/build/planner/gpuplan
npm_dir=${GPUPLAN_BENCH_NPM:-$src/build/npm}
sizes="S M L XL"
before=""
seed=1
cbc=1
highs=1
x10=1
big=1
openb=1
work=${TMPDIR:-/tmp}/gpuplan-bench.$$
openb_dir=${GPUPLAN_OPENB_TRACE:-}
while [ $# -gt 0 ]; do
	case $1 in
	-g) gpuplan=$2; shift 2 ;;
	-b) before=$2; shift 2 ;;
	-s) sizes=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--no-cbc) cbc=0; shift ;;
	--no-highs) highs=0; shift ;;
	--no-x10) x10=0; shift ;;
	--no-1m) big=0; shift ;;
	--no-openb) openb=0; shift ;;
	--openb) openb_dir=$2; shift 2 ;;
	-w) work=$2; shift 2 ;;
	-h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
	*) echo "bench/run.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
case $gpuplan in /*) ;; *) gpuplan=$PWD/$gpuplan ;; esac
case $before in /* | "") ;; *) before=$PWD/$before ;; esac
case $openb_dir in /* | "") ;; *) openb_dir=$PWD/$openb_dir ;; esac
case $npm_dir in /*) ;; *) npm_dir=$PWD/$npm_dir ;; esac
[ -x "$gpuplan" ] || { echo "bench/run.sh: no gpuplan at $gpuplan (build first, or -g PATH)" >&2; exit 2; }
# shellcheck source=bench/lib/parse.sh
. "$here/lib/parse.sh"
# shellcheck source=bench/lib/setup.sh
. "$here/lib/setup.sh"
# shellcheck source=bench/lib/solve.sh
. "$here/lib/solve.sh"
bench_setup
export LC_ALL=C
mkdir -p "$work" || exit 2
cd "$work" || exit 2

field() { sed -n "s/^$1,//p" "$2"; }
load() { cut -d' ' -f1 /proc/loadavg; }

echo "machine: $(nproc) cores, $(awk '/MemTotal/{printf "%.1f GiB", $2/1048576}' /proc/meminfo), $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1); load average $(load) at the start"
echo "gpuplan: $("$gpuplan" --version), GLPK $(glpsol --version 2>/dev/null | sed -n 's/.*Solver \([0-9.]*\).*/\1/p' | head -1)$cbc_version$highs_version; seed $seed; $(date -u +%Y-%m-%d)"
echo
bench_header

# run_gpuplan RUN EXE SIZE LIMIT TAG [OPTION...]: plans gen-SIZE with EXE under
# /usr/bin/time, with the OPTIONs if given, else exporting the model to model-TAG.mps;
# prints its row; leaves its result in res-TAG.
run_gpuplan() {
	local run=$1 exe=$2 s=$3 tl=$4 tag=$5 res rc
	shift 5
	[ $# -gt 0 ] || set -- --export-model "model-$tag.mps"
	rm -rf "out-$tag"
	/usr/bin/time -f "%e %M" -o "time-$tag" timeout -k 30 $((tl * 3 + 60)) "$exe" --verbose plan \
		"gen-$s/scenario.yaml" -o "out-$tag" --format csv --time-limit "$tl" "$@" \
		>"plan-$tag.log" 2>"plan-$tag.err"
	rc=$?
	case $rc in
	124 | 137) res="killed - - - -" ;;
	*) res="exit-$rc - - - -" ;;
	esac
	# exit 0, or 1 with a plan (--require-all): the reports are there
	[ ! -f "out-$tag/summary.csv" ] || [ $rc -gt 1 ] || res=$(bench_gpuplan "out-$tag/summary.csv")
	echo "$res" >"res-$tag"
	# shellcheck disable=SC2046
	bench_row "$s" "$run" "$tl" $(bench_time "time-$tag") "$res" "$ref" "${known%% *}"
}

# run_solver cbc|highs SIZE LIMIT: CBC or HiGHS on model-SIZE.mps with LIMIT seconds;
# prints its row and adds "RUN OBJECTIVE BOUND CONCRETE UNPLACED_BY_PRIORITY" to best-SIZE
# (the last two: its plan made concrete, from the `plan --start` run's log).
run_solver() {
	local solver=$1 s=$2 tl=$3 tag=$1-$2-$3 res name obj lb
	case $solver in cbc) name=CBC ;; highs) name=HiGHS ;; esac
	res=$(bench_solve "$solver" "model-$s.mps" "$tl" "$tag")
	# its plan made concrete: gpuplan's deal of it (plan --start), outside the timed run; the
	# deal comes first, so the size's own limit (base, not the solver's) is enough
	res="$res $(bench_concrete "$gpuplan" "gen-$s/scenario.yaml" "$tag" "$base")"
	# shellcheck disable=SC2046
	bench_row "$s" "$name" "$tl" $(bench_time "time-$tag") "$res" "$ref" "${known%% *}"
	read -r _ obj lb _ _ concrete <<<"$res"
	prio=-
	[ "$concrete" = - ] || prio=$(bench_start_prio "start-$tag.log")
	echo "$name-${tl}s $obj $lb $concrete $prio" >>"best-$s"
}

models=$(bench_models_digest "$gpuplan")
for s in $sizes; do
	case $s in XL) tl=60 ;; *) tl=10 ;; esac
	base=$tl
	if ! "$gpuplan" bench gen --size "$s" --seed "$seed" -o "gen-$s" >"gen-$s.log" 2>&1; then
		echo "| $s | generator failed: $(head -1 "gen-$s.log") |"
		continue
	fi
	# the best known concrete plan of this instance (bench/best-known.csv), if its row still fits:
	# the same instance bytes and the same models
	known=$(bench_known "$src/bench/best-known.csv" "$s$seed" "$(bench_digest "gen-$s")" "$models")
	ref=-
	run_gpuplan gpuplan "$gpuplan" "$s" "$tl" "$s"
	read -r _ ref lb _ lp <"res-$s"
	# each run's line: RUN OBJECTIVE BOUND CONCRETE UNPLACED_BY_PRIORITY (bench_best); a
	# gpuplan plan is concrete, its unplaced per priority from its unplaced.csv
	echo "gpuplan $ref $lb $ref $(bench_unplaced_prio "out-$s/unplaced.csv" "gen-$s/workloads.csv")" >"best-$s"
	echo "gpuplan-LP - $lp" >>"best-$s"
	if [ -n "$before" ]; then
		run_gpuplan before "$before" "$s" "$tl" "$s-before"
		read -r _ obj lb _ <"res-$s-before"
		echo "before $obj $lb $obj $(bench_unplaced_prio "out-$s-before/unplaced.csv" "gen-$s/workloads.csv")" >>"best-$s"
	fi
	for f in 1 10; do
		[ $f -eq 1 ] || [ $x10 -eq 1 ] || continue
		[ -f "model-$s.mps" ] || break
		[ $cbc -eq 0 ] || run_solver cbc "$s" $((tl * f))
		[ $highs -eq 0 ] || run_solver highs "$s" $((tl * f))
	done
	gpus=$(awk -F, '!/^#/ && $1 != "name" {n += $2 * $4} END {print n}' "gen-$s/inventory.csv")
	reps=$(awk -F, '!/^#/ && $1 != "name" {n += $3} END {print n}' "gen-$s/workloads.csv")
	ncl=$(grep -vc -e '^#' -e '^name,' "gen-$s/inventory.csv")
	nwl=$(grep -vc -e '^#' -e '^name,' "gen-$s/workloads.csv")
	sum=out-$s/summary.csv
	if [ -f "$sum" ]; then
		echo "$s: $gpus GPUs, $reps replicas, $ncl node classes, $nwl workloads; model $(field model_rows "$sum") x $(field model_columns "$sum") ($(field model_integer_columns "$sum") integer); greedy plan $(field greedy_objective "$sum")" >>instances
	fi
	bench_best "$s" "$ref" "$known" "$(bench_known_prio "$src/bench/best-known.csv" "$s$seed")" <"best-$s" >>instances
done
# The greedy path at a million replicas: bench XL with every node count and every
# workload's replicas times 10 (200,000 GPUs, 1,000,000 replicas), `plan --greedy`, 60 s.
if [ $big -eq 1 ] && { [ -d gen-XL ] || "$gpuplan" bench gen --size XL --seed "$seed" -o gen-XL >gen-XL.log 2>&1; }; then
	mkdir -p gen-1M && cp gen-XL/scenario.yaml gen-1M/
	awk -F, -v OFS=, '/^#/ || $1 == "name" { print; next } { $2 *= 10; print }' gen-XL/inventory.csv >gen-1M/inventory.csv
	awk -F, -v OFS=, '/^#/ || $1 == "name" { print; next } { $3 *= 10; print }' gen-XL/workloads.csv >gen-1M/workloads.csv
	ref=- known=-
	run_gpuplan greedy "$gpuplan" 1M 60 1M --greedy
	echo "1M: bench XL seed $seed with node counts and replicas times 10: $(awk -F, '!/^#/ && $1 != "name" {n += $2 * $4} END {print n}' gen-1M/inventory.csv) GPUs, $(awk -F, '!/^#/ && $1 != "name" {n += $3} END {print n}' gen-1M/workloads.csv) replicas; plan --greedy" >>instances
fi
echo
[ ! -f instances ] || cat instances
echo "load average $(load) at the end"

T=$openb_dir
if [ $openb -eq 1 ] && [ -n "$T" ] && [ -f "$T/openb_node_list_gpu_node.csv" ] && [ -f "$T/openb_pod_list_default.csv" ]; then
	rm -rf openb openb-out
	if "$gpuplan" import openb "$T/openb_node_list_gpu_node.csv" "$T/openb_pod_list_default.csv" -o openb >openb-import.log 2>&1; then
		/usr/bin/time -f "%e %M" -o time-openb "$gpuplan" plan openb/scenario.yaml -o openb-out --format csv \
			--time-limit 60 >openb-plan.log 2>&1
		read -r wall rss <time-openb
		if [ -f openb-out/summary.csv ]; then
			awk -F, -v wall="$wall" -v rss="$rss" -v st="$(field status openb-out/summary.csv)" '
				FNR == 1 { f++ }
				/^#/ || $1 == "name" || $1 == "workload" { next }
				f == 1 { cap += $2 * $4 }
				f == 2 { rep[$1] = $3; ask[$1] = $4 > 0 ? $4 : $6; asked += $3 * ask[$1]; n += $3 }
				f == 3 { un[$1] = $3 }
				END {
					for (w in rep) placed += (rep[w] - un[w]) * ask[w]
					printf "\nopenb (all %d GPU pods at once, 60 s): %s, %.2f s, %d MiB; GPUs %d, asked %.2f (%.2f%%), placed %.2f\n",
						n, st, wall, rss / 1024, cap, asked, 100 * asked / cap, placed
					printf "GPU allocation rate: %.2f%% (published online schedulers: FGD 95.23%%, best-fit 92.86%%, random 86.30%%)\n",
						100 * placed / cap
				}' openb/inventory.csv openb/workloads.csv openb-out/unplaced.csv
			# what no placement can beat (bench/openb_bound.py: python3 and glpsol, when present)
			if command -v python3 >/dev/null && command -v glpsol >/dev/null; then
				python3 "$src/bench/openb_bound.py" "$T/openb_node_list_gpu_node.csv" \
					"$T/openb_pod_list_default.csv" || echo "openb bound: failed"
			fi
		else
			echo "openb: plan failed: $(tail -1 openb-plan.log)"
		fi
	else
		echo "openb: import failed: $(tail -1 openb-import.log)"
	fi
elif [ $openb -eq 1 ] && [ -z "$T" ]; then
	echo "openb: no trace given (--openb DIR or GPUPLAN_OPENB_TRACE=DIR; skipped)"
elif [ $openb -eq 1 ]; then
	echo "openb: trace not found at $T (skipped)"
fi
echo "work files: $work"
