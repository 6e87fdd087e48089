#!/usr/bin/env bash
# test_doc.sh - the man page and the bash completion that gpuplan-doc
# writes at build time (next to the gpuplan executable) match gpuplan:
# the man page renders (man -l), every option of every command (and of
# gpuplan itself) appears in that command's --help and in the man page,
# and the completion is valid bash that offers each command's options.
# usage: bash test_doc.sh GPUPLAN_EXE SRC_DIR WORK_DIR
. "$(dirname "$0")/lib.sh"

man1=$(dirname "$exe")/gpuplan.1
comp=$(dirname "$exe")/gpuplan.bash
if [ -s "$man1" ] && [ -s "$comp" ]; then ok; else bad "no gpuplan.1 or gpuplan.bash next to $exe"; finish; fi

if command -v man >/dev/null; then
	if MANWIDTH=80 man -l "$man1" >man.txt 2>man.err; then ok; else bad "man -l gpuplan.1 failed: $(cat man.err)"; fi
else
	echo "SKIP: man not installed (.ci/setup --tests installs man-db)"
fi
# the roff source without its escapes, for the option names
sed 's/\\f[BIR]//g; s/\\-/-/g' "$man1" >man.src

# The options a --help text lists: "-o, --output DIR" or "--gap PCT" at the start of a line.
options_of() { grep -oE '^  (-[a-z], )?--[a-z-]+' | sed 's/.*--/--/'; }

"$exe" --help >global.txt
opts=$(options_of <global.txt)
[ -n "$opts" ] && ok || bad "gpuplan --help lists no option"
for o in $opts; do
	if grep -q -- "$o" man.src; then ok; else bad "gpuplan $o: not in the man page"; fi
done
cmds=$(sed -n '/^commands:/,/^$/p' global.txt | awk 'NF > 1 { print $1 }')
[ "$(echo $cmds | wc -w)" -ge 9 ] && ok || bad "gpuplan --help lists too few commands: $cmds"
for c in $cmds; do
	if "$exe" "$c" --help >"$c.txt" 2>"$c.err" && "$exe" "$c" -h | cmp -s - "$c.txt"; then ok
	else bad "gpuplan $c --help (and -h) must print the same help and exit 0: $(cat "$c.err")"; fi
	if grep -q "^\.SS $c\$" man.src; then ok; else bad "no section for $c in the man page"; fi
	# the command's part of the man page: from its .SS to the next one
	awk -v c="$c" '/^\.SS / { on = ($2 == c) } on' man.src >"$c.man"
	opts=$(options_of <"$c.txt")
	[ -n "$opts" ] && ok || bad "gpuplan $c --help lists no option"
	for o in $opts; do
		if grep -q -- "$o" "$c.man"; then ok; else bad "gpuplan $c $o: not in the man page's $c section"; fi
		if (. "$comp"; COMP_WORDS=(gpuplan "$c" "$o"); COMP_CWORD=2; _gpuplan; printf '%s\n' "${COMPREPLY[@]}") |
			grep -qx -- "$o"; then ok; else bad "the completion does not offer gpuplan $c $o"; fi
	done
	# an unknown option: one line on stderr, exit 2
	"$exe" "$c" --no-such-option >/dev/null 2>unknown.err
	rc=$?
	if [ $rc -eq 2 ] && [ "$(cat unknown.err)" = "gpuplan $c: unknown option '--no-such-option' (see 'gpuplan $c --help')" ]
	then ok; else bad "gpuplan $c --no-such-option: exit $rc, '$(cat unknown.err)'"; fi
done
if bash -n "$comp"; then ok; else bad "gpuplan.bash is not valid bash"; fi
finish
