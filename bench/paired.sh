#!/usr/bin/env bash
# bench/paired.sh - gpuplan, CBC and HiGHS at equal wall time on the same exported
# model, seed by seed, on an idle machine and under a fixed oversubscription.
#
# usage: bench/paired.sh [-g GPUPLAN] [-s "S M"] [--seeds "1 2 3"] [--limit SECONDS]
#                        [--busy N] [--conditions "idle busy"] [--no-cbc] [--no-highs]
#                        [--doc FILE] [-w WORKDIR]
#
# Per size and seed (S 1-17 and M 1-12 unless --seeds): `gpuplan bench gen`, then the
# model gpuplan solves, exported once (`plan --export-model`, not timed).  Then, per
# condition, the three runs with the same wall-clock limit (S, M, L 10 s; XL 60 s;
# --limit for all): gpuplan's own plan (`plan --time-limit`), and CBC and HiGHS on the
# exported model (bench/lib/solve.sh, as bench/run.sh runs them), in an order that
# rotates with the seed so that none always runs first or last.  Conditions: `idle`
# (nothing else started; the load average is printed at each table's start and end)
# and `busy`, N busy-loop processes per core (--busy, default 2) started before the
# condition's runs and stopped after them (bench/lib/busy.sh; stopped too when the
# script is interrupted).  Each solver's plan is then made concrete by gpuplan (`plan
# --start`, dealt over real nodes, not timed, after the busy loops are stopped): the
# model's objective is only a bound on a plan's real cost.
# Prints per condition a table, a row per instance (gpuplan's plan and proven gap, each
# solver's plan made concrete, and gpuplan's over the cheapest of the others), and per
# size a line: how many seeds each solver's plan was cheaper than gpuplan's, and the
# geometric mean of gpuplan's over the cheapest other.  With --doc FILE the same text
# replaces what FILE holds between the lines `<!-- bench/paired.sh: begin -->` and
# `<!-- bench/paired.sh: end -->` (written to a temporary file, then renamed).
# Exit 2 on bad arguments, a missing build or a --doc FILE without both lines.
set -u
here=$(cd "$(dirname "$0")" && pwd)
src=$(dirname "$here")
gpuplan=$src/build/planner/gpuplan
npm_dir=${GPUPLAN_BENCH_NPM:-$src/build/npm}
sizes="S M"
seeds=""
limit=""
busy=2
conditions="idle busy"
cbc=1
highs=1
doc=""
work=${TMPDIR:-/tmp}/gpuplan-paired.$$
die() { echo "bench/paired.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	-g) gpuplan=$2; shift 2 ;;
	-s) sizes=$2; shift 2 ;;
	--seeds) seeds=$2; shift 2 ;;
	--limit) limit=$2; shift 2 ;;
	--busy) busy=$2; shift 2 ;;
	--conditions) conditions=$2; shift 2 ;;
	--no-cbc) cbc=0; shift ;;
	--no-highs) highs=0; shift ;;
	--doc) doc=$2; shift 2 ;;
	-w) work=$2; shift 2 ;;
	-h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
	*) die "unknown argument '$1'" ;;
	esac
done
case $gpuplan in /*) ;; *) gpuplan=$PWD/$gpuplan ;; esac
case $npm_dir in /*) ;; *) npm_dir=$PWD/$npm_dir ;; esac
case $doc in /* | "") ;; *) doc=$PWD/$doc ;; esac
[ -x "$gpuplan" ] || die "no gpuplan at $gpuplan (build first, or -g PATH)"
case $limit in "" | [1-9] | [1-9][0-9] | [1-9][0-9][0-9]) ;; *) die "--limit wants 1 to 999 seconds" ;; esac
case $busy in [1-8]) ;; *) die "--busy wants 1 to 8 loops per core" ;; esac
for s in $sizes; do case $s in S | M | L | XL) ;; *) die "unknown size '$s' (S, M, L, XL)" ;; esac; done
for n in $seeds; do case $n in *[!0-9]* | 0) die "seed '$n' is not a positive number" ;; esac; done
for c in $conditions; do case $c in idle | busy) ;; *) die "unknown condition '$c' (idle, busy)" ;; esac; done
begin='<!-- bench/paired.sh: begin -->' end='<!-- bench/paired.sh: end -->'
if [ -n "$doc" ]; then
	[ "$(grep -cxF -e "$begin" -e "$end" "$doc" 2>/dev/null)" = 2 ] || die "$doc: needs the lines '$begin' and '$end'"
fi
# shellcheck source=bench/lib/parse.sh
. "$here/lib/parse.sh"
# shellcheck source=bench/lib/setup.sh
. "$here/lib/setup.sh"
# shellcheck source=bench/lib/solve.sh
. "$here/lib/solve.sh"
# shellcheck source=bench/lib/busy.sh
. "$here/lib/busy.sh"
trap bench_busy_stop EXIT
trap 'bench_busy_stop; exit 130' INT
trap 'bench_busy_stop; exit 143' TERM
bench_setup
export LC_ALL=C
mkdir -p "$work" || exit 2
cd "$work" || exit 2
load() { cut -d' ' -f1 /proc/loadavg; }
runs="gpuplan"
[ $cbc -eq 0 ] || runs="$runs cbc"
[ $highs -eq 0 ] || runs="$runs highs"

# instances: "SIZE SEED LIMIT" lines; each generated and its model exported once
: >instances
for s in $sizes; do
	read -r tl list <<<"$(bench_size_runs "$s" "$limit" "$seeds")"
	for n in $list; do
		g=gen-$s$n
		"$gpuplan" bench gen --size "$s" --seed "$n" -o "$g" >"$g.log" 2>&1 || die "bench gen $s $n: $(head -1 "$g.log")"
		"$gpuplan" plan "$g/scenario.yaml" --time-limit 1 --export-model "model-$s$n.mps" -o "exp-$s$n" \
			--format csv >"exp-$s$n.log" 2>&1
		[ -s "model-$s$n.mps" ] || die "$s $n: no model exported: $(tail -1 "exp-$s$n.log")"
		echo "$s $n $tl" >>instances
	done
done

# timed RUN SIZE SEED LIMIT COND: one timed run; its result line into res-COND-RUN-SIZESEED
timed() {
	local run=$1 s=$2 n=$3 tl=$4 c=$5 tag=$5-$1-$2$3 rc
	case $run in
	gpuplan)
		rm -rf "out-$tag"
		timeout -k 30 $((tl * 3 + 60)) "$gpuplan" --verbose plan "gen-$s$n/scenario.yaml" -o "out-$tag" \
			--format csv --time-limit "$tl" >"plan-$tag.log" 2>&1
		rc=$?
		if [ -f "out-$tag/summary.csv" ] && [ $rc -le 1 ]; then
			bench_gpuplan "out-$tag/summary.csv" >"res-$tag"
		else
			echo "exit-$rc - - - -" >"res-$tag"
		fi ;;
	*) bench_solve "$run" "model-$s$n.mps" "$tl" "$tag" >"res-$tag" ;;
	esac
}

# condition COND: the timed runs of every instance (busy loops around them for busy),
# then the plans made concrete and the table
condition() {
	local c=$1 k=0 s n tl order r i
	echo "### $c$([ "$c" = busy ] && echo ": $busy busy-loop processes per core") (load average $(load) at the start)"
	echo
	[ "$c" = idle ] || bench_busy_start "$busy" "gpuplan-bench-busy-$$"
	while read -r s n tl; do
		# the order rotates with the instance: gpuplan first, second, third in turn
		# shellcheck disable=SC2086
		set -- $runs
		order=""
		for ((i = 0; i < $#; i++)); do
			r=$(((k + i) % $#)) && r=$((r + 1)) && order="$order ${!r}"
		done
		for r in $order; do timed "$r" "$s" "$n" "$tl" "$c"; done
		echo "$s $n $tl$order" >>"order-$c"
		k=$((k + 1))
	done <instances
	echo "load average $(load) at the end of the timed runs" >"end-$c"
	bench_busy_stop
	echo "| size | seed | limit | order | gpuplan | gap | CBC made concrete | HiGHS made concrete | gpuplan / cheapest other |"
	echo "|---|---|---|---|---|---|---|---|---|"
	: >"sum-$c"
	while read -r s n tl order; do
		local g="" gap="" cc=- hc=-
		read -r _ g _ gap _ <"res-$c-gpuplan-$s$n"
		[ $cbc -eq 0 ] || cc=$(bench_concrete "$gpuplan" "gen-$s$n/scenario.yaml" "$c-cbc-$s$n" "$tl")
		[ $highs -eq 0 ] || hc=$(bench_concrete "$gpuplan" "gen-$s$n/scenario.yaml" "$c-highs-$s$n" "$tl")
		awk -v s="$s" -v n="$n" -v tl="$tl" -v o="$order" -v g="$g" -v gap="$gap" -v cc="$cc" -v hc="$hc" 'BEGIN {
			best = cc != "-" ? cc : ""; if (hc != "-" && (best == "" || hc + 0 < best + 0)) best = hc
			printf "| %s | %s | %d s | %s | %s | %s | %s | %s | %s |\n", s, n, tl, o, num(g),
				gap == "-" || gap == "" ? "" : sprintf("%.3f%%", 100 * gap), num(cc), num(hc),
				g == "-" || best == "" ? "" : sprintf("%+.2f%%", 100 * (g / best - 1))
		}
		function num(x) { return x == "-" || x == "" ? "" : sprintf("%.2f", x) }'
		echo "$s $g $cc $hc" >>"sum-$c"
	done <"order-$c"
	echo
	awk '
		!($1 in n) { sz[++ns] = $1 }
		{ n[$1]++ }
		$2 != "-" && $3 != "-" && $3 + 0 < $2 - 0.005 { cbc[$1]++ }
		$2 != "-" && $4 != "-" && $4 + 0 < $2 - 0.005 { hi[$1]++ }
		{ b = $3 != "-" ? $3 : ""; if ($4 != "-" && (b == "" || $4 + 0 < b + 0)) b = $4 }
		$2 != "-" && $2 + 0 > 0 && b != "" && b + 0 > 0 { lg[$1] += log($2 / b); m[$1]++ }
		END {
			for (i = 1; i <= ns; i++) {
				s = sz[i]
				printf "%s: %d seeds; CBC cheaper than gpuplan on %d, HiGHS on %d; gpuplan / cheapest other: geometric mean %s\n",
					s, n[s], cbc[s], hi[s], m[s] ? sprintf("%+.2f%%", 100 * (exp(lg[s] / m[s]) - 1)) : "-"
			}
		}' "sum-$c"
	cat "end-$c"
	echo
}

# not in a pipe: the busy loops' pids and the traps stay in this shell
printf '%s%s%s; %s cores; %s UTC\n\n' "$("$gpuplan" --version)" "$cbc_version" "$highs_version" \
	"$(nproc)" "$(date -u '+%Y-%m-%d %H:%M')" >report.md
cat report.md
for c in $conditions; do
	condition "$c" >"table-$c"
	cat "table-$c" >>report.md
	cat "table-$c"
done
if [ -n "$doc" ]; then
	awk -v b="$begin" -v e="$end" -v rep="report.md" '
		$0 == b { print; while ((getline l < rep) > 0) print l; skip = 1; next }
		$0 == e { skip = 0 }
		!skip' "$doc" >"$doc.tmp.$$" || die "$doc: cannot rewrite"
	mv "$doc.tmp.$$" "$doc" || die "$doc: cannot rewrite"
fi
