#!/bin/bash
# test_completion.sh - the bash completion gpuplan-doc writes from the
# command table (build/planner/gpuplan.bash): commands, the second level
# (sweep, import, bench and models words; help's commands), GPU names
# after profiles (from the gpuplan being completed), option values, and
# operands after options that take a value (issue #56 item 6).
#
# usage: bash test_completion.sh GPUPLAN_EXE SRC_DIR WORK_DIR
# Ends with "N passed, N failed" and exits 1 on any failure.
. "$(dirname "$0")/lib.sh"
export LC_ALL=C

comp=$(dirname "$exe")/gpuplan.bash
[ -f "$comp" ] || { echo "SKIP: no $comp (build the gpuplan-docs target)"; exit 0; }
# shellcheck disable=SC1090
. "$comp"

# complete WORDS...: the replies for the last word (may be empty), one line, sorted
complete_words() {
	COMP_WORDS=("$exe" "$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_gpuplan
	printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}
want() { # WANT WORDS...
	local w=$1 got
	shift
	got=$(complete_words "$@")
	[ "$got" = "$w" ] && ok || bad "complete '$*': '$got', want '$w'"
}
has() { # WORD WORDS...: WORD is among the replies
	local w=$1 got
	shift
	got=" $(complete_words "$@") "
	[[ $got == *" $w "* ]] && ok || bad "complete '$*': '$w' not in '$got'"
}

mkdir -p d && touch s.yaml
want "simulate sweep" s
want "expand merge run submit" sweep ""
want "run" sweep r
want "kubectl" import k
want "nvidia-smi" import n
want "gen" bench ""
want "check" models ""
want "plan profiles" help p
has "H100-SXM5-80GB" profiles H
has "L40S" profiles --vgpu L
want "" profiles H100-SXM5-80GB H
# after the word: files again, options of the command
has "s.yaml" sweep run ""
has "--jobs" sweep run --j
want "L M S XL" bench gen --size ""
# an option's value is not the operand: -o's value, then the word
want "expand merge run submit" sweep -o d ""
want "json" plan s.yaml --format j
want "json" plan s.yaml --f=x --format j
# gpuplan's own options after the command
has "--verbose" plan s.yaml --verb
want "d" plan s.yaml --models ""
finish
