#!/usr/bin/env bash
# The layer rule: a source of planner/<layer>/ includes only headers of its
# own layer (its top or its internal/ folder) or of a lower layer, in the
# order planner/CMakeLists.txt's GPUPLAN_LAYERS gives (cli on top); a
# layer's internal/ headers are included only from that layer; each
# outside library's header only from the layer that links it.  The
# compiler already refuses most upward includes (a lower layer's include
# path lacks the higher folders); this names every violation at once and
# also catches a relative path ("../solve/x.h") that would slip past it.
#
# usage: test_layers.sh GPUPLAN SRC_DIR WORK_DIR
# With SRC_DIR only it checks that tree; as a test it also checks that it
# fails on a copy of the tree with an upward include planted.
set -u
src=${2:?usage: test_layers.sh GPUPLAN SRC_DIR WORK_DIR}
work=${3:-}

# check TREE: prints one line per violation; exit 1 when any.
check() {
	local tree=$1 layers order=() bad=0
	layers=$(sed -n 's/^set(GPUPLAN_LAYERS \(.*\))$/\1/p' "$tree/planner/CMakeLists.txt")
	[ -n "$layers" ] || { echo "no GPUPLAN_LAYERS in planner/CMakeLists.txt"; return 1; }
	read -r -a order <<<"$layers cli"
	declare -A rank owner
	local i l f h
	for i in "${!order[@]}"; do
		rank[${order[$i]}]=$i
		[ -d "$tree/planner/${order[$i]}" ] || { echo "layer '${order[$i]}' has no folder"; bad=1; }
	done
	for d in "$tree"/planner/*/; do
		l=$(basename "$d")
		[ "$l" = cmake ] && continue
		[ -n "${rank[$l]+x}" ] || { echo "planner/$l/ is not a layer in GPUPLAN_LAYERS"; bad=1; }
		for h in "$d"*.h; do
			[ -e "$h" ] || continue
			h=$(basename "$h")
			[ -z "${owner[$h]+x}" ] || { echo "header $h is in both planner/${owner[$h]}/ and planner/$l/"; bad=1; }
			owner[$h]=$l
		done
	done
	# outside libraries: header -> the layers that may include it (cJSON:
	# input reads JSON imports, report writes and reads JSON reports, deploy
	# writes JSON; libyaml: input parses, deploy emits; docs/decisions.md)
	declare -A lib=([glpk.h]=ilp [cJSON.h]="input report deploy" [yaml.h]="input deploy" [csv.h]=input)
	local kind
	while IFS=$'\t' read -r f kind h; do
		l=${f#"$tree"/planner/}
		l=${l%%/*}
		if [ "$kind" = '<' ]; then
			if [ -n "${lib[$h]+x}" ] && [[ " ${lib[$h]} " != *" $l "* ]]; then
				echo "${f#"$tree"/}: includes <$h>, which only planner/{${lib[$h]// /,}}/ may use"
				bad=1
			fi
			continue
		fi
		case $h in
		internal/*)
			[ -e "$tree/planner/$l/$h" ] ||
				{ echo "${f#"$tree"/}: includes \"$h\", which is not in planner/$l/ (internal headers stay in their layer)"; bad=1; }
			continue ;;
		*/*)
			echo "${f#"$tree"/}: includes \"$h\" by a path; include a lower layer's header by its name"
			bad=1
			continue ;;
		esac
		if [ -z "${owner[$h]+x}" ]; then
			[ -e "$(dirname "$f")/$h" ] || { echo "${f#"$tree"/}: includes \"$h\", found in no layer"; bad=1; }
			continue
		fi
		if [ "${rank[${owner[$h]}]}" -gt "${rank[$l]}" ]; then
			echo "${f#"$tree"/}: includes \"$h\" of planner/${owner[$h]}/, a higher layer than planner/$l/"
			bad=1
		fi
	done < <(awk 'match($0, /^[ \t]*#[ \t]*include[ \t]*["<][^">]*[">]/) {
			s = substr($0, RSTART, RLENGTH); sub(/^[^"<]*/, "", s)
			printf "%s\t%s\t%s\n", FILENAME, substr(s, 1, 1), substr(s, 2, length(s) - 2) }' \
		"$tree"/planner/*/*.[ch] $(ls "$tree"/planner/*/internal/*.h 2>/dev/null))
	return $bad
}

if ! out=$(check "$src"); then
	echo "layer rule broken in $src:"
	echo "$out"
	exit 1
fi
echo "layers ok: $(sed -n 's/^set(GPUPLAN_LAYERS \(.*\))$/\1/p' "$src/planner/CMakeLists.txt") cli"
[ -n "$work" ] || exit 0

# The check must be able to fail: plant an upward include (model -> solve)
# and a cJSON include in cli/ in a copy, and expect both to be named.
rm -rf "$work"
mkdir -p "$work"
cp -r "$src/planner" "$work/planner"
sed -i '0,/#include "banned.h"/s//#include "plan.h"\n&/' "$work/planner/model/catalog.c"
sed -i '0,/#include "banned.h"/s//#include <cJSON.h>\n&/' "$work/planner/cli/main.c"
if out=$(check "$work"); then
	echo "the check passed a tree with an upward include"
	exit 1
fi
grep -q 'model/catalog.c: includes "plan.h" of planner/solve/' <<<"$out" || { echo "upward include not named:"; echo "$out"; exit 1; }
grep -q 'cli/main.c: includes <cJSON.h>' <<<"$out" || { echo "cJSON in cli not named:"; echo "$out"; exit 1; }
echo "planted violations caught: $(wc -l <<<"$out")"
