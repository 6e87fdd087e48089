#!/usr/bin/env bash
# test_sweep_expand.sh - `gpuplan sweep expand` writes every case's derived
# scenarios (DIR/cases/CASE/NAME.yaml, with the case's workloads,
# inventory and licence model where the case changes them), and each
# plans as `sweep run` plans the case: the same cost to the cent and the
# same replicas unplaced (the first 12 cases of each spec), for the test grid, one-at-a-time and Monte
# Carlo specs and the bundled platforms' sensitivity (cloud offers, a
# scenario's models:).  The names are the same from run to run, nothing
# is left behind (no temporary file), --count writes nothing, and
# `gpuplan validate` accepts a derived scenario.
# Usage: test_sweep_expand.sh GPUPLAN SRC_DIR WORK_DIR
. "$(dirname "$0")/lib.sh"

unset SLURM_ARRAY_TASK_ID SLURM_PROCID OMPI_COMM_WORLD_RANK PMI_RANK JOB_COMPLETION_INDEX
specs="tests/sweep/grid.yaml tests/sweep/oat.yaml tests/sweep/mc.yaml data/sweep/sensitivity.yaml"

for spec in $specs; do
	name=$(basename "$spec" .yaml)
	n=$("$exe" sweep expand "$src/$spec" --count)
	"$exe" sweep expand "$src/$spec" -o "ex-$name" >"ex-$name.out" && ok || bad "$name: expand exited $?: $(cat "ex-$name.out")"
	[ "$(ls "ex-$name/cases" | wc -l)" = "$n" ] && [ "$(wc -l <"ex-$name/expand.csv")" = $((n + 1)) ] && ok \
		|| bad "$name: not $n case directories"
	"$exe" sweep run "$src/$spec" -o "run-$name" >/dev/null 2>&1 || bad "$name: run failed"
	# plan every derived scenario as the sweep plans its cases (greedy), and compare
	mkdir -p plans
	for dir in $(ls -d "ex-$name"/cases/case-* | head -12); do	# at most 12 cases each: a test's time
		for f in $(python3 -c "import yaml,sys; print(' '.join(yaml.safe_load(open(sys.argv[1]))['options']))" "$src/$spec"); do
			s=$(basename "$f" .yaml)
			(cd "$dir" && "$exe" plan "$s.yaml" --greedy --format json -o "$work/plans/$(basename "$dir")-$s" >/dev/null 2>&1) \
				|| bad "$name: $dir/$s.yaml does not plan"
		done
	done
	python3 - "run-$name/results" plans >cmp.out <<'PY' && ok || bad "$name: derived plans differ from the sweep's cases: $(head -3 cmp.out)"
import json, os, sys
res, plans = sys.argv[1], sys.argv[2]
bad = 0
for f in sorted(os.listdir(res)):
    c = json.load(open(os.path.join(res, f)))
    for o in c["options"]:
        stem = os.path.basename(o["scenario"])
        p = [d for d in os.listdir(plans) if d.startswith(c["case"] + "-")]
        if not p:
            continue
        got = None
        for d in p:
            s = json.load(open(os.path.join(plans, d, "plan.json")))["summary"]
            if s["scenario"] == o["scenario"] + " " + c["case"]:
                got = s
        if not got or got["cost_total_usd"] != o["cost_total_usd"] or got["replicas_unplaced"] != o["replicas_unplaced"]:
            print(c["case"], o["scenario"], o["cost_total_usd"], got and got["cost_total_usd"]); bad = 1
sys.exit(bad)
PY
	rm -rf plans
done

# the same names and bytes again; no temporary file left; --count writes nothing
"$exe" sweep expand "$src/tests/sweep/oat.yaml" -o ex-again >/dev/null && diff -r ex-oat ex-again >/dev/null && ok \
	|| bad "expand is not the same twice"
[ -z "$(find . -name '.*.tmp')" ] && ok || bad "temporary files left: $(find . -name '.*.tmp' | head -3)"
"$exe" sweep expand "$src/tests/sweep/grid.yaml" --count -o nothing >/dev/null && [ ! -e nothing ] && ok || bad "--count wrote files"
# what a case changes: the licence model (models: .), the rented price (offer rows lose the offer), the replicas
grep -qx 'models: .' ex-oat/cases/case-0001/buy.yaml && grep -q 'usd_per_gpu: 3150$' ex-oat/cases/case-0001/licenses.yaml \
	&& ok || bad "oat case-0001: no scaled licence model"
grep -q ',rent,,,.*,,,host$' ex-sensitivity/cases/case-0009/aws.inventory.csv && ok \
	|| bad "sensitivity case-0009: offer rows not priced by hand: $(head -3 ex-sensitivity/cases/case-0009/aws.inventory.csv)"
(cd ex-grid/cases/case-0005 && "$exe" validate rent.yaml >"$work/validate.out" 2>&1) && ok || bad "validate: $(cat validate.out)"
finish
