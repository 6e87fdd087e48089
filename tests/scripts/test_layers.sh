#!/usr/bin/env bash
# The layer rule, from the table atop planner/CMakeLists.txt: each row
# set(GPUPLAN_LAYER_<layer> USES ... LIBS ... PUBLIC ...) names the layers
# that layer's sources may include headers of (USES), the outside libraries
# it may use (LIBS) and its public headers (PUBLIC); GPUPLAN_CLI_USES is
# the cli's row.  A source of planner/<layer>/ may include its own folder's
# headers and the PUBLIC headers of the layers its row USES, nothing else;
# a row must not name a layer none of its sources includes (the graph says
# what is really used); each outside library's header only where LIBS has
# it.  The build already refuses a private header of another layer (it is
# on no other target's include path, which the compile check below
# proves); this names every violation at once, also one the transitive
# include path would let through.
#
# usage: test_layers.sh GPUPLAN SRC_DIR [WORK_DIR]
# With SRC_DIR only it checks that tree; as a test it also checks that it
# fails on a copy of the tree with violations planted, and that the
# compiler refuses another layer's private header.
set -u
src=$(cd "${2:?usage: test_layers.sh GPUPLAN SRC_DIR WORK_DIR}" && pwd)
work=${3:-}

# rows TREE: "layer|uses|libs|public" per row of the table, cli last
rows() {
	awk '/^set\(GPUPLAN_LAYER_[a-z]+ / { row = 1; text = "" }
	     row { text = text " " $0 }
	     row && /\)[ \t]*$/ {
		row = 0; sub(/^ *set\(GPUPLAN_LAYER_/, "", text); sub(/\)[ \t]*$/, "", text)
		n = split(text, w, /[ \t]+/); key = ""; out["USES"] = out["LIBS"] = out["PUBLIC"] = ""
		for (i = 2; i <= n; i++) {
			if (w[i] == "PUBLIC_LIBS") { key = "LIBS"; continue }
			if (w[i] == "USES" || w[i] == "LIBS" || w[i] == "PUBLIC") { key = w[i]; continue }
			if (key != "" && w[i] != "") out[key] = out[key] " " w[i]
		}
		printf "%s|%s|%s|%s\n", w[1], out["USES"], out["LIBS"], out["PUBLIC"] }
	     /^set\(GPUPLAN_CLI_USES / { t = $0; sub(/^set\(GPUPLAN_CLI_USES */, "", t); sub(/\).*/, "", t)
		cli = t }
	     END { printf "cli| %s||\n", cli }' "$1/planner/CMakeLists.txt"
}

# check TREE: prints one line per violation; exit 1 when any.
check() {
	local tree=$1 bad=0 l uses libs pub h f kind
	declare -A row_uses row_libs owner public used
	while IFS="|" read -r l uses libs pub; do
		row_uses[$l]="$uses " row_libs[$l]="$libs "
		[ -d "$tree/planner/$l" ] || { echo "layer '$l' has no folder"; bad=1; }
		for h in $pub; do public[$l/$h]=1; done
	done < <(rows "$tree")
	[ ${#row_uses[@]} -gt 1 ] || { echo "no GPUPLAN_LAYER_ rows in planner/CMakeLists.txt"; return 1; }
	for d in "$tree"/planner/*/; do
		l=$(basename "$d")
		[ "$l" = cmake ] && continue
		[ -n "${row_uses[$l]+x}" ] || { echo "planner/$l/ has no GPUPLAN_LAYER_$l row"; bad=1; }
		while read -r h; do
			[ -n "$h" ] || continue
			h=${h#"$d"}
			[ -z "${owner[$h]+x}" ] || { echo "header $h is in both planner/${owner[$h]}/ and planner/$l/"; bad=1; }
			owner[$h]=$l
		done < <(find "$d" -name '*.h' | sort)
	done
	# outside libraries: header -> the CMake target that brings it
	declare -A lib=([glpk.h]=GLPK::GLPK [cJSON.h]=PkgConfig::CJSON [yaml.h]=PkgConfig::YAML [csv.h]=LibCSV::LibCSV)
	while IFS=$'\t' read -r f kind h; do
		l=${f#"$tree"/planner/}
		l=${l%%/*}
		[ -n "${row_uses[$l]+x}" ] || continue
		if [ "$kind" = '<' ]; then
			if [ -n "${lib[$h]+x}" ] && [[ "${row_libs[$l]}" != *" ${lib[$h]} "* ]]; then
				echo "${f#"$tree"/}: includes <$h>, which planner/$l/'s row does not link (LIBS)"
				bad=1
			fi
			continue
		fi
		case $h in
		*/*) [ -e "$(dirname "$f")/$h" ] && [ "${owner[$h]-$l}" = "$l" ] && continue
			[ -e "$tree/planner/$l/$h" ] && continue
			echo "${f#"$tree"/}: includes \"$h\" by a path; include another layer's header by its name"
			bad=1
			continue ;;
		esac
		if [ -e "$(dirname "$f")/$h" ]; then
			:	# beside the source: its own folder
		elif [ -z "${owner[$h]+x}" ]; then
			echo "${f#"$tree"/}: includes \"$h\", found in no layer"
			bad=1
		elif [ "${owner[$h]}" = "$l" ]; then
			:
		elif [[ "${row_uses[$l]}" != *" ${owner[$h]} "* ]]; then
			echo "${f#"$tree"/}: includes \"$h\" of planner/${owner[$h]}/, which planner/$l/'s row does not use"
			bad=1
		elif [ -z "${public[${owner[$h]}/$h]+x}" ]; then
			echo "${f#"$tree"/}: includes \"$h\", a private header of planner/${owner[$h]}/"
			bad=1
		else
			used[$l/${owner[$h]}]=1
		fi
	done < <(find "$tree/planner" -name '*.[ch]' ! -path '*/cmake/*' -print0 | sort -z | xargs -0 awk '
		match($0, /^[ \t]*#[ \t]*include[ \t]*["<][^">]*[">]/) {
			s = substr($0, RSTART, RLENGTH); sub(/^[^"<]*/, "", s)
			printf "%s\t%s\t%s\n", FILENAME, substr(s, 1, 1), substr(s, 2, length(s) - 2) }')
	for l in "${!row_uses[@]}"; do
		for u in ${row_uses[$l]}; do
			[ -n "${used[$l/$u]+x}" ] || { echo "planner/$l/'s row uses $u, but no source of planner/$l/ includes a header of it"; bad=1; }
		done
	done
	return $bad
}

if ! out=$(check "$src"); then
	echo "layer rule broken in $src:"
	echo "$out"
	exit 1
fi
echo "layers ok: $(rows "$src" | cut -d"|" -f1 | tr '\n' ' ')"
[ -n "$work" ] || exit 0

# The check must be able to fail: plant an include of a layer model does not
# use, a private header of report in cli, and cJSON in cli, in a copy, and
# expect each to be named.
rm -rf "$work"
mkdir -p "$work"
cp -r "$src/planner" "$work/planner"
public=$(rows "$src" | awk -F"|" '$1 == "report" { print $4 }')
victim=
for h in "$src"/planner/report/*.h; do
	[[ " $public " == *" $(basename "$h") "* ]] || { victim=$(basename "$h"); break; }
done
[ -n "$victim" ] || { echo "planner/report/ has no private header to plant"; exit 1; }
sed -i '0,/#include "banned.h"/s//#include "plan.h"\n&/' "$work/planner/model/catalog.c"
sed -i "0,/#include \"banned.h\"/s//#include \"$victim\"\n&/" "$work/planner/cli/main.c"
sed -i '0,/#include "banned.h"/s//#include <cJSON.h>\n&/' "$work/planner/cli/main.c"
if out=$(check "$work"); then
	echo "the check passed a tree with planted violations"
	exit 1
fi
grep -q 'model/catalog.c: includes "plan.h" of planner/solve/, which planner/model/.s row does not use' <<<"$out" ||
	{ echo "include of an unused layer not named:"; echo "$out"; exit 1; }
grep -q "cli/main.c: includes \"$victim\", a private header of planner/report/" <<<"$out" ||
	{ echo "private header not named:"; echo "$out"; exit 1; }
grep -q 'cli/main.c: includes <cJSON.h>' <<<"$out" || { echo "cJSON in cli not named:"; echo "$out"; exit 1; }
echo "planted violations caught: $(wc -l <<<"$out")"

# The build itself refuses another layer's private header: cli/main.c
# compiled as the build compiles it (compile_commands.json), with the
# private header planted, must fail; unplanted, it must compile.
db=$(dirname "$1")/../compile_commands.json
[ -f "$db" ] || { echo "no compile_commands.json beside the build (CMAKE_EXPORT_COMPILE_COMMANDS)"; exit 1; }
cmd=$(python3 - "$db" "$src/planner/cli/main.c" <<'EOF'
import json, shlex, sys
for e in json.load(open(sys.argv[1])):
    if e["file"] == sys.argv[2] and "/gpuplan.dir/" in e.get("output", e["command"]):
        a = shlex.split(e["command"])
        i = a.index("-o")
        del a[i:i + 2]
        a = [x for x in a if x not in ("-c", e["file"])]
        print(shlex.join(a))
        break
EOF
)
[ -n "$cmd" ] || { echo "cli/main.c is not in compile_commands.json"; exit 1; }
cp "$src/planner/cli/main.c" "$work/main-ok.c"
sed "0,/#include \"banned.h\"/s//#include \"$victim\"\n&/" "$src/planner/cli/main.c" >"$work/main-bad.c"
quote="-iquote $src/planner/cli"	# the sources' own folder, as for the real file
if ! eval "$cmd $quote -fsyntax-only $work/main-ok.c" 2>"$work/ok.err"; then
	echo "cli/main.c does not compile outside its folder:"; cat "$work/ok.err"; exit 1
fi
if eval "$cmd $quote -fsyntax-only $work/main-bad.c" 2>"$work/bad.err"; then
	echo "cli/main.c compiled with report's private header $victim included"; exit 1
fi
grep -q "$victim: No such file" "$work/bad.err" || { echo "unexpected compiler error:"; cat "$work/bad.err"; exit 1; }
echo "the compiler refuses report's private header $victim in cli/main.c"
