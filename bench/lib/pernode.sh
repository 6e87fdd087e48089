# shellcheck shell=bash
# bench/lib/pernode.sh - the per-node model, sourced by bench/pernode.sh and by
# tests/scripts/test_bench_pernode.sh (which feeds it small files).  Only file
# transformations and formatting here: nothing is run or timed.
#
# gpuplan's model counts nodes per class (an inventory row): a class's CPU and RAM rows
# sum over its nodes and its arcs (replicas of a demand on a slot type) are continuous,
# so the model is a relaxation of the plans made concrete (docs/formulation.md).  With
# every node a class of its own and every arc integer the rows hold node by node and
# the model is the concrete problem itself: a solver's plan of it deals over real nodes
# as it stands (HiGHS's plans of the 17 bench S seeds cost the same made concrete), and a
# solver's lower bound of it bounds every concrete plan.

# pernode_inventory IN OUT: the inventory IN with every row of `count` N written as N
# rows of count 1, named NAME-n1 .. NAME-nN (the same nodes, one class each); comment
# lines and the header are kept.  The columns are found by the header's names.
pernode_inventory() {
	awk -F, -v OFS=, '
		/^#/ { print; next }
		!h { for (i = 1; i <= NF; i++) { if ($i == "name") cn = i; if ($i == "count") cc = i }
			h = 1; print
			if (!cn || !cc) { bad = 1; exit }
			next }
		NF { n = $cc; base = $cn; for (j = 1; j <= n; j++) { $cn = base "-n" j; $cc = 1; print } }
		END { exit bad }' "$1" >"$2"
}

# pernode_int_arcs IN OUT: the free MPS file IN (`gpuplan plan --export-model`) with
# every arc column (A_*) integer: each run of consecutive arc columns in COLUMNS is put
# between an INTORG and an INTEND marker (GP_ARCS1, GP_ARCS2, ...); the rest is kept.
# gpuplan bounds every arc above by its demand's replicas (BOUNDS: UP), so no reader
# takes a marked column for a binary one, as MPS readers may for unbounded ones.
pernode_int_arcs() {
	awk '
		function close_arcs() { if (inarc) { printf " GP_ARCS%d '"'"'MARKER'"'"' '"'"'INTEND'"'"'\n", n; inarc = 0 } }
		/^[^ *]/ { if (sec == "COLUMNS") close_arcs(); sec = $1; print; next }
		sec == "COLUMNS" && /^ / {
			if ($2 == "'"'"'MARKER'"'"'") close_arcs()
			else if ($1 != cur) {
				cur = $1
				if (cur ~ /^A_/ && !inarc) { printf " GP_ARCS%d '"'"'MARKER'"'"' '"'"'INTORG'"'"'\n", ++n; inarc = 1 }
				else if (cur !~ /^A_/) close_arcs()
			}
		}
		{ print }' "$1" >"$2"
}

# pernode_row SEED GPUPLAN_RESULT SOLVER_RESULT CONCRETE: one row of bench/pernode.sh's
# table.  GPUPLAN_RESULT is bench_gpuplan's line of gpuplan's plan, SOLVER_RESULT
# bench_highs's of the solver on the per-node model, CONCRETE its plan made concrete
# (bench_start; "-": none).  The last columns: the cheaper of the two concrete plans,
# the higher of the two proven bounds, and gpuplan's plan over each.
pernode_row() {
	awk -v seed="$1" -v g="$2" -v h="$3" -v c="$4" 'BEGIN {
		split(g, fg, " "); split(h, fh, " ")
		best = fg[2]; if (c != "-" && (best == "-" || c + 0 < best + 0)) best = c
		lb = fg[3]; if (fh[3] != "-" && (lb == "-" || fh[3] + 0 > lb + 0)) lb = fh[3]
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", seed, num(fg[2]), num(fg[3]),
			pct(fg[4]), fh[1], num(c), num(fh[3]), over(fg[2], best), num(lb), over(fg[2], lb)
	}
	function num(x) { return x == "-" ? "" : sprintf("%.2f", x) }
	function pct(x) { return x == "-" ? "" : sprintf("%.3f%%", 100 * x) }
	function over(x, r) { return (x == "-" || r == "-" || x + 0 == 0) ? "" : sprintf("%.3f%%", 100 * (x - r) / x) }'
}
