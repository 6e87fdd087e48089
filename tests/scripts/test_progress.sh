#!/bin/bash
# test_progress.sh - the progress line of long runs: --progress prints one
# line per phase in a fixed shape (timings masked here: they depend on the
# machine); without it nothing is printed when stderr is not a terminal;
# on a terminal (util-linux script(1) gives one) the line is rewritten in
# place, at most 4 times a second, and erased at the end; --quiet prints
# nothing even there.  The reports do not change with any of it.
#
# usage: bash test_progress.sh GPUPLAN_EXE SRC_DIR WORK_DIR
# Ends with "N passed, N failed" and exits 1 on any failure.
. "$(dirname "$0")/lib.sh"
# node-limited plans: the same plan on every run, and 1.7 s where the example's proof takes 17 s
nl="--node-limit 3"
mask() { sed -E 's/[0-9]+\.[0-9] s/T s/; s/best [0-9]+\.[0-9]+/best B/; s/gap [0-9]+\.[0-9]+%/gap G%/'; }

"$exe" plan "$scenario" -o quiet $nl >/dev/null 2>quiet.err && ok || bad "plan exited $?"
[ ! -s quiet.err ] && ok || bad "plan printed on a stderr that is not a terminal: $(head -2 quiet.err)"
"$exe" plan "$scenario" -o lines $nl --progress >/dev/null 2>lines.err && ok || bad "plan --progress exited $?"
mask <lines.err >lines.masked
cat >lines.expected <<'EOF'
gpuplan: example-onprem: price, T s
gpuplan: example-onprem: model, T s
gpuplan: example-onprem: greedy, T s
gpuplan: example-onprem: lp, T s, best B
gpuplan: example-onprem: round, T s, best B, gap G%
gpuplan: example-onprem: search, T s, best B, gap G%
gpuplan: example-onprem: done, T s, best B, gap G%
gpuplan: example-onprem: written, T s
EOF
diff lines.expected lines.masked >lines.diff && ok || bad "--progress lines: $(cat lines.diff)"
cmp -s quiet/plan.json lines/plan.json && ok || bad "--progress changed plan.json"
"$exe" plan "$scenario" -o greedy --greedy --progress >/dev/null 2>greedy.err
[ "$(mask <greedy.err | sed 's/,.*//' | tr '\n' ' ')" = "gpuplan: example-onprem: price gpuplan: example-onprem: model gpuplan: example-onprem: greedy gpuplan: example-onprem: done gpuplan: example-onprem: written " ] \
	&& ok || bad "--greedy --progress phases: $(cat greedy.err)"

# simulate: "step N/M" every 256 steps
"$exe" simulate "$scenario" --trace "$src/data/example/trace.csv" --hours 600 -o sim --progress >/dev/null 2>sim.err
[ "$(sed -E 's/, [0-9]+\.[0-9] s$//' sim.err | tr '\n' ' ')" = "gpuplan: example-onprem: step 0/600 gpuplan: example-onprem: step 256/600 gpuplan: example-onprem: step 512/600 " ] \
	&& ok || bad "simulate --progress: $(cat sim.err)"
"$exe" compare "$scenario" "$scenario" -o cmp --greedy --progress >/dev/null 2>cmp.err
[ "$(grep -c ': done, ' cmp.err)" = 2 ] && ok || bad "compare --progress: $(cat cmp.err)"

# on a terminal: updated in place (\r, erase line), erased at the end; --quiet: nothing
if command -v script >/dev/null; then
	t0=$(date +%s%N)
	script -qc "'$exe' plan '$scenario' -o tty $nl >/dev/null" /dev/null >tty.out 2>&1
	ms=$((($(date +%s%N) - t0) / 1000000))
	printf '\r\033[K' >erase
	[ "$(tail -c 4 tty.out | od -An -c | tr -d ' ')" = "$(od -An -c <erase | tr -d ' ')" ] && ok \
		|| bad "the terminal line is not erased at the end: $(od -c tty.out | tail -3)"
	n=$(grep -o $'\r' tty.out | wc -l)
	[ "$n" -ge 2 ] && ok || bad "no line written on the terminal ($n)"
	# at most 4 updates a second, plus the final erase
	[ "$n" -le $((4 * ms / 1000 + 2)) ] && ok || bad "$n terminal updates in $ms ms: more than 4 a second"
	[ "$(wc -l <tty.out)" = 0 ] && ok || bad "the terminal got a newline (not one updating line)"
	script -qc "'$exe' plan '$scenario' -o ttyq $nl --quiet >/dev/null" /dev/null >ttyq.out 2>&1
	[ ! -s ttyq.out ] && ok || bad "--quiet printed on a terminal: $(od -c ttyq.out | head -2)"
	cmp -s quiet/plan.json tty/plan.json && ok || bad "the terminal changed plan.json"
else
	echo "SKIP: script(1) not installed: the terminal checks are skipped"
fi
finish
