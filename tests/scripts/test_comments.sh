#!/usr/bin/env bash
# Comments say what the code does and why, not what a run measured: a
# bench figure, a seed, a timing or a dated run label in a comment of
# planner/ goes stale with the next change, and its place is
# docs/benchmarks.md (the current section) or a commit message.  This
# scans the comments (block and line) of every planner/**/*.[ch] and
# names each line that quotes one, as FILE:LINE: text.  And no file of
# planner/, bench/ or tests/ cites docs/benchmarks-history.md.
#
# usage: test_comments.sh GPUPLAN SRC_DIR WORK_DIR
# With SRC_DIR only it checks that tree; as a test it also checks that it
# fails on a copy of the tree with such a comment planted.
set -u
src=${2:?usage: test_comments.sh GPUPLAN SRC_DIR WORK_DIR}
work=${3:-}

# What a run label or a measured figure looks like in prose.
patterns=(
	'(^|[^A-Za-z0-9_])[Ss]eeds? [0-9]'			# seed 4
	'(^|[^A-Za-z0-9_])bench (S|M|L|XL)([^A-Za-z0-9_]|$)'	# bench S, bench XL
	'(^|[^A-Za-z0-9_])(S|M|XL)[0-9]{1,2}([^A-Za-z0-9_.]|$)'	# run ids S16, M12, XL3 (not GPUs: L4, L40S)
	'[0-9]+\.[0-9]+ ?%'					# 17.98 %
	'(^|[^A-Za-z0-9_.])[0-9]+(\.[0-9]+)? s([^A-Za-z0-9_]|$)'	# 10 s, 0.63 s
	'(^|[^0-9])20[0-9][0-9]-[01][0-9]'			# 2026-11-28
	'(^|[^A-Za-z0-9_])[Ss]ession [0-9]+'			# session 16
)

# check TREE: prints FILE:LINE: comment for each hit; exit 1 when any.
check() {
	local tree=$1 re
	re=$(IFS='|'; echo "${patterns[*]}")
	(cd "$tree" && find planner -name '*.[ch]' | LC_ALL=C sort | RE=$re xargs awk '
	# The comment text of each line (string and character literals skipped).
	FNR == 1 { inc = 0 }
	{
		line = $0; out = ""; i = 1; n = length(line); instr = 0
		while (i <= n) {
			c = substr(line, i, 1); c2 = substr(line, i, 2)
			if (inc) {
				if (c2 == "*/") { inc = 0; i += 2; out = out " "; continue }
				out = out c; i++; continue
			}
			if (instr) {
				if (c == "\\") { i += 2; continue }
				if (c == q) instr = 0
				i++; continue
			}
			if (c == "\"" || c == "\047") { instr = 1; q = c; i++; continue }
			if (c2 == "/*") { inc = 1; i += 2; continue }
			if (c2 == "//") { out = out substr(line, i + 2); break }
			i++
		}
		gsub(/"[^"]*"/, "", out)	# quoted: an example of output, not a measurement
		if (out ~ ENVIRON["RE"]) { sub(/^[ \t*]+/, "", out); print FILENAME ":" FNR ": " out; bad = 1 }
	}
	END { exit bad }')
}

if ! out=$(check "$src"); then
	echo "bench figures or run labels in planner comments (move them to docs/benchmarks.md):"
	echo "$out"
	exit 1
fi
echo "comments ok: no bench figure or run label in planner/"

# docs/benchmarks-history.md is history: no source, test or bench script cites it (a figure
# that something cites stays in benchmarks.md, "Figures other pages cite").
cites() {
	grep -rlF 'benchmarks-history' "$1/planner" "$1/bench" "$1/tests" 2>/dev/null |
		grep -v '/tests/scripts/test_comments\.sh$'
}
if out=$(cites "$src"); then
	echo "these cite docs/benchmarks-history.md (cite benchmarks.md's Figures other pages cite):"
	echo "$out"
	exit 1
fi
echo "no code cites docs/benchmarks-history.md"
[ -n "$work" ] || exit 0

# The check must be able to fail: plant a bench figure in a block comment
# and a dated run label in a line comment in a copy, and expect both named
# with their lines; a figure in a string literal is code, not a comment.
rm -rf "$work"
mkdir -p "$work"
cp -r "$src/planner" "$work/planner"
f=$work/planner/base/util.c
printf '/*\n * on bench S seed 3 at 10 s it took 12.5 %%\n */\n' >>"$f"
printf 'static const char *const lab_note = "bench S seed 3";\n' >>"$f"
printf '// 2026-11-28 run\n' >>"$f"
n=$(wc -l <"$f")
if out=$(check "$work"); then
	echo "the check passed a tree with a bench figure in a comment"
	exit 1
fi
grep -qx "planner/base/util.c:$((n - 3)): on bench S seed 3 at 10 s it took 12.5 %" <<<"$out" ||
	{ echo "planted bench figure not named:"; echo "$out"; exit 1; }
grep -q "^planner/base/util.c:$n: 2026-11-28 run" <<<"$out" || { echo "planted run label not named:"; echo "$out"; exit 1; }
if grep -q "^planner/base/util.c:$((n - 1)):" <<<"$out"; then
	echo "a string literal was taken for a comment:"
	echo "$out"
	exit 1
fi
echo "planted figures caught: $(wc -l <<<"$out") line(s)"
printf '/* see docs/benchmarks-history.md */\n' >>"$work/planner/base/util.c"
out=$(cites "$work")
[ "$out" = "$work/planner/base/util.c" ] || { echo "planted citation of benchmarks-history.md not named: $out"; exit 1; }
echo "planted citation caught"
