# shellcheck shell=bash
# bench/lib/parse.sh - what bench/run.sh reads from each run's output, sourced by
# run.sh and by tests/scripts/test_bench_parse.sh (which feeds it fake outputs).
# Only parsing and formatting here: nothing is run or timed.
#
# A run's result is one line of five words, "-" for what the run did not give:
#   STATUS OBJECTIVE BOUND GAP LP
# and, for CBC and HiGHS, a sixth: CONCRETE, the solver's plan made concrete by
# gpuplan (`plan --start`: dealt over real nodes, unplaced replicas at their penalty).
# STATUS one word (optimal, feasible, time-limit, no-plan, killed, ...); OBJECTIVE
# the best plan's objective; BOUND the proven lower bound the run reports; GAP
# (OBJECTIVE - BOUND) / OBJECTIVE as a fraction; LP the LP relaxation's bound
# (gpuplan's `lp_bound`; the solvers' is not read).

# bench_size_runs SIZE LIMIT SEEDS: "LIMIT SEED..." for one bench size, the defaults every
# bench script shares: the time limit LIMIT when given, else 60 s for XL and 10 s for S, M
# and L; the seeds SEEDS when given, else S 1-17, M 1-12, L 1-4, XL 1.
bench_size_runs() {
	local tl list
	case $1 in XL) tl=60 list=1 ;; L) tl=10 list="1 2 3 4" ;; M) tl=10 list=$(seq 1 12) ;; *) tl=10 list=$(seq 1 17) ;; esac
	# shellcheck disable=SC2086 # the seeds are words
	echo "${2:-$tl}" ${3:-$list}
}

# bench_time FILE: "WALL RSS_KIB" from `/usr/bin/time -f "%e %M" -o FILE` (its last
# line: a failing command adds a "Command exited ..." line before it); "- -" when empty.
bench_time() {
	awk 'NF == 2 { w = $1; r = $2 } END { print (w == "" ? "-" : w), (r == "" ? "-" : r) }' "$1" 2>/dev/null ||
		echo "- -"
}

# bench_gpuplan SUMMARY_CSV: gpuplan's summary.csv as a result line: its status,
# objective, lower_bound (the proven bound it reports; lp_bound from a build that
# has no lower_bound), gap and lp_bound.
bench_gpuplan() {
	awk -F, '
		{ v[$1] = $2 }
		END {
			lb = ("lower_bound" in v) ? v["lower_bound"] : v["lp_bound"]
			printf "%s %s %s %s %s\n", w(v["status"]), w(v["objective"]), w(lb), w(v["gap"]), w(v["lp_bound"])
		}
		function w(s) { return s == "" ? "-" : s }' "$1"
}

# bench_cbc LOG: CBC 2.10's log as a result line.  The "Result - " line gives the
# status, "Objective value:" the objective ("No feasible solution found": none),
# "Lower bound:" the bound; CBC prints no bound when it stops on optimality or on
# its gap tolerance (`ratio`), so there the bound is the objective itself.
bench_cbc() {
	awk '
		/^Result - / {
			r = substr($0, 10)
			st = r ~ /[Oo]ptimal/ ? "optimal" : r ~ /time/ ? "time-limit" : r ~ /[Ii]nfeasible/ ? "infeasible" : "stopped"
		}
		/^Objective value:/ { obj = $3 }
		/^Lower bound:/ { lb = $3 }
		END {
			if (st == "") { print "no-result - - - -"; exit }
			if (st == "optimal" && lb == "") lb = obj
			if (obj == "" && st == "time-limit") st = "no-plan"
			gap = (obj != "" && lb != "" && obj + 0 != 0) ? sprintf("%.6f", (obj - lb) / (obj < 0 ? -obj : obj)) : ""
			printf "%s %s %s %s -\n", st, w(obj), w(lb), w(gap)
		}
		function w(s) { return s == "" ? "-" : s }' "$1"
}

# bench_highs LOG: the "highs: status S objective X bound Y gap G time T" line of
# bench/lib/highs.js as a result line (HiGHS's model status names: optimal,
# timeLimit, ...).
bench_highs() {
	awk '
		$1 == "highs:" && $2 == "status" {
			st = $3 == "timeLimit" ? "time-limit" : $3
			obj = $5; lb = $7; gap = $9
		}
		END {
			if (st == "") { print "no-result - - - -"; exit }
			if (obj == "none") { obj = ""; gap = ""; if (st == "time-limit") st = "no-plan" }
			if (lb == "none") { lb = ""; gap = "" }
			printf "%s %s %s %s -\n", st, w(obj), w(lb), w(gap)
		}
		function w(s) { return s == "" ? "-" : s }' "$1"
}

# bench_start LOG: the cost of another solver's plan made concrete, from the
# "gpuplan-ilp: start FILE (...): objective X unplaced U; made concrete Y unplaced V"
# line of `gpuplan --verbose plan --start FILE`; "-" without one.
bench_start() {
	awk '$1 == "gpuplan-ilp:" && $2 == "start" { for (i = 3; i < NF; i++) if ($i == "concrete") y = $(i + 1) }
		END { print y == "" ? "-" : y }' "$1" 2>/dev/null || echo "-"
}

# bench_start_prio LOG: what that plan made concrete leaves unplaced per priority, the
# "by priority P:N+P:N" ("none": every replica placed) the start line of a build since
# prio42 ends with; "-" without one (an older build's log, or none).
bench_start_prio() {
	awk '$1 == "gpuplan-ilp:" && $2 == "start" { for (i = 3; i < NF; i++) if ($i == "by" && $(i + 1) == "priority") y = $(i + 2) }
		END { print y == "" ? "-" : y }' "$1" 2>/dev/null || echo "-"
}

# bench_unplaced_prio UNPLACED_CSV WORKLOADS_CSV: what a plan leaves unplaced per priority in
# the form of bench_start_prio, from its unplaced.csv (workload, tenant, replicas, reason)
# and the instance's workloads.csv (its priority column; 1 where empty); "-" when either
# file cannot be read.  Replicas count 1 each: the priority rule's figures where the
# scenario does not weigh them by GPUs (unplaced_weight: gpus), as no bench instance does.
bench_unplaced_prio() {
	if [ ! -r "$1" ] || [ ! -r "$2" ]; then
		echo "-"
		return
	fi
	awk -F, '
		NR == FNR && /^#/ { next }
		NR == FNR && !h { for (i = 1; i <= NF; i++) if ($i == "priority") pc = i; h = 1; next }
		NR == FNR { pr[$1] = pc && $pc != "" ? $pc + 0 : 1; next }
		FNR > 1 && $3 + 0 > 0 { q = ($1 in pr) ? pr[$1] : 1; if (!(q in u)) k[++n] = q; u[q] += $3 }
		END {
			for (i = 2; i <= n; i++)	# highest priority first: an insertion sort of a few
				for (j = i; j > 1 && k[j] > k[j - 1]; j--) { t = k[j]; k[j] = k[j - 1]; k[j - 1] = t }
			for (i = 1; i <= n; i++) s = s (i > 1 ? "+" : "") k[i] ":" u[k[i]]
			print n ? s : "none"
		}' "$2" "$1"
}

# The priority rule (docs/formulation.md, "Priority") between two such forms, for awk
# programs: prio_cmp(A, B) is "-1 P" when A leaves fewer replicas unplaced than B at P,
# the highest priority where they differ, "1 P" when more, "0" when they leave as many at
# every priority, "?" when either is "-" or empty (not known: compare by cost alone).
# shellcheck disable=SC2016 # awk source
BENCH_PRIO_AWK='
function prio_read(s, c,   f, t, i, n) {
	if (s == "none") return
	n = split(s, f, "+")
	for (i = 1; i <= n; i++) { split(f[i], t, ":"); c[t[1] + 0] += t[2] }
}
function prio_cmp(a, b,   ca, cb, p, top) {
	if (a == "-" || a == "" || b == "-" || b == "") return "?"
	prio_read(a, ca); prio_read(b, cb)
	top = 0
	for (p in ca) if (ca[p] + 0 != cb[p] + 0 && p + 0 > top) top = p + 0
	for (p in cb) if (ca[p] + 0 != cb[p] + 0 && p + 0 > top) top = p + 0
	return top == 0 ? "0" : (ca[top] + 0 < cb[top] + 0 ? "-1 " : "1 ") top
}'

# bench_prio_cmp A B: prio_cmp(A, B) of BENCH_PRIO_AWK.
bench_prio_cmp() {
	awk -v a="$1" -v b="$2" "$BENCH_PRIO_AWK"' BEGIN { print prio_cmp(a, b) }'
}

# bench_better COST PRIO KNOWN KNOWN_PRIO: exit 0 when a concrete plan (COST, its unplaced
# per priority PRIO) is better than an instance's best known row (KNOWN, its cost;
# KNOWN_PRIO) by the priority rule, then by more than half a cent of cost; by cost alone
# where either unplaced per priority is not known ("-").  Exit 1 otherwise, or when COST
# or KNOWN is "-".
bench_better() {
	awk -v c="$1" -v cp="$2" -v k="$3" -v kp="$4" "$BENCH_PRIO_AWK"' BEGIN {
		if (c == "-" || c == "" || k == "-" || k == "") exit 1
		r = prio_cmp(cp, kp)
		exit !(r ~ /^-1/ || (r !~ /^1/ && c + 0 < k - 0.005))
	}'
}

# bench_row SIZE RUN LIMIT WALL RSS_KIB RESULT REF [KNOWN]: one row of the results table
# (bench_header); RESULT a result line, REF gpuplan's objective for the next two columns
# (the run's objective / gpuplan's, and its plan made concrete / gpuplan's: a solver's
# CONCRETE, gpuplan's own objective, which is concrete; "-" for none), KNOWN the
# instance's best known concrete plan (bench_known; "-" or absent: none) for the last:
# the run's concrete plan / the best known.
bench_row() {
	awk -v s="$1" -v run="$2" -v tl="$3" -v wall="$4" -v rss="$5" -v res="$6" -v ref="$7" -v known="${8:--}" 'BEGIN {
		split(res, f, " ")
		over = wall == "-" ? "" : sprintf("%+.2f s", wall - tl)
		c = 6 in f ? f[6] : f[2]
		printf "| %s | %s | %d s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", s, run, tl,
			wall == "-" ? "" : sprintf("%.2f s", wall), over,
			rss == "-" ? "" : sprintf("%.0f MiB", rss / 1024), f[1], num(f[2]), num(f[3]),
			f[4] == "-" ? "" : sprintf("%.3f%%", 100 * f[4]), num(f[5]),
			ratio(f[2], ref), ratio(c, ref), ratio(c, known)
	}
	function ratio(x, r) { return (x == "-" || r == "-" || r + 0 == 0) ? "" : sprintf("%.4f", x / r) }
	function num(x) { return x == "-" ? "" : sprintf("%.2f", x) }'
}

bench_header() {
	printf '| size | run | limit | wall | overrun | peak RSS | status | objective | bound | gap | LP bound | objective / gpuplan'"'"'s | made concrete / gpuplan'"'"'s | made concrete / best known |\n'
	printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
}

# bench_best SIZE GPUPLAN_OBJECTIVE [KNOWN [KNOWN_PRIO]] < "RUN OBJECTIVE BOUND [CONCRETE
# [PRIO]]" lines: the best plan and the best proven bound over a size's runs (RUN one word;
# OBJECTIVE a solver's on the model, CONCRETE its plan made concrete, gpuplan's own
# objective when absent; PRIO what that plan leaves unplaced per priority, bench_start_prio's
# form, "-" or absent: not known), how far gpuplan's plan is above that bound, and with KNOWN
# (bench_known's line) how far above the best known concrete plan, and whether a run's
# concrete plan is better than that (then bench/best-known.csv wants the new row): by the
# priority rule against KNOWN_PRIO (the row's unplaced_by_priority, bench_known_prio), then
# by cost; by cost alone, and said so, where either is not known:
#   "best plan X (RUN); best bound Y (RUN); gpuplan Z% above it; best known K (HOW);
#    gpuplan W% over it[; new best known: C (RUN)[, fewer unplaced at priority P than the
#    row|, by cost alone: unplaced per priority not known]: update bench/best-known.csv]"
# (the best among several: by the rule, then by cost, the first on a tie)
bench_best() {
	awk -v s="$1" -v ours="$2" -v known="${3:--}" -v kp="${4:--}" "$BENCH_PRIO_AWK"'
		$2 != "-" && (bo == "" || $2 + 0 < bo + 0) { bo = $2; bor = $1 }
		$3 != "-" && (bb == "" || $3 + 0 > bb + 0) { bb = $3; bbr = $1 }
		{ c = NF >= 4 ? $4 : $2; cp = NF >= 5 ? $5 : "-"; split(known, k, " ") }
		# a candidate: better than the row (by the rule, then cost), and than the one before
		c != "-" && k[1] != "-" && k[1] != "" {
			r = prio_cmp(cp, kp)
			if (!(r ~ /^-1/ || (r !~ /^1/ && c + 0 < k[1] - 0.005))) next
			if (bc != "") {
				q = prio_cmp(cp, bcp)
				if (q ~ /^1/ || (q !~ /^-1/ && c + 0 >= bc + 0)) next
			}
			bc = c; bcr = $1; bcp = cp; bck = r
		}
		END {
			printf "%s: best plan %s; best bound %s", s,
				bo == "" ? "none" : sprintf("%.2f (%s)", bo, bor), bb == "" ? "none" : sprintf("%.2f (%s)", bb, bbr)
			if (bb != "" && ours != "-" && ours + 0 != 0)
				printf "; gpuplan %.3f%% above it", 100 * (ours - bb) / ours
			split(known, k, " ")
			if (known == "-") {
				# no best known asked for
			} else if (k[1] == "-") {
				sub(/^- */, "", known)
				printf "; best known: %s", known
			} else if (k[1] != "") {
				how = known
				sub(/^[^ ]* /, "", how)
				printf "; best known %.2f %s", k[1], how
				if (ours != "-")
					printf "; gpuplan %+.3f%% over it", 100 * (ours / k[1] - 1)
				if (bc != "")
					printf "; new best known: %.2f (%s)%s: update bench/best-known.csv", bc, bcr,
						bck ~ /^-1/ ? ", fewer unplaced at priority " substr(bck, 4) " than the row" : \
						bck == "?" ? ", by cost alone: unplaced per priority not known" : ""
			}
			printf "\n"
		}'
}

# bench_known_prio FILE INSTANCE: the unplaced_by_priority of INSTANCE's row in
# bench/best-known.csv (bench_start_prio's form); "-" when the row has none (a row written
# before the column, or "-" in it) or there is no row.
bench_known_prio() {
	awk -F, -v inst="$2" '!/^#/ && $1 == inst { p = $13; exit } END { print p == "" ? "-" : p }' "$1" 2>/dev/null ||
		echo "-"
}

# bench_digest DIR: the SHA-256 of a generated instance's scenario.yaml, inventory.csv and
# workloads.csv, in that order (bench/best-known.csv's instance_sha256).
bench_digest() {
	cat "$1/scenario.yaml" "$1/inventory.csv" "$1/workloads.csv" 2>/dev/null | sha256sum | cut -d' ' -f1
}

# bench_models_sha DIR: the SHA-256 of what prices a bench instance besides its own files:
# the models directory DIR's gpus.yaml, licenses.yaml and clouds.yaml, in that order, without
# their blank lines and the lines that are only a comment (a comment prices nothing; a
# comment after a value stays in), so that only an edit of the tables moves it
# (bench/best-known.csv's models_sha256); "unknown" when a file cannot be read.
bench_models_sha() {
	local f
	for f in gpus licenses clouds; do
		[ -r "$1/$f.yaml" ] || { echo unknown; return; }
	done
	for f in gpus licenses clouds; do
		grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$1/$f.yaml"
	done | sha256sum | cut -d' ' -f1
}

# bench_models_digest GPUPLAN: bench_models_sha of the models directory GPUPLAN plans with,
# the one `GPUPLAN models check` names ($GPUPLAN_MODELS, the installed models or the source
# tree the build was made from); "unknown" when it names none.
bench_models_digest() {
	local dir
	dir=$("$1" models check 2>/dev/null | sed -n '1s/^models \(.*\): consistent .*/\1/p')
	if [ -n "$dir" ]; then bench_models_sha "$dir"; else echo unknown; fi
}

# bench_known FILE INSTANCE SHA MODELS_SHA: the best known concrete plan of INSTANCE (S1,
# M12, ...) from bench/best-known.csv when the row still fits the instance (its
# instance_sha256 is SHA, bench_digest's, and its models_sha256 MODELS_SHA,
# bench_models_digest's; "-" skips either check): "OBJECTIVE (ENGINE, build BUILD, TIME s,
# MEASURED)"; else "- none" or "- stale (...)".
bench_known() {
	awk -F, -v inst="$2" -v sha="$3" -v models="$4" '
		/^#/ || $1 != inst { next }
		{ found = 1 }
		models == "unknown" { stale = "the models gpuplan reads could not be read" }
		models != "-" && models != "unknown" && $11 != models {
			stale = "the models differ from those the row was checked with: see the header of bench/best-known.csv"
		}
		sha != "-" && $12 != sha { stale = "the instance differs from the one measured: the generator changed" }
		found && !stale { printf "%.2f (%s, build %s, %s s, %s)\n", $4, $5, $6, $8, $9 }
		found && stale { printf "- stale (%s)\n", stale }
		{ exit }
		END { if (!found) print "- none" }' "$1" 2>/dev/null || echo "- none"
}

# bench_pair_row SIZE SEED BASE_RESULT NEW_RESULT [BASE_AGAIN_OBJECTIVE [KNOWN]]: one row
# of bench/seeds.sh's table from two result lines (bench_gpuplan): each objective and
# proven gap, the change of the new objective over the base's, when the base ran a
# second time the change of that run's objective over its first ("-": none), and the
# new objective over the best known concrete plan (KNOWN, bench_known's line; "-": none).
bench_pair_row() {
	awk -v s="$1" -v seed="$2" -v b="$3" -v n="$4" -v again="${5:--}" -v known="${6:--}" 'BEGIN {
		split(b, fb, " "); split(n, fn, " "); split(known, k, " ")
		printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", s, seed, num(fb[2]), pct(fb[4]), num(fn[2]),
			pct(fn[4]), change(fn[2], fb[2]), change(again, fb[2]), change(fn[2], k[1])
	}
	function num(x) { return x == "-" ? "" : sprintf("%.2f", x) }
	function pct(x) { return x == "-" ? "" : sprintf("%.3f%%", 100 * x) }
	function change(x, r) { return (x == "-" || x == "" || r == "-" || r == "" || r + 0 <= 0) ? "" : sprintf("%+.2f%%", 100 * (x / r - 1)) }'
}

# bench_pair_summary < "SIZE BASE NEW [BASE_AGAIN]" objective lines ("-": no plan): per
# size, in the order first seen, the geometric mean of NEW / BASE over the seeds where
# both have a plan, how many seeds NEW makes cheaper and dearer by more than the
# widest change between the base's two runs (its spread: a change within it is as
# likely a draw of the clock as an effect), and that spread.  Without BASE_AGAIN the
# spread is 0 and every change counts.  A line per size:
#   "SIZE: N seeds; new / base: geometric mean +X.XX%; C cheaper, D dearer by more than
#    the base's own spread of Y.YY% (E within it)"
bench_pair_summary() {
	awk '
		!($1 in n) { order[++sizes] = $1; n[$1] = 0; lg[$1] = 0; spread[$1] = 0 }
		$2 != "-" && $3 != "-" && $2 + 0 > 0 && $3 + 0 > 0 {
			c[$1, ++n[$1]] = $3 / $2 - 1
			lg[$1] += log($3 / $2)
			if (NF >= 4 && $4 != "-" && $4 + 0 > 0) {
				a = $4 / $2 - 1
				if (a < 0) a = -a
				if (a > spread[$1]) spread[$1] = a
			}
		}
		END {
			for (i = 1; i <= sizes; i++) {
				s = order[i]; lo = 0; hi = 0; within = 0
				for (j = 1; j <= n[s]; j++) {
					if (c[s, j] < -spread[s] - 1e-12) lo++
					else if (c[s, j] > spread[s] + 1e-12) hi++
					else within++
				}
				printf "%s: %d seeds; new / base: geometric mean %s; %d cheaper, %d dearer by more than the base'"'"'s own spread of %.2f%% (%d within it)\n",
					s, n[s], n[s] ? sprintf("%+.2f%%", 100 * (exp(lg[s] / n[s]) - 1)) : "-", lo, hi, 100 * spread[s], within
			}
		}'
}
