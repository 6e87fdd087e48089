#!/usr/bin/env bash
# tests/bad/run.sh GPUPLAN SRC_DIR WORK_DIR CASES_FILE [WRAPPER...]
#
# The bad-input corpus, table-driven: CASES_FILE (tests/bad/*.cases) is a
# bash file of calls
#
#   bad NAME RC 'EXPECTED STDERR' ARGS... <<'EOF'
#   shell lines that turn the base inputs into the bad ones
#   EOF
#
# Each case runs in WORK_DIR/NAME, a fresh copy of tests/bad/base/
# (scenario.yaml, inventory.csv, workloads.csv that validate cleanly),
# after its setup lines (run by bash -e there, $SRC is the source root);
# then `gpuplan ARGS` (behind WRAPPER, e.g. valgrind) must exit RC with
# exactly EXPECTED STDERR (@SRC@ stands for the source root) and, when RC
# is not 0, create or remove no file.  `heavy` instead of `bad` marks a
# case skipped under a WRAPPER or with BAD_SKIP_HEAVY set (huge inputs).  BAD_SAMPLE=N runs every
# Nth case only (the slow Valgrind pass); BAD_ONLY=NAME runs one case.
# An expected stderr of '?' prints what the case gives (to write one).
set -u
exe=$1 src=$2 work=$3 cases=$4
shift 4
wrapper=("$@")
case $exe in /*) ;; *) exe=$PWD/$exe ;; esac
sample=${BAD_SAMPLE:-1}
pass=0 fail=0 skipped=0 n=0
rm -rf "$work" && mkdir -p "$work" || exit 1
export LC_ALL=C TZ=UTC GPUPLAN_TODAY=2026-11-25	# price ages from a fixed date, not the clock

run_case() {
	local heavy=$1 name=$2 want_rc=$3 want_err=$4
	shift 4
	local setup dir got_rc got_err before after
	setup=$(cat)
	n=$((n + 1))
	if [ -n "${BAD_ONLY:-}" ] && [ "$BAD_ONLY" != "$name" ]; then return; fi
	if { [ "$heavy" = 1 ] && { [ ${#wrapper[@]} -gt 0 ] || [ -n "${BAD_SKIP_HEAVY:-}" ]; }; } ||
		[ $(((n - 1) % sample)) -ne 0 ]; then
		skipped=$((skipped + 1))
		return
	fi
	dir=$work/$name
	mkdir -p "$dir" && cp -r "$src/tests/bad/base/." "$dir/"
	if ! (cd "$dir" && SRC=$src bash -e -c "$setup"); then
		echo "FAIL $name: setup failed"
		fail=$((fail + 1))
		return
	fi
	before=$(cd "$dir" && find . | sort)
	(cd "$dir" && exec "${wrapper[@]}" "$exe" "$@" >"$work/$name.out" 2>"$work/$name.err")
	got_rc=$?
	got_err=$(sed "s|$src|@SRC@|g" "$work/$name.err")
	after=$(cd "$dir" && find . | sort)
	if [ "$want_err" = "?" ]; then
		printf 'NEW %s rc=%s\n%s\n' "$name" "$got_rc" "$got_err"
		fail=$((fail + 1))
	elif [ "$got_rc" != "$want_rc" ] || [ "$got_err" != "$want_err" ]; then
		printf 'FAIL %s\n  want rc %s: %s\n  got  rc %s: %s\n' "$name" "$want_rc" "$want_err" "$got_rc" "$got_err"
		fail=$((fail + 1))
	elif [ "$got_rc" != 0 ] && [ "$before" != "$after" ]; then
		printf 'FAIL %s: exit %s but changed files:\n%s\n' "$name" "$got_rc" "$(diff <(echo "$before") <(echo "$after"))"
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
		rm -rf "$dir" "$work/$name.out" "$work/$name.err"
	fi
}
bad() { run_case 0 "$@"; }
heavy() { run_case 1 "$@"; }

. "$cases"
echo "$pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
