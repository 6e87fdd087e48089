# lib.sh - the shared preamble of tests/scripts/test_*.sh, sourced after the
# script's own header.  Takes "GPUPLAN_EXE SRC_DIR WORK_DIR", makes the
# executable path absolute, starts in a fresh WORK_DIR, and provides the
# ok/bad counters and `finish`, which prints "N passed, N failed" and
# exits 1 on any failure.
set -u

exe=$1 src=$2 work=$3
case $exe in /*) ;; *) exe=$PWD/$exe ;; esac
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
finish() {
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}
rm -rf "$work" && mkdir -p "$work" || exit 1
cd "$work" || exit 1
scenario=$src/data/example/scenario.yaml
