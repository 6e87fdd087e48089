#!/bin/bash
# test_failure_output.sh - the reports are written all or nothing, whatever
# is in the way at the output path.
#
# usage: bash test_failure_output.sh GPUPLAN_EXE SRC_DIR WORK_DIR
# Plans a small scenario (tests/bad/base) into output paths that fail:
# a missing parent, a file, /dev/full (not a directory), a directory at a
# report name, a read-only directory (as an unprivileged user when run as
# root, via setpriv; else skipped), a file size limit (ulimit -f: EFBIG);
# each must exit 5 with one "gpuplan: ..." line and leave no report and
# no temporary file.  Then what is replaced: existing reports (other files
# kept), a symlink at a report name (replaced, its target untouched), and
# symlinks planted at the temporary names (never followed).  Standard
# output on /dev/full is exit 5 too.  --export-model: a model GLPK cut
# short is refused, the model at -o's path refused up front; sweep expand
# leaves nothing when it fails.  Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
export LC_ALL=C
cp "$src"/tests/bad/base/* .

# expect RC 'STDERR' ARGS...: gpuplan ARGS exits RC with exactly STDERR
expect() {
	local want_rc=$1 want_err=$2 got_rc got_err
	shift 2
	"$exe" "$@" >out.txt 2>err.txt
	got_rc=$?
	got_err=$(cat err.txt)
	if [ "$got_rc" = "$want_rc" ] && [ "$got_err" = "$want_err" ]; then ok; else
		bad "$*: want $want_rc '$want_err', got $got_rc '$got_err'"
	fi
}
# no_temps DIR: no .*.tmp file left in DIR
no_temps() {
	if [ -z "$(find "$1" -name '.*.tmp' 2>/dev/null)" ]; then ok; else bad "temporary files left in $1: $(ls -A "$1")"; fi
}

expect 5 "gpuplan: no/such: cannot create the output directory: No such file or directory" \
	plan scenario.yaml -o no/such
[ ! -e no ] && ok || bad "no/ was created"

echo x >afile
expect 5 "gpuplan: afile: not a directory" plan scenario.yaml -o afile
expect 5 "gpuplan: /dev/full: not a directory" plan scenario.yaml -o /dev/full

mkdir -p blocked/summary.csv
echo old >blocked/nodes.csv
expect 5 "gpuplan: blocked/summary.csv: is a directory" plan scenario.yaml -o blocked
[ "$(cat blocked/nodes.csv)" = old ] && ok || bad "blocked/nodes.csv changed"
[ "$(ls -A blocked | tr '\n' ' ')" = "nodes.csv summary.csv " ] && ok || bad "blocked/ holds $(ls -A blocked)"

# a read-only directory: root writes anyway, so drop to nobody when root (the first file created is nodes.csv, streamed)
mkdir ro && chmod 555 ro
if [ "$(id -u)" -ne 0 ]; then
	expect 5 "gpuplan: ro/nodes.csv: cannot create: Permission denied" plan scenario.yaml -o ro
	[ -z "$(ls -A ro)" ] && ok || bad "ro/ holds $(ls -A ro)"
elif command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null &&
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$exe" -a -r scenario.yaml; then
	setpriv --reuid=65534 --regid=65534 --clear-groups "$exe" plan scenario.yaml -o ro >out.txt 2>err.txt
	rc=$?
	[ $rc = 5 ] && [ "$(cat err.txt)" = "gpuplan: ro/nodes.csv: cannot create: Permission denied" ] && ok ||
		bad "read-only dir as nobody: exit $rc: $(cat err.txt)"
	[ -z "$(ls -A ro)" ] && ok || bad "ro/ holds $(ls -A ro)"
else
	echo "SKIP: read-only directory (root, and cannot run as nobody)"
fi

# a full disk, as a file size limit: writes fail with EFBIG
mkdir full
(ulimit -f 1 && exec "$exe" plan scenario.yaml -o full >out.txt 2>err.txt)
rc=$?
[ $rc = 5 ] && grep -q '^gpuplan: full/[a-z]*\.[a-z]*: cannot write: File too large$' err.txt && ok ||
	bad "ulimit -f: exit $rc: $(cat err.txt)"
[ -z "$(ls -A full)" ] && ok || bad "full/ holds $(ls -A full)"

# standard output on a full device
if [ -w /dev/full ]; then
	"$exe" plan scenario.yaml -o devfull >/dev/full 2>err.txt
	rc=$?
	[ $rc = 5 ] && [ "$(cat err.txt)" = "gpuplan: cannot write to standard output" ] && ok ||
		bad "stdout on /dev/full: exit $rc: $(cat err.txt)"
else
	echo "SKIP: /dev/full not writable"
fi

# what is replaced: old reports yes, other files no, symlinks are not followed
mkdir -p keep
echo old >keep/summary.csv
echo mine >keep/notes.txt
echo target >target.txt
ln -s ../target.txt keep/nodes.csv
expect 0 "" plan scenario.yaml -o keep
grep -q '^metric,value' keep/summary.csv && ok || bad "keep/summary.csv not replaced"
[ "$(cat keep/notes.txt)" = mine ] && ok || bad "keep/notes.txt changed"
[ -f keep/nodes.csv ] && [ ! -L keep/nodes.csv ] && ok || bad "keep/nodes.csv is still a symlink"
[ "$(cat target.txt)" = target ] && ok || bad "the symlink's target was written"
no_temps keep

# symlinks planted at every temporary name this run could use
mkdir trap
for pid in $(seq $(($$ + 1)) $(($$ + 40))); do
	for f in summary.csv hosts.csv nodes.csv gpus.csv placements.csv unplaced.csv plan.json; do
		ln -s ../target.txt "trap/.$f.$pid.tmp"
	done
done
expect 0 "" plan scenario.yaml -o trap
[ "$(cat target.txt)" = target ] && ok || bad "a planted temporary symlink was followed"
grep -q '^metric,value' trap/summary.csv && ok || bad "trap/summary.csv missing"
[ "$(find trap -name '.*.tmp' ! -type l)" = "" ] && ok || bad "temporary files left in trap/"

# --export-model (issue #34): staged like the reports, put in place only when the run succeeds
mkdir em
expect 5 "gpuplan: afile: not a directory" plan scenario.yaml -o afile --export-model em/m.mps
[ -z "$(ls -A em)" ] && ok || bad "a failed run left em/ holding $(ls -A em)"
(ulimit -f 1 && exec "$exe" plan scenario.yaml -o em/out --export-model em/m.mps >out.txt 2>err.txt)
rc=$?
[ $rc = 5 ] && grep -q '^gpuplan: em/[a-z/]*\.[a-z]*: cannot write' err.txt && ok ||
	bad "--export-model under ulimit -f: exit $rc: $(cat err.txt)"
[ -z "$(ls -A em)" ] && ok || bad "ulimit -f left em/ holding $(ls -A em)"
mkdir em/dir.mps
expect 5 "gpuplan: em/dir.mps: not a regular file name" plan scenario.yaml -o em/out --export-model em/dir.mps
rmdir em/dir.mps
expect 0 "" plan scenario.yaml -o em/out --export-model em/m.lp
[ -s em/m.lp ] && [ -f em/out/plan.json ] && ok || bad "--export-model: em/m.lp or the reports missing"
no_temps em
# the model alone failing (the reports go to standard output, which ulimit -f does not limit):
# GLPK says it wrote N lines and returns 0 on a cut file; the lines are counted (issue 57)
for ext in lp mps; do
	(ulimit -f 1 && exec "$exe" plan scenario.yaml -o - --export-model em/cut.$ext 2>err.txt | cat >out.txt)
	rc=$?
	grep -q "^gpuplan: em/cut.$ext: cannot write the model: [0-9]* of its [0-9]* lines landed" err.txt && ok ||
		bad "--export-model em/cut.$ext under ulimit -f, reports on stdout: $(tail -1 err.txt)"
	[ ! -e em/cut.$ext ] && [ ! -s out.txt ] && ok || bad "a cut model em/cut.$ext or a report was left"
done
no_temps em
# the model at the output directory's path: refused before anything is written
expect 2 "gpuplan plan: --export-model './same.lp' is an output directory (-o, --deploy) (see 'gpuplan plan --help')" \
	plan scenario.yaml -o same.lp --export-model ./same.lp
[ ! -e same.lp ] && ok || bad "-o same.lp --export-model same.lp left same.lp"

# sweep expand (issue 57): the cases are staged beside DIR/cases and put in place whole; a failure
# leaves no DIR, no DIR/cases, nothing staged, and an older expand as it was
sw=$src/tests/sweep
sed 's/buy.yaml/missing.yaml/' "$sw/grid.yaml" >grid-bad.yaml
cp "$sw/rent.yaml" "$sw"/*.csv .
expect 3 "gpuplan: grid-bad.yaml:4:11: cannot open scenario 'missing.yaml': No such file or directory" \
	sweep expand grid-bad.yaml -o sx
[ ! -e sx ] && ok || bad "a failed sweep expand left sx/: $(ls -A sx)"
(ulimit -f 1 && exec "$exe" sweep expand "$sw/oat.yaml" -o sx >out.txt 2>err.txt)
rc=$?
[ $rc = 5 ] && grep -q '^gpuplan: sx/cases/case-[0-9]*/[a-z.]*: cannot write: File too large$' err.txt && ok ||
	bad "sweep expand under ulimit -f: exit $rc: $(cat err.txt)"
[ ! -e sx ] && ok || bad "sweep expand under ulimit -f left sx/: $(ls -A sx)"
"$exe" sweep expand "$sw/grid.yaml" -o sx >/dev/null && cp -r sx sx-before || bad "sweep expand failed"
(ulimit -f 1 && exec "$exe" sweep expand "$sw/oat.yaml" -o sx >out.txt 2>err.txt)
[ $? = 5 ] && diff -r sx-before sx >/dev/null && ok || bad "a failed sweep expand changed an older one"
"$exe" sweep expand "$sw/oat.yaml" -o sx >/dev/null && [ "$(ls sx/cases | wc -l)" = "$("$exe" sweep expand "$sw/oat.yaml" --count)" ] &&
	[ -z "$(ls -A sx | grep -v '^cases$\|^expand.csv$')" ] && ok || bad "expand over an older one: $(ls -A sx)"

# an output directory another run is writing (flock on it, as gpuplan takes it): refused at once
if command -v flock >/dev/null; then
	mkdir locked
	flock locked "$exe" plan scenario.yaml -o locked >out.txt 2>err.txt
	rc=$?
	[ $rc = 5 ] && [ "$(cat err.txt)" = "gpuplan: locked: another run is writing this output directory: nothing written" ] &&
		ok || bad "locked directory: exit $rc: $(cat err.txt)"
	[ -z "$(ls -A locked)" ] && ok || bad "locked/ holds $(ls -A locked)"
	# two runs at once into one directory: each report set whole (one wins or the other is refused)
	for i in 1 2 3 4 5; do
		"$exe" plan scenario.yaml -o race >/dev/null 2>"race$i.a" & p1=$!
		"$exe" plan scenario.yaml -o race --greedy >/dev/null 2>"race$i.b" & p2=$!
		wait $p1; wait $p2
		src_plan=$(sed -n 's/.*"plan_source":[[:space:]]*"\([a-z]*\)".*/\1/p' race/plan.json | head -1)
		src_sum=$(grep '^plan_source,' race/summary.csv | cut -d, -f2)
		[ -n "$src_plan" ] && [ "$src_plan" = "$src_sum" ] && ok || bad "race $i: plan.json '$src_plan', summary.csv '$src_sum'"
	done
else
	echo "SKIP: flock(1) missing"
fi

finish
