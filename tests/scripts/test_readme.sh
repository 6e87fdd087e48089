#!/usr/bin/env bash
# test_readme.sh - the plan summary that the README shows for its first
# command is what that command prints: runs `gpuplan plan` on the bundled
# example from a fresh directory (so the reports go to the default
# gpuplan-out, as in the README) and compares stdout with the README's
# block after "Command 1 ends with the plan summary".
# usage: test_readme.sh GPUPLAN_EXE SRC_DIR WORK_DIR
. "$(dirname "$0")/lib.sh"

awk '/^Command 1 ends with the plan summary/ { want = 1; next }
     want && /^```/ { if (inside) exit; inside = 1; next }
     inside { print }' "$src/README.md" >readme.txt
if [ -s readme.txt ]; then ok; else bad "no plan summary block after 'Command 1 ends with the plan summary' in README.md"; fi

LC_ALL=C "$exe" plan "$scenario" >stdout.txt 2>stderr.txt
rc=$?
if [ $rc -eq 0 ]; then ok; else bad "gpuplan plan on the example exited $rc: $(cat stderr.txt)"; fi
if cmp -s readme.txt stdout.txt; then ok; else bad "README's plan summary differs from what the command prints:"; diff -u readme.txt stdout.txt; fi
if [ -f gpuplan-out/summary.csv ] || [ -f gpuplan-out/summary.json ]; then ok; else bad "no reports in gpuplan-out"; fi
finish
