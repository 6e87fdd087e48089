#!/usr/bin/env bash
# bench/seeds.sh - a change of the solver, seed by seed: two gpuplan builds on many
# generated instances of each size, one run at a time, and whether the new build's
# plans are cheaper by more than the base build's own spread from run to run.
#
# usage: bench/seeds.sh -g NEW_GPUPLAN -b BASE_GPUPLAN [-s "S M L XL"] [--seeds "1 2 3"]
#                       [--limit SECONDS] [--repeat] [-w WORKDIR]
#
# bench/run.sh measures one instance per size against CBC and HiGHS; under a time limit
# the plan of one instance is also a draw of the clock (bench M seed 10 moved by 2.6%
# between two runs of the same build), so one instance cannot tell a change from a
# draw.  Here each size's seeds (S 1-17, M 1-12, L 1-4, XL 1 unless --seeds) are made
# with `gpuplan bench gen --size SIZE --seed N` (by the base build), and each instance
# is planned by the base build, then the new one, then with --repeat the base build once
# more, each with the size's time limit (S, M, L 10 s; XL 60 s; --limit for all) and
# nothing else running; the objective and proven gap are read from each plan's
# summary.csv (bench/lib/parse.sh).  A built gpuplan reads models/ from its own source
# tree: build the base in a worktree of the base commit.
# Prints a row per instance (the base's and the new plan, the change, the base's
# second run against its first, and the new plan against the instance's best known
# concrete plan in bench/best-known.csv, while its row fits the instance and the models
# the new build reads: the same bytes of each; "new best known" where the new plan is better
# than the row by the priority rule, then by cost) and per size a line: the geometric mean of new / base
# and how many seeds are cheaper or dearer by more than the base's own spread (the
# widest change between its two runs; without --repeat every change counts).
# Exit 2 on bad arguments or a missing build.
set -u
here=$(cd "$(dirname "$0")" && pwd)
new=""
base=""
sizes="M L"
seeds=""
limit=""
repeat=0
work=${TMPDIR:-/tmp}/gpuplan-seeds.$$
while [ $# -gt 0 ]; do
	case $1 in
	-g) new=$2; shift 2 ;;
	-b) base=$2; shift 2 ;;
	-s) sizes=$2; shift 2 ;;
	--seeds) seeds=$2; shift 2 ;;
	--limit) limit=$2; shift 2 ;;
	--repeat) repeat=1; shift ;;
	-w) work=$2; shift 2 ;;
	-h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
	*) echo "bench/seeds.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
for exe in "$new" "$base"; do
	[ -n "$exe" ] || { echo "bench/seeds.sh: give both builds, -g NEW and -b BASE" >&2; exit 2; }
	[ -x "$exe" ] || { echo "bench/seeds.sh: no gpuplan at $exe" >&2; exit 2; }
done
case $new in /*) ;; *) new=$PWD/$new ;; esac
case $base in /*) ;; *) base=$PWD/$base ;; esac
case $limit in "" | [1-9] | [1-9][0-9] | [1-9][0-9][0-9]) ;; *) echo "bench/seeds.sh: --limit wants 1 to 999 seconds" >&2; exit 2 ;; esac
for s in $sizes; do
	case $s in S | M | L | XL) ;; *) echo "bench/seeds.sh: unknown size '$s' (S, M, L, XL)" >&2; exit 2 ;; esac
done
for n in $seeds; do
	case $n in *[!0-9]* | 0) echo "bench/seeds.sh: seed '$n' is not a positive number" >&2; exit 2 ;; esac
done
# shellcheck source=bench/lib/parse.sh
. "$here/lib/parse.sh"
export LC_ALL=C
mkdir -p "$work" || exit 2
cd "$work" || exit 2

# plan TAG EXE INSTANCE LIMIT: one plan; prints its result line (bench_gpuplan)
plan() {
	local tag=$1 exe=$2 g=$3 tl=$4 rc
	rm -rf "out-$tag"
	timeout -k 30 $((tl * 3 + 60)) "$exe" --verbose plan "$g/scenario.yaml" -o "out-$tag" --format csv \
		--time-limit "$tl" >"plan-$tag.log" 2>&1
	rc=$?
	if [ -f "out-$tag/summary.csv" ] && [ $rc -le 1 ]; then
		bench_gpuplan "out-$tag/summary.csv"
	else
		echo "exit-$rc - - - -"
	fi
}

echo "new: $new ($("$new" --version)); base: $base ($("$base" --version)); $(nproc) cores; load average $(cut -d' ' -f1 /proc/loadavg) at the start; $(date -u '+%Y-%m-%d %H:%M') UTC"
echo
echo "| size | seed | base | gap | new | gap | new / base | base again / base | new / best known |"
echo "|---|---|---|---|---|---|---|---|---|"
: >objectives
rm -f newbest
# the models the new build plans with, for the rows of bench/best-known.csv
models=$(bench_models_digest "$new")
for s in $sizes; do
	read -r tl list <<<"$(bench_size_runs "$s" "$limit" "$seeds")"
	for n in $list; do
		g=gen-$s$n
		if [ ! -f "$g/scenario.yaml" ] && ! "$base" bench gen --size "$s" --seed "$n" -o "$g" >"$g.log" 2>&1; then
			echo "| $s | $n | generator failed: $(head -1 "$g.log") |"
			continue
		fi
		rb=$(plan "$s$n-base" "$base" "$g" "$tl")
		rn=$(plan "$s$n-new" "$new" "$g" "$tl")
		again=-
		if [ $repeat -eq 1 ]; then
			read -r _ again _ <<<"$(plan "$s$n-again" "$base" "$g" "$tl")"
		fi
		# the best known concrete plan (bench/best-known.csv) while its row fits this instance
		known=$(bench_known "$here/best-known.csv" "$s$n" "$(bench_digest "$g")" "$models")
		bench_pair_row "$s" "$n" "$rb" "$rn" "$again" "${known%% *}"
		# a new best known: better than the row by the priority rule, then by cost
		case $known in -*) ;; *) read -r _ on _ <<<"$rn"
			bench_better "$on" "$(bench_unplaced_prio "out-$s$n-new/unplaced.csv" "$g/workloads.csv")" \
				"${known%% *}" "$(bench_known_prio "$here/best-known.csv" "$s$n")" &&
				echo "$s$n: new best known: $on (the new build): update bench/best-known.csv" >>newbest ;;
		esac
		read -r _ ob _ <<<"$rb"
		read -r _ on _ <<<"$rn"
		echo "$s $ob $on $again" >>objectives
	done
done
echo
bench_pair_summary <objectives
[ ! -f newbest ] || cat newbest
