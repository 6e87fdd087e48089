#!/usr/bin/env bash
# bench/paired.sh - gpuplan, CBC and HiGHS at equal wall time on the same exported
# model, seed by seed, on an idle machine and under a fixed oversubscription.
#
# usage: bench/paired.sh [-g GPUPLAN] [-s "S M"] [--seeds "1 2 3"] [--limit SECONDS]
#                        [--busy N] [--conditions "idle busy"] [--no-cbc] [--no-highs]
#                        [--known FILE] [--doc FILE] [-w WORKDIR] [--tabulate]
#
# Per size and seed (S 1-17 and M 1-12 unless --seeds): `gpuplan bench gen`, then the
# model gpuplan solves, exported once (`plan --export-model`, not timed: 1 s, and the
# size's limit when that built no model, as for XL).  Then, per
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
# Plans are compared as gpuplan compares them (docs/formulation.md, "Priority"): by the
# priority rule first (fewer replicas unplaced at the highest priority where two plans
# differ), then by cost; where the ILP's priority weights are capped a cheaper plan can
# lose by the rule, and gpuplan would never return it.  What a plan leaves unplaced per
# priority: gpuplan's from its unplaced.csv and the instance's workloads.csv, a solver's
# from the `plan --start` log's start line ("by priority P:N+P:N", a build since prio42),
# the best known's from its row (unplaced_by_priority); where one is not known (an older
# log, a row with "-") the two are compared by cost alone and the table says so.
# Prints per condition a table, a row per instance (gpuplan's plan and proven gap, each
# solver's plan made concrete ("none" where a run found no plan), marked "(more unplaced at priority P)" or "(fewer
# unplaced at priority P)" where the rule decides against gpuplan's, or "(by cost
# alone)"; gpuplan's over the best of the others, by the rule then cost, or "gpuplan
# more/fewer unplaced at priority P" where the rule decides; the instance's best known
# concrete plan from bench/best-known.csv (--known FILE for another) while its row fits
# the instance and the models gpuplan reads, and gpuplan's over it, or the same words),
# and per size two lines: on how many seeds (and which) each solver's plan was better
# than gpuplan's, on how many it was cheaper but worse by the rule, and the geometric
# mean of gpuplan's over the best other over the seeds the rule leaves to cost; the
# geometric mean and the largest of gpuplan's over the best known (the same seeds) and
# on how many seeds gpuplan's proven gap is at most 5 %.  Then a line per instance whose
# row is stale, and a "new best known" line (bench/lib/parse.sh's bench_best) per
# instance where a run's concrete plan is better than its row by the rule, then cost:
# replace the row with that run.
# --tabulate prints the tables of an earlier run again from its work directory (-w,
# which must hold its `instances`), against today's bench/best-known.csv, running
# nothing: no instance generated, no timed run, the concrete costs (and unplaced per
# priority) read from the `plan --start` logs the run left (the logs of a build before
# prio42 state no unplaced per priority: their plans are compared by cost alone, said
# so); it writes nothing into that directory (-s, --seeds
# and --limit are the run's own; --conditions picks among those it ran).
# With --doc FILE the same text replaces what FILE holds between the lines
# `<!-- bench/paired.sh: begin -->` and `<!-- bench/paired.sh: end -->` (written to a
# temporary file, then renamed).
# Exit 2 on bad arguments, a missing build, a --doc FILE without both lines or, with
# --tabulate, a work directory that holds no run.
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
known_csv=$src/bench/best-known.csv
tabulate=0
work=""
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
	--known) known_csv=$2; shift 2 ;;
	--tabulate) tabulate=1; shift ;;
	-w) work=$2; shift 2 ;;
	-h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
	*) die "unknown argument '$1'" ;;
	esac
done
case $gpuplan in /*) ;; *) gpuplan=$PWD/$gpuplan ;; esac
case $npm_dir in /*) ;; *) npm_dir=$PWD/$npm_dir ;; esac
case $doc in /* | "") ;; *) doc=$PWD/$doc ;; esac
case $known_csv in /*) ;; *) known_csv=$PWD/$known_csv ;; esac
if [ $tabulate -eq 1 ]; then
	[ -f "$work/instances" ] || die "--tabulate needs -w DIR, the work directory of a run (no ${work:-DIR}/instances)"
fi
work=${work:-${TMPDIR:-/tmp}/gpuplan-paired.$$}
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
# the files the tables are made from: the work directory's, or with --tabulate a
# directory of our own, so that the run's stays as it was
scratch=. tabdir=""
cleanup() {
	bench_busy_stop
	[ -z "$tabdir" ] || rm -rf "$tabdir"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM
export LC_ALL=C
cbc_version="" highs_version=""
if [ $tabulate -eq 1 ]; then
	tabdir=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-paired-tab.XXXXXX") || exit 2
	scratch=$tabdir
else
	bench_setup
	mkdir -p "$work" || exit 2
fi
cd "$work" || exit 2
load() { cut -d' ' -f1 /proc/loadavg; }
runs="gpuplan"
[ $cbc -eq 0 ] || runs="$runs cbc"
[ $highs -eq 0 ] || runs="$runs highs"
# what prices the instances besides their own files, for the rows of bench/best-known.csv
models=$(bench_models_digest "$gpuplan")

# instances: "SIZE SEED LIMIT" lines; each generated and its model exported once
[ $tabulate -eq 1 ] || : >instances
[ $tabulate -eq 1 ] || for s in $sizes; do
	read -r tl list <<<"$(bench_size_runs "$s" "$limit" "$seeds")"
	for n in $list; do
		g=gen-$s$n
		"$gpuplan" bench gen --size "$s" --seed "$n" -o "$g" >"$g.log" 2>&1 || die "bench gen $s $n: $(head -1 "$g.log")"
		# 1 s is enough to build S, M and L's model; XL's takes longer, so again with the size's limit
		rm -f "model-$s$n.mps"
		for t in 1 "$tl"; do
			"$gpuplan" plan "$g/scenario.yaml" --time-limit "$t" --export-model "model-$s$n.mps" -o "exp-$s$n" \
				--format csv >"exp-$s$n.log" 2>&1
			[ ! -s "model-$s$n.mps" ] || break
		done
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

# run_condition COND: the timed runs of every instance (busy loops around them for busy),
# in the order order-COND records; the load average at the start (head-COND) and end (end-COND)
run_condition() {
	local c=$1 k=0 s n tl order r i
	echo "### $c$([ "$c" = busy ] && echo ": $busy busy-loop processes per core") (load average $(load) at the start)" >"head-$c"
	[ "$c" = idle ] || bench_busy_start "$busy" "gpuplan-bench-busy-$$"
	: >"order-$c"
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
}

# concrete cbc|highs SIZESEED LIMIT COND: that solver's plan made concrete by gpuplan (plan
# --start, bench_concrete); with --tabulate read from the log that run left; "-" for none
concrete() {
	local tag=$4-$1-$2
	if [ $tabulate -eq 1 ]; then
		if [ -s "$tag.sol" ]; then bench_start "start-$tag.log"; else echo "-"; fi
	elif { [ "$1" = cbc ] && [ $cbc -eq 1 ]; } || { [ "$1" = highs ] && [ $highs -eq 1 ]; }; then
		bench_concrete "$gpuplan" "gen-$2/scenario.yaml" "$tag" "$3"
	else
		echo "-"
	fi
}

# result COND-RUN-SIZESEED: the run's result line (res-...; "-" words when it has none)
result() {
	if [ -s "res-$1" ]; then cat "res-$1"; else echo "- - - - -"; fi
}

# concrete_prio cbc|highs SIZESEED COND CONCRETE: what that solver's plan made concrete
# (CONCRETE, concrete's) leaves unplaced per priority, from the start line of its plan
# --start log (bench_start_prio); "-" for no plan or a log that does not state it
concrete_prio() {
	local tag=$3-$1-$2
	if [ "$4" != - ] && [ -s "$tag.sol" ]; then bench_start_prio "start-$tag.log"; else echo "-"; fi
}

# table COND: the condition's table from its runs' files, a row per instance (the plans
# made concrete first, when not --tabulate), then per size its two lines (summarize), the
# instances whose best known row is stale and those a run's concrete plan beats.  Plans
# are compared by the priority rule, then by cost (BENCH_PRIO_AWK): gpuplan's unplaced
# replicas per priority from its unplaced.csv and the instance's workloads.csv, a
# solver's from its plan --start log, the best known's from its row; by cost alone where
# one is not known, and the cell says "(by cost alone)"
table() {
	local c=$1 s n tl order g lb gap cc hc co cl ho hl known kn line gp cp hp kp
	if [ -f "head-$c" ]; then cat "head-$c"; elif [ -f "table-$c" ]; then head -1 "table-$c"; else echo "### $c"; fi
	echo
	echo "| size | seed | limit | order | gpuplan | gap | CBC made concrete | HiGHS made concrete | gpuplan / best other | best known | gpuplan / best known |"
	echo "|---|---|---|---|---|---|---|---|---|---|---|"
	: >"$scratch/sum-$c"
	: >"$scratch/known-$c"
	while read -r s n tl order; do
		read -r _ g lb gap _ <<<"$(result "$c-gpuplan-$s$n")"
		read -r _ co cl _ <<<"$(result "$c-cbc-$s$n")"
		read -r _ ho hl _ <<<"$(result "$c-highs-$s$n")"
		cc=$(concrete cbc "$s$n" "$tl" "$c")
		hc=$(concrete highs "$s$n" "$tl" "$c")
		gp=-
		[ "$g" = - ] || gp=$(bench_unplaced_prio "out-$c-gpuplan-$s$n/unplaced.csv" "gen-$s$n/workloads.csv")
		cp=$(concrete_prio cbc "$s$n" "$c" "$cc")
		hp=$(concrete_prio highs "$s$n" "$c" "$hc")
		known=$(bench_known "$known_csv" "$s$n" "$(bench_digest "gen-$s$n")" "$models")
		kn=${known%% *} kp=-
		[ "$kn" = - ] || kp=$(bench_known_prio "$known_csv" "$s$n")
		# which runs took place (their result files): "none" where one found no plan
		ran=""
		for r in gpuplan cbc highs; do [ -s "res-$c-$r-$s$n" ] && ran="$ran $r"; done
		awk -v s="$s" -v n="$n" -v tl="$tl" -v o="$order" -v g="$g" -v gap="$gap" -v cc="$cc" -v hc="$hc" \
			-v k="$kn" -v why="$known" -v gp="$gp" -v cp="$cp" -v hp="$hp" -v kp="$kp" -v sum="$scratch/sum-$c" -v ran="$ran " \
			"$BENCH_PRIO_AWK"' BEGIN {
			rc = g == "-" || cc == "-" ? "" : prio_cmp(cp, gp)
			rh = g == "-" || hc == "-" ? "" : prio_cmp(hp, gp)
			# the best other plan: by the rule, then by cost
			if (cc != "-") { b = cc; bp = cp }
			if (hc != "-" && (b == "" || better(hc, hp, cc, cp))) { b = hc; bp = hp }
			ro = g == "-" || b == "" ? "" : prio_cmp(gp, bp)
			rk = g == "-" || k == "-" ? "" : prio_cmp(gp, kp)
			xo = ro ~ /^-?1 / ? "prio" : g + 0 <= 0 || b + 0 <= 0 ? "-" : sprintf("%.12g", g / b)
			xk = rk ~ /^-?1 / ? "prio" : g + 0 <= 0 || k + 0 <= 0 ? "-" : sprintf("%.12g", g / k)
			printf "| %s | %s | %d s | %s | %s | %s | %s | %s | %s | %s | %s |\n", s, n, tl, o, plan(g, "gpuplan"),
				gap == "-" || gap == "" ? "" : sprintf("%.3f%%", 100 * gap), plan(cc, "cbc") note(rc), plan(hc, "highs") note(rh),
				ro == "" ? "" : ours(ro, xo), k != "-" ? num(k) : (why ~ /stale/ ? "stale" : ""), rk == "" ? "" : ours(rk, xk)
			printf "%s %s %s %s %s %s %s %s\n", s, n, verdict(cc, rc), verdict(hc, rh), xo, xk,
				gap == "" ? "-" : gap, rc == "?" || rh == "?" || rk == "?" ? "cost" : "-" >>sum
		}
		function num(x) { return x == "-" || x == "" ? "" : sprintf("%.2f", x) }
		# the plan of a run: "none" where it ran and found none, empty where it did not run
		function plan(x, r) { return x == "-" || x == "" ? (index(ran, " " r " ") ? "none" : "") : num(x) }
		function better(x, xp, y, yp,   r) { r = prio_cmp(xp, yp); return r ~ /^-1/ || (r !~ /^1/ && x + 0 < y + 0) }
		function note(r) {
			return r ~ /^-1/ ? " (fewer unplaced at priority " substr(r, 4) ")" : r ~ /^1/ ? " (more unplaced at priority " \
				substr(r, 3) ")" : r == "?" ? " (by cost alone)" : ""
		}
		function ours(r, x) {
			return r ~ /^-1/ ? "gpuplan fewer unplaced at priority " substr(r, 4) : r ~ /^1/ ? \
				"gpuplan more unplaced at priority " substr(r, 3) : x == "-" ? "" : sprintf("%+.2f%%", 100 * (x - 1)) \
				(r == "?" ? " (by cost alone)" : "")
		}
		# "better" than gpuplan by the rule, then by cost; "lost": cheaper, yet worse by the rule
		function verdict(x, r) {
			if (x == "-" || r == "") return "-"
			if (r ~ /^-1/) return "better"
			if (r ~ /^1/) return x + 0 < g - 0.005 ? "lost" : "-"
			return x + 0 < g - 0.005 ? "better" : "-"
		}'
		case $known in
		"- stale"*) echo "$s$n: bench/best-known.csv's row is ${known#- }" >>"$scratch/known-$c" ;;
		-*) ;;
		*)
			line=$(printf '%s\n' "gpuplan-$c $g $lb $g $gp" "CBC-$c $co $cl $cc $cp" "HiGHS-$c $ho $hl $hc $hp" |
				bench_best "$s$n" "$g" "$known" "$kp")
			case $line in *"new best known"*) echo "$line" >>"$scratch/known-$c" ;; esac ;;
		esac
	done <"order-$c"
	echo
	summarize <"$scratch/sum-$c"
	cat "$scratch/known-$c"
	[ ! -f "end-$c" ] || cat "end-$c"
	echo
}

# summarize < "SIZE SEED CBC HIGHS OTHER KNOWN GAP COST" lines (table's; "-": none): per
# size, in the order first seen, the seeds each solver's concrete plan is better than
# gpuplan's on (CBC, HIGHS "better"; by the priority rule, then cost), those it is cheaper
# on yet worse by the rule ("lost"), and the geometric mean of gpuplan's cost over the best
# other's (OTHER, a ratio over the seeds where the rule leaves it to cost; "prio": the rule
# decided, those seeds listed); then the geometric mean and the largest of gpuplan's over
# the best known (KNOWN, the same way) and on how many seeds gpuplan's proven gap is at
# most 5 %; and when some plan was compared by cost alone (COST "cost"), why
summarize() {
	awk '
		!($1 in n) { sz[++ns] = $1 }
		{ n[$1]++ }
		$3 == "better" { cbc[$1]++; cbcs[$1] = cbcs[$1] (cbc[$1] > 1 ? ", " : "") $2 }
		$4 == "better" { hi[$1]++; his[$1] = his[$1] (hi[$1] > 1 ? ", " : "") $2 }
		$3 == "lost" { cbl[$1]++; cbls[$1] = cbls[$1] (cbl[$1] > 1 ? ", " : "") $2 }
		$4 == "lost" { hil[$1]++; hils[$1] = hils[$1] (hil[$1] > 1 ? ", " : "") $2 }
		$5 == "prio" { po[$1]++; pos[$1] = pos[$1] (po[$1] > 1 ? ", " : "") $2 }
		$6 == "prio" { pk[$1]++; pks[$1] = pks[$1] (pk[$1] > 1 ? ", " : "") $2 }
		$5 != "-" && $5 != "prio" { lg[$1] += log($5); m[$1]++ }
		$6 != "-" && $6 != "prio" {
			r = $6; lk[$1] += log(r); mk[$1]++
			if (!($1 in top) || r > top[$1]) { top[$1] = r; tops[$1] = $2 }
		}
		$7 != "-" && $7 + 0 <= 0.05 + 1e-12 { g5[$1]++ }
		$8 == "cost" { cost = 1 }
		function by(c, list) { return c ? sprintf(" (decided by priority on %d: %s)", c, list) : "" }
		END {
			for (i = 1; i <= ns; i++) {
				s = sz[i]
				printf "%s: %d seeds; better than gpuplan (priority, then cost): CBC on %d%s, HiGHS on %d%s; " \
					"cheaper but worse by priority: CBC on %d%s, HiGHS on %d%s; gpuplan / best other: geometric mean %s\n",
					s, n[s], cbc[s], cbc[s] ? " (" cbcs[s] ")" : "", hi[s], hi[s] ? " (" his[s] ")" : "",
					cbl[s], cbl[s] ? " (" cbls[s] ")" : "", hil[s], hil[s] ? " (" hils[s] ")" : "",
					(m[s] ? sprintf("%+.2f%% over %d seeds", 100 * (exp(lg[s] / m[s]) - 1), m[s]) : "-") by(po[s], pos[s])
				printf "%s: gpuplan / best known: %s%s; proven gap at most 5%% on %d of %d seeds\n", s,
					mk[s] ? sprintf("geometric mean %+.2f%%, at most %+.2f%% (seed %s), over %d seeds",
						100 * (exp(lk[s] / mk[s]) - 1), 100 * (top[s] - 1), tops[s], mk[s]) : \
						pk[s] ? "no seed the rule leaves to cost" : "no seed with a best known", by(pk[s], pks[s]), g5[s], n[s]
			}
			if (cost)
				print "(by cost alone): what one of the two plans leaves unplaced per priority is not known (a plan --start log " \
					"of a build before prio42 does not state it, nor a row of bench/best-known.csv with \"-\"): compared by cost alone"
		}'
}

# not in a pipe: the busy loops' pids and the traps stay in this shell
if [ $tabulate -eq 1 ] && [ -f report.md ]; then
	head -1 report.md >"$scratch/report.md"
else
	printf '%s%s%s; %s cores; %s UTC\n' "$("$gpuplan" --version)" "$cbc_version" "$highs_version" \
		"$(nproc)" "$(date -u '+%Y-%m-%d %H:%M')" >"$scratch/report.md"
fi
echo >>"$scratch/report.md"
cat "$scratch/report.md"
for c in $conditions; do
	if [ $tabulate -eq 1 ]; then
		[ -f "order-$c" ] || continue
	else
		run_condition "$c"
	fi
	table "$c" >"$scratch/table-$c"
	cat "$scratch/table-$c" >>"$scratch/report.md"
	cat "$scratch/table-$c"
done
if [ -n "$doc" ]; then
	awk -v b="$begin" -v e="$end" -v rep="$scratch/report.md" '
		$0 == b { print; while ((getline l < rep) > 0) print l; skip = 1; next }
		$0 == e { skip = 0 }
		!skip' "$doc" >"$doc.tmp.$$" || die "$doc: cannot rewrite"
	mv "$doc.tmp.$$" "$doc" || die "$doc: cannot rewrite"
fi
