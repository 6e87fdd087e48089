#!/bin/bash
# test_roadmap_one_period.sh - issue 63's acceptance: with one period, the
# roadmap equals `plan` to the cent on every golden scenario.
#
# usage: bash test_roadmap_one_period.sh GPUPLAN_EXE SRC_DIR WORK_DIR
# For every golden case whose command is `plan` (tests/cases/*/cmd), its
# scenario is copied (with the files beside it) and given one quarter:
# horizon_years 0.25 and `roadmap: {start: 2027-Q1, periods: 1,
# commitment_tail: charged}`: `charged` is plan's rule for a term that
# runs past the horizon (a licence subscription is charged whole, each in
# the year it is bought; formulation.md), where the roadmap's default
# `prorated` counts only the period's share of it.  `plan` and `roadmap`
# then run on that one file with the case's --greedy and --node-limit (the
# other options are the case's reports or its bad input, not the plan),
# and must agree on the total, each cost category, and the replicas
# placed and unplaced.  A scenario plan refuses, the roadmap must refuse
# with the same exit code and message.  Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"

# Cases not compared, each with its reason; the reason is checked.
excluded="plan-help plan-missing-scenario usage-plan-gap-range usage-plan-colgen-seconds-bad plan-example plan-html"
why_excluded() { # NAME CMD: 0 when the reason holds
	case $1 in
	plan-help) [ "$2" = "plan --help" ] ;;	# no scenario
	# the scenario it names is not there (the command line is refused first, exit 2, or it names none)
	plan-missing-scenario | usage-plan-gap-range | usage-plan-colgen-seconds-bad) local file && read -r _ file _ <<<"$2" &&
		[ ! -e "$src/tests/cases/$1/$file" ] ;;
	# data/example, compared greedily in plan-time-limit-stopped: proving its one quarter takes
	# the ILP about 45 s, plan's and the roadmap's, too long for the suite
	plan-example | plan-html) grep -q '^plan @SRC@/data/example/scenario.yaml .*--greedy' \
		"$src/tests/cases/plan-time-limit-stopped/cmd" && grep -q '^plan @SRC@/data/example/scenario.yaml ' <<<"$2" ;;
	*) return 1 ;;
	esac
}

summary() { # FILE METRIC: the value of a metric,value row
	awk -F, -v m="$2" '$1 == m { print $2; exit }' "$1"
}
period_col() { # FILE COLUMN: the column of periods.csv's one period
	awk -F, -v c="$2" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i } NR == 2 { print $h[c] }' "$1"
}

compared=0 refused=0
for dir in "$src"/tests/cases/*/; do
	name=$(basename "$dir")
	cmd=$(cat "$dir/cmd")
	case $cmd in plan | plan\ *) ;; *) continue ;; esac
	if [[ " $excluded " == *" $name "* ]]; then
		if why_excluded "$name" "$cmd"; then ok; else bad "$name is excluded, but its reason no longer holds"; fi
		continue
	fi
	# the scenario and the solver options of the case's command line
	set -f
	set -- ${cmd//@SRC@/$src}
	set +f
	shift
	scen="" opts=()
	while [ $# -gt 0 ]; do
		case $1 in
		--greedy) opts+=("$1") ;;
		--node-limit) opts+=("$1" "$2") && shift ;;
		-o | --format | --deploy | --deploy-namespace | --threads | --time-limit | --gap | --export-model) shift ;;
		-*) ;;
		*) scen=$1 ;;
		esac
		shift
	done
	case $scen in /*) ;; *) scen=$dir$scen ;; esac
	if [ ! -f "$scen" ]; then
		bad "$name: no scenario in '$cmd' (exclude it, with its reason)"
		continue
	fi
	sdir=$(cd "$(dirname "$scen")" && pwd)
	mkdir -p "$name" && cp -r "$sdir/." "$name/" && rm -rf "$name/expected" "$name/p" "$name/r"
	s=$name/one-period.yaml
	# paths up out of the scenario's folder still lead where they did
	sed -e '/^horizon_years:/d' -e "s#\(:[[:space:]]*\)\(\.\./\)#\1$sdir/\2#g" "$scen" >"$s"
	printf '\nhorizon_years: 0.25\nroadmap: {start: 2027-Q1, periods: 1, commitment_tail: charged}\n' >>"$s"
	"$exe" plan "$s" -o "$name/p" "${opts[@]}" >"$name/p.out" 2>"$name/p.err"
	prc=$?
	"$exe" roadmap "$s" -o "$name/r" "${opts[@]}" >"$name/r.out" 2>"$name/r.err"
	rrc=$?
	if [ "$prc" -ne 0 ] || [ "$rrc" -ne 0 ]; then
		if [ "$prc" -eq "$rrc" ] && cmp -s "$name/p.err" "$name/r.err"; then
			refused=$((refused + 1))
			ok
		else
			bad "$name: plan exited $prc ($(cat "$name/p.err")), roadmap $rrc ($(cat "$name/r.err"))"
		fi
		continue
	fi
	compared=$((compared + 1))
	p=$name/p/summary.csv r=$name/r/periods.csv
	want="cost $(summary "$p" cost_total_usd) placed $(summary "$p" replicas_placed) unplaced $(summary "$p" replicas_unplaced)"
	got="cost $(summary "$name/r/summary.csv" cost_usd) placed $(period_col "$r" placed) unplaced $(period_col "$r" unplaced)"
	for c in hardware cloud energy hypervisor license_vcs license_nvaie; do
		want="$want $c $(summary "$p" "cost_${c}_usd")"
		got="$got $c $(period_col "$r" "$c")"
	done
	if [ "$want" = "$got" ]; then ok; else bad "$name: plan $want; roadmap $got"; fi
done
# the loop found the golden plans (a renamed cmd file would compare nothing)
if [ "$compared" -ge 60 ]; then ok; else bad "only $compared golden plans compared"; fi
echo "$compared golden plans compared, $refused scenarios refused alike"
finish
