#!/bin/bash
# test_bench_paired.sh - bench/paired.sh: its argument checks (exit 2, nothing run),
# --tabulate on a work directory made here (every figure of its table and summary lines
# from given result files, a row of bench/best-known.csv that fits, a stale one and
# none, "new best known" lines; plans compared by the priority rule, then cost: a cheaper
# plan that loses by priority, a dearer one that wins, and the fallback to cost alone
# for logs without unplaced replicas per priority; the directory left as it was), one run on bench S
# seed 1 at 1 s under both conditions (a row per condition in the --doc file between
# its two marker lines, the text around them kept, no busy loop left behind, the
# same text again from --tabulate), and SIGTERM during the busy condition (exit 143,
# the loops stopped).  CBC and HiGHS take part when installed (.ci/setup --tests
# installs both); in the real run only the form of the rows is checked, never a time
# or a cost.
#
# usage: bash test_bench_paired.sh GPUPLAN_EXE SRC_DIR WORK_DIR
# Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
export LC_ALL=C
# shellcheck source=bench/lib/parse.sh
. "$src/bench/lib/parse.sh"
paired=$src/bench/paired.sh
opts=()
command -v cbc >/dev/null 2>&1 || opts+=(--no-cbc)
{ [ -d "$src/build/npm/node_modules/highs" ] && command -v node >/dev/null 2>&1; } || opts+=(--no-highs)
loops() { pgrep -fc "gpuplan-bench-busy-" || true; }

# expect WHAT GOT WANT
expect() {
	if [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', want '$3'"; fi
}

# argument errors: exit 2 with the script's name, before anything runs
printf 'no markers here\n' >plain.md
mkdir -p empty
for a in "-s Q" "--busy 9" "--limit 0" "--seeds x" "--conditions calm" "--bogus" "--doc plain.md" "--tabulate" \
	"--tabulate -w empty"; do
	# shellcheck disable=SC2086
	case $a in *-w*) w=() ;; *) w=(-w args) ;; esac
	# shellcheck disable=SC2086
	bash "$paired" -g "$exe" $a "${w[@]}" >args.out 2>&1
	expect "bench/paired.sh $a: exit code" "$?" "2"
	if grep -q '^bench/paired.sh: ' args.out && [ ! -d args ]; then ok; else bad "bench/paired.sh $a: $(cat args.out)"; fi
done

# --tabulate on a run's files made here: S1 with a best known that fits (a row without
# unplaced_by_priority) and that CBC's concrete plan beats, its plan --start log and gpuplan's run
# without unplaced replicas per priority (an older build's: by cost alone); S2 whose row was
# checked against other models (stale) and where HiGHS's plan is cheaper than gpuplan's but leaves
# more unplaced at priority 10 (it loses), CBC's as gpuplan's by priority and dearer; S3 where
# HiGHS's plan is as gpuplan's by priority and cheaper (it wins), CBC's dearer but with fewer
# unplaced at priority 10 (it wins, and is the best other and a new best known by priority);
# M1 with no row and no solver; HiGHS on S1 ran and found no plan ("none"; no cell where a
# solver did not run)
mkdir -p fake && cd fake || exit 1
printf 'S 1 10\nS 2 10\nS 3 10\nM 1 10\n' >instances
printf 'gpuplan 9.9.9, CBC 2.10.8; 2 cores; 2026-01-01 00:00 UTC\n\nold tables\n' >report.md
echo "### idle (load average 0.50 at the start)" >head-idle
echo "load average 0.60 at the end of the timed runs" >end-idle
printf 'S 1 10 gpuplan cbc highs\nS 2 10 cbc highs gpuplan\nS 3 10 highs gpuplan cbc\nM 1 10 highs gpuplan cbc\n' >order-idle
for i in S1 S2 S3 M1; do
	mkdir -p "gen-$i" && for f in scenario.yaml inventory.csv; do echo "$i $f" >"gen-$i/$f"; done
	printf '# %s\nname,tenant,replicas,priority\na,t,5,10\nb,t,5,1\n' "$i" >"gen-$i/workloads.csv"
done
mkdir -p out-idle-gpuplan-S2 out-idle-gpuplan-S3 out-idle-gpuplan-M1
printf 'workload,tenant,replicas,reason\nb,t,3,"no room, none"\n' >out-idle-gpuplan-S2/unplaced.csv
printf 'workload,tenant,replicas,reason\na,t,1,x\n' >out-idle-gpuplan-S3/unplaced.csv
printf 'workload,tenant,replicas,reason\n' >out-idle-gpuplan-M1/unplaced.csv
echo "feasible 100.00 96.00 0.040000 50" >res-idle-gpuplan-S1
echo "time-limit 90 80 0.111111 -" >res-idle-cbc-S1
echo "1 x 1" >idle-cbc-S1.sol
echo "gpuplan-ilp: start idle-cbc-S1.sol (CBC, 'Stopped', objective 90): objective 90.00 unplaced 0; made concrete 98.00 unplaced 0" >start-idle-cbc-S1.log
echo "no-plan - 70 - -" >res-idle-highs-S1
echo "feasible 200.00 180.00 0.100000 100" >res-idle-gpuplan-S2
echo "optimal 150 150 0.000000 -" >res-idle-cbc-S2
echo "1 x 1" >idle-cbc-S2.sol
echo "gpuplan-ilp: start idle-cbc-S2.sol (CBC): objective 150.00 unplaced 3; made concrete 210.00 unplaced 3 by priority 1:3" >start-idle-cbc-S2.log
echo "time-limit 190 100 0.473684 -" >res-idle-highs-S2
echo "1 x 1" >idle-highs-S2.sol
echo "gpuplan-ilp: start idle-highs-S2.sol (HiGHS): objective 190.00 unplaced 2; made concrete 190.00 unplaced 2 by priority 10:1+1:1" >start-idle-highs-S2.log
echo "feasible 300.00 290.00 0.033333 250" >res-idle-gpuplan-S3
echo "time-limit 315 280 0.111111 -" >res-idle-cbc-S3
echo "1 x 1" >idle-cbc-S3.sol
echo "gpuplan-ilp: start idle-cbc-S3.sol (CBC): objective 315.00 unplaced 0; made concrete 320.00 unplaced 0 by priority none" >start-idle-cbc-S3.log
echo "optimal 295 295 0.000000 -" >res-idle-highs-S3
echo "1 x 1" >idle-highs-S3.sol
echo "gpuplan-ilp: start idle-highs-S3.sol (HiGHS): objective 295.00 unplaced 1; made concrete 295.00 unplaced 1 by priority 10:1" >start-idle-highs-S3.log
echo "feasible 1000.00 990.00 0.010000 900" >res-idle-gpuplan-M1
models=$(bench_models_digest "$exe")
{
	echo "instance,size,seed,objective_usd,engine,build,command,solver_time_s,measured,source,models_sha256,instance_sha256"
	echo "S1,S,1,99.00,HiGHS 1.15.1,abc1234,bench/pernode.sh,60,2026-11-29,docs,$models,$(bench_digest gen-S1)"
	echo "S2,S,2,180.00,gpuplan,abc1234,gpuplan plan,10,2026-11-29,docs,0000,$(bench_digest gen-S2)"
	echo "S3,S,3,310.00,gpuplan,abc1234,gpuplan plan,10,2026-11-29,docs,$models,$(bench_digest gen-S3),10:1"
} >../known.csv
cd .. || exit 1
before=$(cd fake && find . -type f -exec sha256sum {} + | sort)
bash "$paired" -g "$exe" --tabulate --known known.csv -w fake >tab.out 2>tab.err
expect "--tabulate exit code" "$?" "0"
expect "--tabulate: stderr" "$(cat tab.err)" ""
expect "--tabulate: the work directory as it was" "$(cd fake && find . -type f -exec sha256sum {} + | sort)" "$before"
cat >tab.want <<'EOF'
gpuplan 9.9.9, CBC 2.10.8; 2 cores; 2026-01-01 00:00 UTC

### idle (load average 0.50 at the start)

| size | seed | limit | order | gpuplan | gap | CBC made concrete | HiGHS made concrete | gpuplan / best other | best known | gpuplan / best known |
|---|---|---|---|---|---|---|---|---|---|---|
| S | 1 | 10 s | gpuplan cbc highs | 100.00 | 4.000% | 98.00 (by cost alone) | none | +2.04% (by cost alone) | 99.00 | +1.01% (by cost alone) |
| S | 2 | 10 s | cbc highs gpuplan | 200.00 | 10.000% | 210.00 | 190.00 (more unplaced at priority 10) | -4.76% | stale |  |
| S | 3 | 10 s | highs gpuplan cbc | 300.00 | 3.333% | 320.00 (fewer unplaced at priority 10) | 295.00 | gpuplan more unplaced at priority 10 | 310.00 | -3.23% |
| M | 1 | 10 s | highs gpuplan cbc | 1000.00 | 1.000% |  |  |  |  |  |

S: 3 seeds; better than gpuplan (priority, then cost): CBC on 2 (1, 3), HiGHS on 1 (3); cheaper but worse by priority: CBC on 0, HiGHS on 1 (2); gpuplan / best other: geometric mean -1.42% over 2 seeds (decided by priority on 1: 3)
S: gpuplan / best known: geometric mean -1.13%, at most +1.01% (seed 1), over 2 seeds; proven gap at most 5% on 2 of 3 seeds
M: 1 seeds; better than gpuplan (priority, then cost): CBC on 0, HiGHS on 0; cheaper but worse by priority: CBC on 0, HiGHS on 0; gpuplan / best other: geometric mean -
M: gpuplan / best known: no seed with a best known; proven gap at most 5% on 1 of 1 seeds
(by cost alone): what one of the two plans leaves unplaced per priority is not known (a plan --start log of a build before prio42 does not state it, nor a row of bench/best-known.csv with "-"): compared by cost alone
S1: best plan 90.00 (CBC-idle); best bound 96.00 (gpuplan-idle); gpuplan 4.000% above it; best known 99.00 (HiGHS 1.15.1, build abc1234, 60 s, 2026-11-29); gpuplan +1.010% over it; new best known: 98.00 (CBC-idle), by cost alone: unplaced per priority not known: update bench/best-known.csv
S2: bench/best-known.csv's row is stale (the models differ from those the row was checked with: see the header of bench/best-known.csv)
S3: best plan 295.00 (HiGHS-idle); best bound 295.00 (HiGHS-idle); gpuplan 1.667% above it; best known 310.00 (gpuplan, build abc1234, 10 s, 2026-11-29); gpuplan -3.226% over it; new best known: 320.00 (CBC-idle), fewer unplaced at priority 10 than the row: update bench/best-known.csv
load average 0.60 at the end of the timed runs

EOF
if diff tab.want tab.out >tab.diff; then ok; else bad "--tabulate's tables: $(cat tab.diff)"; fi
# the conditions asked for that the run has; --doc from the tables
printf 'a\n<!-- bench/paired.sh: begin -->\nold\n<!-- bench/paired.sh: end -->\nb\n' >tab.md
bash "$paired" -g "$exe" --tabulate --known known.csv -w fake --conditions "busy idle" --doc tab.md >tab2.out 2>&1
expect "--tabulate, a condition the run lacks: exit code" "$?" "0"
if cmp -s tab.out tab2.out; then ok; else bad "--tabulate with busy asked: $(diff tab.out tab2.out)"; fi
expect "--tabulate --doc" "$(cat tab.md)" "$(printf 'a\n<!-- bench/paired.sh: begin -->\n%s\n\n<!-- bench/paired.sh: end -->\nb' "$(cat tab.want)")"

# one run, both conditions, into a document
printf '# doc\nbefore\n<!-- bench/paired.sh: begin -->\nold table\n<!-- bench/paired.sh: end -->\nafter\n' >doc.md
bash "$paired" -g "$exe" -s S --seeds 1 --limit 1 --busy 1 "${opts[@]}" --doc doc.md -w run >run.out 2>run.err
expect "bench/paired.sh exit code" "$?" "0"
expect "busy loops left after the run" "$(loops)" "0"
expect "text around the markers kept" "$(sed -n '1,3p;$p' doc.md | tr '\n' '|')" \
	"# doc|before|<!-- bench/paired.sh: begin -->|after|"
expect "old table replaced" "$(grep -c 'old table' doc.md)" "0"
expect "a table per condition" "$(grep -cE '^### (idle|busy: 1 busy-loop processes per core) \(load average [0-9.]+ at the start\)$' doc.md)" "2"
expect "a row per condition" "$(grep -cE '^\| S \| 1 \| 1 s \| gpuplan( cbc)?( highs)? \| [0-9]+\.[0-9]{2} \| [0-9.]*%? \|' doc.md)" "2"
expect "a summary per condition" "$(grep -cE '^S: 1 seeds; better than gpuplan \(priority, then cost\): CBC on [01]( \(1\))?, HiGHS on [01]( \(1\))?; cheaper but worse by priority: CBC on [01]( \(1\))?, HiGHS on [01]( \(1\))?; ' doc.md)" "2"
expect "a line against the best known per condition" \
	"$(grep -cE '^S: gpuplan / best known: geometric mean [-+][0-9.]+%, at most [-+][0-9.]+% \(seed 1\), over 1 seeds; proven gap at most 5% on [01] of 1 seeds$' doc.md)" "2"
if cmp -s <(sed -n '/begin -->/,/end -->/p' doc.md | sed '1d;$d') run/report.md; then ok; else bad "doc.md's block differs from the report printed"; fi
# the same tables again from the run's files
bash "$paired" -g "$exe" --tabulate -w run >again.out 2>&1
expect "--tabulate after the run: exit code" "$?" "0"
if cmp -s run.out again.out; then ok; else bad "--tabulate differs from the run: $(diff run.out again.out)"; fi

# SIGTERM while the busy loops run: they are stopped and the script exits 143
bash "$paired" -g "$exe" -s S --seeds "1 2 3" --limit 1 --busy 1 --conditions busy "${opts[@]}" -w term \
	>term.out 2>&1 &
pid=$!
for _ in $(seq 1 600); do
	[ "$(loops)" -gt 0 ] && break
	sleep 0.1
done
expect "busy loops started" "$([ "$(loops)" -gt 0 ] && echo yes)" "yes"
kill -TERM $pid
wait $pid
expect "exit code after SIGTERM" "$?" "143"
expect "busy loops left after SIGTERM" "$(loops)" "0"
finish
