#!/bin/bash
# test_bench_paired.sh - bench/paired.sh: its argument checks (exit 2, nothing run),
# one run on bench S seed 1 at 1 s under both conditions (a row per condition in the
# --doc file between its two marker lines, the text around them kept, no busy loop
# left behind), and SIGTERM during the busy condition (exit 143, the loops stopped).
# CBC and HiGHS take part when installed (.ci/setup --tests installs both); only the
# form of the rows is checked, never a time or a cost.
#
# usage: bash test_bench_paired.sh GPUPLAN_EXE SRC_DIR WORK_DIR
# Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
export LC_ALL=C
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
for a in "-s Q" "--busy 9" "--limit 0" "--seeds x" "--conditions calm" "--bogus" "--doc plain.md"; do
	# shellcheck disable=SC2086
	bash "$paired" -g "$exe" $a -w args >args.out 2>&1
	expect "bench/paired.sh $a: exit code" "$?" "2"
	if grep -q '^bench/paired.sh: ' args.out && [ ! -d args ]; then ok; else bad "bench/paired.sh $a: $(cat args.out)"; fi
done

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
expect "a summary per condition" "$(grep -cE '^S: 1 seeds; CBC cheaper than gpuplan on [01], HiGHS on [01]; ' doc.md)" "2"
if cmp -s <(sed -n '/begin -->/,/end -->/p' doc.md | sed '1d;$d') run/report.md; then ok; else bad "doc.md's block differs from the report printed"; fi

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
