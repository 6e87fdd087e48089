#!/bin/bash
# test_bench_pernode.sh - bench/pernode.sh's per-node model: bench/lib/pernode.sh on
# small files (an inventory split into one class per node, arc columns of an MPS file
# marked integer, a row of the table), the script's usage and argument checks, and on
# a real export (bench S seed 4, per node) that every node is a class of count 1 and
# every arc column is integer and bounded.  When HiGHS is installed in
# SRC_DIR/build/npm (bench/run.sh installs it), one run of the script on S seed 4
# (1 s gpuplan, 5 s HiGHS; only the form of its row is checked); else SKIP.
#
# usage: bash test_bench_pernode.sh GPUPLAN_EXE SRC_DIR WORK_DIR
# Ends with "N passed, N failed".
. "$(dirname "$0")/lib.sh"
export LC_ALL=C
# shellcheck source=bench/lib/parse.sh
. "$src/bench/lib/parse.sh"
# shellcheck source=bench/lib/pernode.sh
. "$src/bench/lib/pernode.sh"

# expect WHAT GOT WANT
expect() {
	if [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', want '$3'"; fi
}

# the columns are found by name, whatever their order; comments and the header stay
cat >inv.csv <<'EOF'
# a comment
count,name,gpu_type
3,big,L4
1,one,T4
EOF
cat >inv-want.csv <<'EOF'
# a comment
count,name,gpu_type
1,big-n1,L4
1,big-n2,L4
1,big-n3,L4
1,one-n1,T4
EOF
if pernode_inventory inv.csv inv-out.csv && cmp -s inv-out.csv inv-want.csv; then
	ok
else
	bad "pernode_inventory: $(diff inv-out.csv inv-want.csv)"
fi
printf 'name,gpu_type\nbig,L4\n' >inv-bad.csv
pernode_inventory inv-bad.csv inv-bad-out.csv
expect "pernode_inventory without a count column: exit code" "$?" "1"

# two runs of arc columns, one after a block already integer, one at the end of COLUMNS
cat >m.mps <<'EOF'
* Format:     Free MPS
NAME gpuplan
ROWS
 N R0000000
 L dem_0
COLUMNS
 M0000001 'MARKER' 'INTORG'
 N_0_mig R0000000 5 dem_0 1
 M0000002 'MARKER' 'INTEND'
 A_0_0_0 R0000000 2 dem_0 1
 A_0_0_0 cap_0_0 1
 A_1_0_0 R0000000 3
 U_0 R0000000 100 dem_0 1
 A_2_0_1 R0000000 4
RHS
 RHS1 dem_0 3
BOUNDS
 UP BND1 A_0_0_0 3
ENDATA
EOF
cat >m-want.mps <<'EOF'
* Format:     Free MPS
NAME gpuplan
ROWS
 N R0000000
 L dem_0
COLUMNS
 M0000001 'MARKER' 'INTORG'
 N_0_mig R0000000 5 dem_0 1
 M0000002 'MARKER' 'INTEND'
 GP_ARCS1 'MARKER' 'INTORG'
 A_0_0_0 R0000000 2 dem_0 1
 A_0_0_0 cap_0_0 1
 A_1_0_0 R0000000 3
 GP_ARCS1 'MARKER' 'INTEND'
 U_0 R0000000 100 dem_0 1
 GP_ARCS2 'MARKER' 'INTORG'
 A_2_0_1 R0000000 4
 GP_ARCS2 'MARKER' 'INTEND'
RHS
 RHS1 dem_0 3
BOUNDS
 UP BND1 A_0_0_0 3
ENDATA
EOF
pernode_int_arcs m.mps m-out.mps
if cmp -s m-out.mps m-want.mps; then ok; else bad "pernode_int_arcs: $(diff m-out.mps m-want.mps)"; fi

# the row: the cheaper concrete plan and the higher bound of the two
expect "pernode row, the solver's plan cheaper" \
	"$(pernode_row 6 "feasible 200.00 180.00 0.100000 100" "time-limit 190 170 0.1 -" 195)" \
	"| 6 | 200.00 | 180.00 | 10.000% | time-limit | 195.00 | 170.00 | 2.500% | 180.00 | 10.000% |"
expect "pernode row, the solver's bound higher, no plan of it" \
	"$(pernode_row 2 "feasible 200.00 180.00 0.100000 100" "no-plan - 190 - -" -)" \
	"| 2 | 200.00 | 180.00 | 10.000% | no-plan |  | 190.00 | 0.000% | 190.00 | 5.000% |"

if bash "$src/bench/pernode.sh" -h >help.out 2>&1; then ok; else bad "bench/pernode.sh -h exited $?"; fi
for o in --seeds --limit --solver-limit; do
	if grep -q -- "$o" help.out; then ok; else bad "bench/pernode.sh -h does not list $o"; fi
done
for args in "--bogus" "" "-g $exe -s Q" "-g $exe --seeds x" "-g $exe --solver-limit 0" "-g $exe --limit 10000"; do
	# shellcheck disable=SC2086
	bash "$src/bench/pernode.sh" $args >bogus.out 2>&1
	expect "bench/pernode.sh '$args': exit code" "$?" "2"
done

# a real export: bench S seed 4, one class per node, its arcs integer and bounded
if "$exe" bench gen --size S --seed 4 -o gen >gen.log 2>&1; then ok; else bad "bench gen: $(cat gen.log)"; fi
mkdir -p node && cp gen/scenario.yaml gen/workloads.csv node/
pernode_inventory gen/inventory.csv node/inventory.csv
expect "per-node inventory: one row per node" \
	"$(awk -F, '!/^#/ && $1 != "name" { n++ } END { print n }' node/inventory.csv)" \
	"$(awk -F, '!/^#/ && $1 != "name" { n += $2 } END { print n }' gen/inventory.csv)"
expect "per-node inventory: every count 1" "$(awk -F, '!/^#/ && $1 != "name" && $2 != 1' node/inventory.csv)" ""
"$exe" plan node/scenario.yaml -o node-out --format csv --time-limit 1 --export-model node.mps >node.log 2>&1
expect "plan --export-model of the per-node instance: exit code" "$?" "0"
pernode_int_arcs node.mps node-int.mps
# each A_ column inside a GP_ARCS block, and every one bounded above
awk '/^COLUMNS/ { c = 1; next } /^[^ *]/ { c = 0 } /^BOUNDS/ { b = 1; next }
	c && $2 == "'"'"'MARKER'"'"'" { in_arcs = ($1 ~ /^GP_ARCS/ && $3 == "'"'"'INTORG'"'"'"); next }
	c && $1 ~ /^A_/ { arcs[$1] = 1; if (!in_arcs) loose[$1] = 1 }
	b && $1 == "UP" && $3 ~ /^A_/ { up[$3] = 1 }
	END { for (a in arcs) { n++; if (a in loose) l++; if (!(a in up)) u++ }
		printf "%d arcs, %d not integer, %d unbounded\n", n, l, u }' node-int.mps >arcs.out
if grep -Eq '^[1-9][0-9]* arcs, 0 not integer, 0 unbounded$' arcs.out; then ok; else bad "per-node model's arcs: $(cat arcs.out)"; fi

npm_dir=$src/build/npm
if [ -d "$npm_dir/node_modules/highs" ] && command -v node >/dev/null 2>&1; then
	bash "$src/bench/pernode.sh" -g "$exe" --seeds 4 --limit 1 --solver-limit 5 -w run >run.out 2>run.err
	expect "bench/pernode.sh exit code" "$?" "0"
	if grep -Eq '^\| 4 \| [0-9]+\.[0-9]{2} \| [0-9]+\.[0-9]{2} \| [0-9.]+% \| [a-z-]+ \|' run.out; then
		ok
	else
		bad "bench/pernode.sh: no row for S seed 4: $(cat run.out run.err)"
	fi
else
	echo "SKIP: npm highs not installed in $npm_dir (bench/run.sh installs it)"
fi

finish
