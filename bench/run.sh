#!/usr/bin/env bash
# bench/run.sh - the gpuplan benchmark: one row per size, all in one run.
#
# usage: bench/run.sh [-g GPUPLAN] [-b BEFORE_GPUPLAN] [-s "S M L XL"] [--seed N] [--no-cbc]
#                     [--openb DIR | --no-openb] [-w WORKDIR]
#
# For each size: `gpuplan bench gen`, then `gpuplan plan` with the size's time
# limit (S, M, L 10 s; XL 60 s) and --export-model, under /usr/bin/time (wall
# time, peak RSS), then CBC (Debian coinor-cbc) on the exported model with the
# same time limit (`sec`, which CBC counts in CPU seconds) and relative gap.
# Prints one table row per size: wall time, peak RSS, status, objective (of the
# reported plan), LP bound, gap to the LP bound, the greedy plan's objective and
# its ratio to ours, CBC's time and objective (on the model, before any
# disaggregation) and ours/CBC, both for the ILP's own objective on the model
# (from the `gpuplan-ilp:` line of --verbose) and for the reported plan.  With
# -b, a second gpuplan (e.g. a build of an older commit) is run on the same
# instances in the same run, one "before" row per size.  Then, when the Alibaba
# openb trace is given (--openb DIR, or $GPUPLAN_OPENB_TRACE=DIR: a directory
# holding openb_node_list_gpu_node.csv and openb_pod_list_default.csv from
# cluster-trace-gpu-v2023/csv/ of github.com/alibaba/clusterdata), imports it,
# plans all pods at once (60 s) and prints the GPU allocation rate: placed GPU
# demand / GPUs, next to the paper's best online figure (FGD 95.23%), and, when python3 and
# glpsol are there, the upper bound no placement can beat (bench/openb_bound.py).
# Needs: bash, awk, /usr/bin/time and glpsol (installed with apt-get when
# missing), cbc.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(dirname "$here")
gpuplan=$src/build/planner/gpuplan
sizes="S M L XL"
before=""
seed=1
cbc=1
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
	--no-openb) openb=0; shift ;;
	--openb) openb_dir=$2; shift 2 ;;
	-w) work=$2; shift 2 ;;
	-h|--help) sed -n '2,25p' "$0"; exit 0 ;;
	*) echo "bench/run.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
case $gpuplan in /*) ;; *) gpuplan=$PWD/$gpuplan ;; esac
case $before in /* | "") ;; *) before=$PWD/$before ;; esac
case $openb_dir in /* | "") ;; *) openb_dir=$PWD/$openb_dir ;; esac
[ -x "$gpuplan" ] || { echo "bench/run.sh: no gpuplan at $gpuplan (build first, or -g PATH)" >&2; exit 2; }
# /usr/bin/time for wall time and peak RSS; glpsol (glpk-utils) for GLPK's
# version and the openb bound: Debian packages, installed when missing.
need=()
[ -x /usr/bin/time ] || need+=(time)
command -v glpsol >/dev/null 2>&1 || need+=(glpk-utils)
if [ ${#need[@]} -gt 0 ]; then
	sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
	{ $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"; } >/dev/null 2>&1
	[ -x /usr/bin/time ] || { echo "bench/run.sh: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }
	command -v glpsol >/dev/null 2>&1 ||
		echo "bench/run.sh: glpsol missing (apt-get install glpk-utils): no GLPK version, no openb bound" >&2
fi
if [ $cbc -eq 1 ] && ! command -v cbc >/dev/null 2>&1; then
	echo "bench/run.sh: cbc not on PATH (apt-get install coinor-cbc); CBC columns left empty" >&2
	cbc=0
fi
export LC_ALL=C
mkdir -p "$work" || exit 2
cd "$work" || exit 2

field() { sed -n "s/^$1,//p" "$2"; }

echo "machine: $(nproc) cores, $(awk '/MemTotal/{printf "%.1f GiB", $2/1048576}' /proc/meminfo), $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)"
echo "gpuplan: $("$gpuplan" --version), GLPK $(glpsol --version 2>/dev/null | sed -n 's/.*Solver \([0-9.]*\).*/\1/p' | head -1), CBC $(cbc -quit 2>/dev/null </dev/null | sed -n 's/^Version: *\([^ ]*\).*/\1/p' | head -1); seed $seed; $(date -u +%Y-%m-%d)"
printf '| size | GPUs / replicas | classes / workloads | model rows x cols (int) | limit | wall | peak RSS | status | ILP objective | plan objective | LP bound | ILP gap to LP | greedy objective | greedy / plan | CBC time | CBC objective | ILP / CBC | plan / CBC |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'

# one_run LABEL GPUPLAN SIZE LIMIT cbc|nocbc: plans gen-SIZE with GPUPLAN and prints its row
one_run() {
	local label=$1 exe=$2 s=$3 tl=$4 withcbc=$5 tag=$1
	local rc wall rss sum gpus reps ncl nwl st obj lp gr size ilp ct="" co="" res
	rm -rf "out-$tag"
	/usr/bin/time -f "%e %M" -o "time-$tag" "$exe" --verbose plan "gen-$s/scenario.yaml" -o "out-$tag" --format csv \
		--time-limit "$tl" --export-model "model-$tag.mps" >"plan-$tag.log" 2>"plan-$tag.err"
	rc=$?
	read -r wall rss <"time-$tag"
	sum=out-$tag/summary.csv
	if [ $rc -ne 0 ] || [ ! -f "$sum" ]; then
		echo "| $label | | | | ${tl} s | ${wall} s | $((rss / 1024)) MiB | exit $rc | | | | | | | | | | |"
		return
	fi
	gpus=$(awk -F, '!/^#/ && $1 != "name" {n += $2 * $4} END {print n}' "gen-$s/inventory.csv")
	reps=$(awk -F, '!/^#/ && $1 != "name" {n += $3} END {print n}' "gen-$s/workloads.csv")
	ncl=$(grep -vc -e '^#' -e '^name,' "gen-$s/inventory.csv")
	nwl=$(grep -vc -e '^#' -e '^name,' "gen-$s/workloads.csv")
	st=$(field status "$sum"); obj=$(field objective "$sum"); lp=$(field lp_bound "$sum")
	gr=$(field greedy_objective "$sum")
	size="$(field model_rows "$sum") x $(field model_columns "$sum") ($(field model_integer_columns "$sum"))"
	ilp=$(sed -n 's/^gpuplan-ilp: .* objective \([-0-9.]*\) .*/\1/p' "plan-$tag.err" | tail -1)
	if [ "$withcbc" = cbc ] && [ $cbc -eq 1 ]; then
		/usr/bin/time -f "%e" -o "cbctime-$s" timeout $((tl * 3 + 30)) cbc "model-$tag.mps" ratio 1e-4 sec "$tl" solve >"cbc-$s.log" 2>&1
		ct="$(tail -1 "cbctime-$s") s"
		co=$(sed -n 's/^Objective value: *\([-0-9.eE+]*\).*/\1/p' "cbc-$s.log" | tail -1)
		res=$(sed -n 's/^Result - //p' "cbc-$s.log" | head -1)
		case $res in *"time limit"*) ct="$ct (limit)" ;; *Optimal*) ct="$ct (optimal)" ;; esac
		[ -z "$co" ] && co="none"
		echo "$co" >"cbcobj-$s"
	elif [ -f "cbcobj-$s" ]; then
		co=$(cat "cbcobj-$s")
		ct="(as above)"
	fi
	awk -v s="$label" -v g="$gpus" -v r="$reps" -v ncl="$ncl" -v nwl="$nwl" -v size="$size" -v tl="$tl" \
		-v wall="$wall" -v rss="$rss" -v st="$st" -v obj="$obj" -v lp="$lp" -v gr="$gr" -v ct="$ct" \
		-v co="$co" -v ilp="$ilp" 'BEGIN {
		gap = ""; gratio = ""; r1 = ""; r2 = ""
		ilps = ilp == "" ? "n/a" : sprintf("%.2f", ilp)
		if (ilp != "" && ilp + 0 > 0) gap = sprintf("%.3f%%", (ilp - lp) / ilp * 100)
		if (obj + 0 > 0) gratio = sprintf("%.3f", gr / obj)
		if (co != "" && co != "none" && co + 0 > 0) {
			r2 = sprintf("%.4f", obj / co)
			if (ilp != "") r1 = sprintf("%.4f", ilp / co)
		}
		printf "| %s | %d / %d | %d / %d | %s | %d s | %.2f s | %d MiB | %s | %s | %.2f | %.2f | %s | %.2f | %s | %s | %s | %s | %s |\n",
			s, g, r, ncl, nwl, size, tl, wall, rss / 1024, st, ilps, obj, lp, gap, gr, gratio, ct, co, r1, r2
	}'
}

for s in $sizes; do
	case $s in XL) tl=60 ;; *) tl=10 ;; esac
	"$gpuplan" bench gen --size "$s" --seed "$seed" -o "gen-$s" >"gen-$s.log" 2>&1 || { echo "| $s | generator failed: $(cat "gen-$s.log") |"; continue; }
	rm -f "cbcobj-$s"
	one_run "$s" "$gpuplan" "$s" "$tl" cbc
	[ -n "$before" ] && one_run "$s-before" "$before" "$s" "$tl" nocbc
done

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
