#!/bin/bash
# test_export_cbc.sh - --export-model writes the ILP as MPS and LP; CBC
# solving the exported MPS agrees with gpuplan's objective.
#
# usage: bash test_export_cbc.sh GPUPLAN_EXE SRC_DIR WORK_DIR
# Plans data/example with --export-model m.mps and m.lp; both files must
# exist and be non-empty.  If `cbc` is on PATH (Debian: coinor-cbc), solves
# m.mps and compares its objective with summary.csv's `objective` (0.01
# tolerance); else prints SKIP.  An unknown extension (m.txt) is a usage
# error (exit 2) that writes nothing.  Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
export LC_ALL=C

for ext in mps lp; do
	if "$exe" plan "$scenario" -o "out-$ext" --export-model "m.$ext" >"$ext.stdout" 2>"$ext.stderr"; then
		ok
	else
		bad "plan --export-model m.$ext exited $?: $(cat "$ext.stderr")"
	fi
	if [ -s "m.$ext" ]; then ok; else bad "m.$ext missing or empty"; fi
done
# the exported model does not change the plan
if cmp -s out-mps/summary.csv out-lp/summary.csv; then ok; else bad "summary.csv differs between the two runs"; fi
if grep -q '^ROWS' m.mps && grep -q '^COLUMNS' m.mps; then ok; else bad "m.mps has no ROWS/COLUMNS section"; fi
if grep -qi '^minimize' m.lp; then ok; else bad "m.lp does not start a minimize section"; fi

want=$(sed -n 's/^objective,//p' out-mps/summary.csv)
if [ -n "$want" ]; then ok; else bad "no objective in summary.csv"; fi
if command -v cbc >/dev/null 2>&1; then
	cbc m.mps solve >cbc.log 2>&1
	got=$(sed -n 's/^Objective value: *\([-0-9.eE+]*\).*/\1/p' cbc.log | tail -1)
	status=$(grep -m1 '^Result - ' cbc.log)
	case $status in
	*"Optimal solution found"*) ok ;;
	*) bad "cbc did not prove optimality: ${status:-no result line}" ;;
	esac
	if [ -n "$got" ] && awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.01) }'; then
		ok
	else
		bad "cbc objective '${got}' != gpuplan objective '${want}' (tolerance 0.01)"
	fi
else
	echo "SKIP: cbc not on PATH (install coinor-cbc); the objective cross-check is skipped"
fi

# an extension that is neither .mps nor .lp: usage error, nothing written
mkdir bad && cd bad || exit 1
"$exe" plan "$scenario" -o out --export-model m.txt >stdout 2>stderr
rc=$?
if [ "$rc" -eq 2 ]; then ok; else bad "--export-model m.txt exited $rc, want 2"; fi
if grep -q "m.txt" stderr; then ok; else bad "--export-model m.txt: no message naming the file: $(cat stderr)"; fi
if [ ! -e out ] && [ ! -e m.txt ]; then ok; else bad "--export-model m.txt wrote files: $(ls)"; fi
cd ..

finish
