#!/bin/bash
# test_start.sh - `plan --start FILE`: another solver's plan of the exported
# model, made concrete, joins the plans gpuplan finds.
#
# usage: bash test_start.sh GPUPLAN_EXE SRC_DIR WORK_DIR
# On bench S seed 10 at --node-limit 20 gpuplan's own plan (253,305.28) is
# above the model's optimum; tests/solfile holds that optimum as CBC and
# HiGHS wrote it (README there).  With either file as the start: the log's
# start line gives the solver's objective on the model, the plan is no
# dearer than the start made concrete, and cheaper than without it.  On
# bench S seed 4 (whose optimum gpuplan's own plan now matches made
# concrete) the file with the CPLEX LP spelling of names ('~' for '-')
# works as the file itself.  A start that is not a plan of this model (an
# unknown column, a fraction in an integer column, a row broken) exits 3
# with FILE:LINE and writes nothing; --start with --greedy exits 2.  Ends
# with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
export LC_ALL=C
sol=$src/tests/solfile

"$exe" bench gen --size S --seed 4 -o s4 >/dev/null 2>&1 || bad "bench gen --size S --seed 4 failed"
"$exe" bench gen --size S --seed 10 -o s10 >/dev/null 2>&1 || bad "bench gen --size S --seed 10 failed"
s4=s4/scenario.yaml
s10=s10/scenario.yaml
# the plan's objective in summary.csv
objective() { sed -n 's/^objective,//p' "$1/summary.csv"; }
# a <= b + 0.01
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && b != "" && a <= b + 0.01) }'; }

"$exe" plan "$s10" --node-limit 20 -o own >own.stdout 2>own.stderr || bad "plan without --start: $(cat own.stderr)"
own=$(objective own)
for f in cbc highs; do
	if "$exe" --verbose plan "$s10" --node-limit 20 --start "$sol/bench-S-s10.$f.sol" -o "out-$f" \
		>"$f.stdout" 2>"$f.stderr"; then ok; else bad "plan --start $f exited $?: $(tail -3 "$f.stderr")"; fi
	line=$(grep -m1 '^gpuplan-ilp: start ' "$f.stderr")
	model=$(echo "$line" | sed -n 's/.*): objective \([0-9.]*\) unplaced 0; made concrete.*/\1/p')
	made=$(echo "$line" | sed -n 's/.*made concrete \([0-9.]*\) unplaced 0 by priority none$/\1/p')
	if [ "$model" = 242719.22 ]; then ok; else bad "$f: the start on the model is '$model', want 242719.22: $line"; fi
	got=$(objective "out-$f")
	if le "$got" "$made"; then ok; else bad "$f: plan $got is dearer than the start made concrete ($made)"; fi
	if le "$got" "$own" && [ "$got" != "$own" ]; then ok; else bad "$f: plan $got, not under $own without the start"; fi
	if grep -q "^  start:      .*bench-S-s10.$f.sol" "$f.stdout"; then ok; else bad "$f: no start line in the summary"; fi
done
# CBC solving the .lp export writes '~' where the names have '-'
sed 's/mig-vgpu/mig~vgpu/' "$sol/bench-S-s4.highs.sol" >tilde.sol
"$exe" plan "$s4" --node-limit 20 --start "$sol/bench-S-s4.highs.sol" -o out-s4 >s4.stdout 2>s4.stderr ||
	bad "plan --start bench-S-s4.highs.sol: $(cat s4.stderr)"
if "$exe" plan "$s4" --node-limit 20 --start tilde.sol -o out-tilde >tilde.stdout 2>tilde.stderr &&
	[ "$(objective out-tilde)" = "$(objective out-s4)" ]; then ok; else bad "the '~' names: $(cat tilde.stderr)"; fi

# not a plan of this model: exit 3, FILE:LINE, nothing written
check_bad() { # NAME SED_SCRIPT WANT_MESSAGE
	sed "$2" "$sol/bench-S-s4.highs.sol" >"$1.sol"
	"$exe" plan "$s4" --node-limit 20 --start "$1.sol" -o "out-$1" >"$1.stdout" 2>"$1.stderr"
	rc=$?
	if [ "$rc" -eq 3 ]; then ok; else bad "$1: exit $rc, want 3"; fi
	if grep -q "^gpuplan: $1.sol:[0-9]*:* *.*$3" "$1.stderr"; then ok; else bad "$1: message: $(cat "$1.stderr")"; fi
	if [ ! -e "out-$1" ]; then ok; else bad "$1: reports written"; fi
}
check_bad unknown 's/^N_5_mig-vgpu 1$/N_5_mig-vpgu 1/' "no column 'N_5_mig-vpgu' .*did you mean 'N_5_mig-vgpu'"
check_bad fraction 's/^N_5_mig-vgpu 1$/N_5_mig-vgpu 0.5/' "is an integer in the model; 0.5 is not"
check_bad bounds 's/^N_5_mig-vgpu 1$/N_5_mig-vgpu -1/' "outside its bounds"
check_bad row 's/^N_5_mig-vgpu 1$/N_5_mig-vgpu 0/' "not a plan of this scenario's model: its row"

"$exe" plan "$s4" --greedy --start "$sol/bench-S-s4.cbc.sol" -o out-greedy >greedy.stdout 2>greedy.stderr
rc=$?
if [ "$rc" -eq 2 ] && grep -q -- "--start needs the ILP" greedy.stderr; then ok; else bad "--start --greedy: exit $rc: $(cat greedy.stderr)"; fi
finish
