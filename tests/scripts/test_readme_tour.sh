#!/usr/bin/env bash
# test_readme_tour.sh - every `$ gpuplan ...` block of the README's tour
# prints what the README shows ("..." standing for omitted lines or text;
# readme_tour.py says how they match).  A second run on a README with one
# figure changed proves the check can fail.
# usage: test_readme_tour.sh GPUPLAN_EXE SRC_DIR WORK_DIR
. "$(dirname "$0")/lib.sh"
tour=$src/tests/scripts/readme_tour.py
command -v python3 >/dev/null || { echo "python3 not found"; exit 77; }
# the README calls the tool `gpuplan`: a folder with that name first on PATH
mkdir bin && ln -s "$exe" bin/gpuplan

mkdir tour
if python3 "$tour" "$src/README.md" "$PWD/bin" "$src" "$PWD/tour" >tour.txt 2>&1; then ok; else
	bad "the README's tour differs from what gpuplan prints:"; cat tour.txt; fi

# the matching rules, on small READMEs: "..." lines and "..." in a line match,
# anything else must be equal
fence='```'
printf '%s\n' "$fence" '$ printf "a\nb\nc\n"' a ... "$fence" "$fence" '$ printf "x-1-y\n"' 'x...y' \
	'$ printf "q\n"' q "$fence" >README-ok.md
sed 's/^q$/r/' README-ok.md >README-bad.md
mkdir t-ok t-bad
if python3 "$tour" README-ok.md "$PWD/bin" "$src" "$PWD/t-ok" >t-ok.txt 2>&1; then ok; else
	bad "'...' lines did not match:"; cat t-ok.txt; fi
if python3 "$tour" README-bad.md "$PWD/bin" "$src" "$PWD/t-bad" >t-bad.txt 2>&1; then
	bad "a README showing 'r' where the command prints 'q' passed"; else ok; fi
grep -q '^FAIL: README.md:[0-9]*: `printf "q' t-bad.txt && ok || { bad "no FAIL naming the changed block:"; cat t-bad.txt; }
finish
