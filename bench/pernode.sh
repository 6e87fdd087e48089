#!/usr/bin/env bash
# bench/pernode.sh - how far gpuplan's plans are from the concrete optimum, where a
# solver can tell: each generated instance is also written with every node a class of
# its own (bench/lib/pernode.sh), its model exported with every arc integer, and that
# model, the concrete problem itself, solved by HiGHS (npm `highs`, one thread).
#
# usage: bench/pernode.sh -g GPUPLAN [-s S|M|L|XL] [--seeds "1 2 3"] [--limit SECONDS]
#                         [--solver-limit SECONDS] [-w WORKDIR]
#
# For each seed of the size (S 1-17 unless --seeds; `gpuplan bench gen`): gpuplan plans
# the instance as it is, with the size's time limit (S, M, L 10 s; XL 60 s; --limit);
# then the per-node instance's model (`plan --export-model`) gets every arc column
# integer and HiGHS solves it for --solver-limit seconds (default 120), and gpuplan
# makes HiGHS's plan concrete (`plan --start`, on the per-node instance: the same
# nodes and costs).  A row per seed: gpuplan's plan, its proven bound and gap; HiGHS's
# status, its plan made concrete and its bound; then the cheaper concrete plan of the
# two and the higher bound, and gpuplan's plan over each.  Both bounds bound every
# concrete plan (docs/benchmarks.md, "MIR cuts in the bound search, and the per-node model,
# session 32"), so the last
# column is a proven gap too.  The per-node model grows with the nodes: HiGHS finds
# plans of it for bench S, not for bench M (215 nodes) in 400 s.
# A built gpuplan reads models/ from its own source tree.  Exit 2 on bad arguments,
# a missing build or no HiGHS.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/.." && pwd)
gpuplan=""
size=S
seeds=""
limit=""
slimit=120
work=${TMPDIR:-/tmp}/gpuplan-pernode.$$
npm_dir=${GPUPLAN_BENCH_NPM:-$src/build/npm}
while [ $# -gt 0 ]; do
	case $1 in
	-g) gpuplan=$2; shift 2 ;;
	-s) size=$2; shift 2 ;;
	--seeds) seeds=$2; shift 2 ;;
	--limit) limit=$2; shift 2 ;;
	--solver-limit) slimit=$2; shift 2 ;;
	-w) work=$2; shift 2 ;;
	-h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
	*) echo "bench/pernode.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
[ -n "$gpuplan" ] || { echo "bench/pernode.sh: give the build, -g GPUPLAN" >&2; exit 2; }
[ -x "$gpuplan" ] || { echo "bench/pernode.sh: no gpuplan at $gpuplan" >&2; exit 2; }
case $gpuplan in /*) ;; *) gpuplan=$PWD/$gpuplan ;; esac
case $npm_dir in /*) ;; *) npm_dir=$PWD/$npm_dir ;; esac
case $size in S | M | L | XL) ;; *) echo "bench/pernode.sh: unknown size '$size' (S, M, L, XL)" >&2; exit 2 ;; esac
for v in "$limit" "$slimit"; do
	case $v in "" | [1-9] | [1-9][0-9] | [1-9][0-9][0-9] | [1-9][0-9][0-9][0-9]) ;;
	*) echo "bench/pernode.sh: a limit wants 1 to 9999 seconds" >&2; exit 2 ;; esac
done
[ -n "$slimit" ] || { echo "bench/pernode.sh: a limit wants 1 to 9999 seconds" >&2; exit 2; }
for n in $seeds; do
	case $n in *[!0-9]* | 0) echo "bench/pernode.sh: seed '$n' is not a positive number" >&2; exit 2 ;; esac
done
# shellcheck source=bench/lib/parse.sh
. "$here/lib/parse.sh"
# shellcheck source=bench/lib/pernode.sh
. "$here/lib/pernode.sh"
# shellcheck source=bench/lib/setup.sh
. "$here/lib/setup.sh"
# shellcheck disable=SC2034 # bench_setup reads both
cbc=0 highs=1
bench_setup
[ $highs -eq 1 ] || { echo "bench/pernode.sh: no HiGHS, nothing to measure" >&2; exit 2; }
export LC_ALL=C
mkdir -p "$work" || exit 2
cd "$work" || exit 2

case $size in XL) tl=60 list=1 ;; L) tl=10 list="1 2 3 4" ;; M) tl=10 list=$(seq 1 12) ;; S) tl=10 list=$(seq 1 17) ;; esac
[ -z "$limit" ] || tl=$limit
[ -z "$seeds" ] || list=$seeds
echo "gpuplan: $gpuplan ($("$gpuplan" --version))${highs_version}; $(nproc) cores; load average $(cut -d' ' -f1 /proc/loadavg) at the start; $(date -u '+%Y-%m-%d %H:%M') UTC"
echo "gpuplan ${tl} s; HiGHS ${slimit} s on the per-node model, integer arcs"
echo
echo "| seed | gpuplan | its bound | its gap | HiGHS, per node | made concrete | HiGHS's bound | gpuplan over the best plan | best bound | gpuplan over it |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for n in $list; do
	g=gen-$size$n
	if [ ! -f "$g/scenario.yaml" ] && ! "$gpuplan" bench gen --size "$size" --seed "$n" -o "$g" >"$g.log" 2>&1; then
		echo "| $n | generator failed: $(head -1 "$g.log") |"
		continue
	fi
	rm -rf "out-$n" "node-$n" "out-node-$n" "start-$n"
	rg="exit - - - -"
	if timeout -k 30 $((tl * 3 + 60)) "$gpuplan" --verbose plan "$g/scenario.yaml" -o "out-$n" --format csv \
		--time-limit "$tl" >"plan-$n.log" 2>&1 || [ -f "out-$n/summary.csv" ]; then
		rg=$(bench_gpuplan "out-$n/summary.csv")
	fi
	mkdir -p "node-$n"
	cp "$g/scenario.yaml" "$g/workloads.csv" "node-$n/"
	rh="no-model - - - -" conc=-
	# the model alone: written before the solve, whatever the limit (1 s)
	if pernode_inventory "$g/inventory.csv" "node-$n/inventory.csv" &&
		"$gpuplan" plan "node-$n/scenario.yaml" -o "out-node-$n" --format csv --time-limit 1 \
			--export-model "node-$n.mps" >"node-$n.log" 2>&1 && pernode_int_arcs "node-$n.mps" "node-$n-int.mps"; then
		rm -f "node-$n.sol"
		timeout -k 30 $((slimit * 2 + 60)) env NODE_PATH="$npm_dir/node_modules" \
			node "$here/lib/highs.js" "node-$n-int.mps" "$slimit" 1e-4 "node-$n.sol" >"highs-$n.log" 2>&1
		rh=$(bench_highs "highs-$n.log")
		if [ -s "node-$n.sol" ]; then
			"$gpuplan" --verbose plan "node-$n/scenario.yaml" --start "node-$n.sol" -o "start-$n" --format csv \
				--node-limit 1 >"start-$n.log" 2>&1
			conc=$(bench_start "start-$n.log")
		fi
	fi
	pernode_row "$n" "$rg" "$rh" "$conc"
done
echo
echo "load average $(cut -d' ' -f1 /proc/loadavg) at the end"
