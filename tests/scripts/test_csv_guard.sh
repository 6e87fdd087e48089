#!/usr/bin/env bash
# test_csv_guard.sh - no CSV any command writes begins a cell with = + - @
# TAB or CR unless the cell is a number (issue 57; docs/formats.md
# "CSV cells a spreadsheet would evaluate").  The scenario of
# tests/cases/plan-csv-formula names everything that way (scenario,
# workloads, tenants, node classes, sites); from it: plan (every format,
# --deploy's requests.csv), compare, simulate, roadmap, sweep run/merge (option
# files named "=..."), sweep expand (the derived inventory and workloads),
# and import kubectl (namespaces "=lab", "-research", "@inference"; import
# openb and nvidia-smi refuse such names where they read them).  Each guarded cell reads back as it
# was: the expanded and the imported scenarios plan with the same names.
# Usage: test_csv_guard.sh GPUPLAN SRC_DIR WORK_DIR
. "$(dirname "$0")/lib.sh"

unset SLURM_ARRAY_TASK_ID SLURM_PROCID OMPI_COMM_WORLD_RANK PMI_RANK JOB_COMPLETION_INDEX
fix=$src/tests/cases/plan-csv-formula
cp "$fix/scenario.yaml" "$fix/inventory.csv" "$fix/workloads.csv" .
sed 's/^name: .*/name: "@copy"/' scenario.yaml >copy.yaml

run() { # run NAME CMD...: CMD must exit 0
	local name=$1
	shift
	"$@" >"$name.log" 2>&1 && ok || bad "$name exited $?: $(tail -2 "$name.log")"
}
run plan "$exe" plan scenario.yaml -o plan --format all
# --deploy refuses node names that are no Kubernetes node names ('+cls-000', issue #60): its
# requests.csv comes from the same scenario with the classes renamed, workloads and sites as they are
mkdir -p deploy-in && sed -e '2s/^"[^"]*"/cls-a/' -e '3s/^+cls/cls-b/' inventory.csv >deploy-in/inventory.csv \
	&& cp scenario.yaml workloads.csv deploy-in/ || bad "deploy fixture"
run deploy "$exe" plan deploy-in/scenario.yaml -o deploy-out --deploy plan/deploy
run compare "$exe" compare scenario.yaml copy.yaml -o compare --format all
run simulate "$exe" simulate scenario.yaml --generate flat:hours=24 -o simulate --format all
printf 'period,workload,replicas\n2027-Q1,+1+1,3\n2027-Q2,+1+1,2\n' >forecast.csv
run roadmap "$exe" roadmap scenario.yaml --forecast forecast.csv -o roadmap

mkdir sweep && cp scenario.yaml sweep/=buy.yaml && cp copy.yaml sweep/+rent.yaml \
	&& cp inventory.csv workloads.csv sweep/ || bad "sweep fixture"
cat >sweep/spec.yaml <<'EOF'
schema: gpuplan-sweep/1
name: "-guard"
options: ["=buy.yaml", "+rent.yaml"]
design: grid
parameters:
  demand_scale: [1, 1.5]
EOF
run sweep-run "$exe" sweep run sweep/spec.yaml -o sweep/out -j 1
run sweep-merge "$exe" sweep merge sweep/spec.yaml -o sweep/out --format all
run sweep-expand "$exe" sweep expand sweep/spec.yaml -o expand

kin=$src/tests/cases/import-kubectl-mixed
sed -e 's/"namespace": "lab"/"namespace": "=lab"/' -e 's/"namespace": "research"/"namespace": "-research"/' \
	-e 's/"namespace": "inference"/"namespace": "@inference"/' "$kin/pods.json" >pods.json
run kubectl "$exe" import kubectl "$kin/nodes.json" pods.json -o kubectl

# every CSV: no cell a spreadsheet evaluates, and each command but simulate (its CSVs hold no
# name) wrote guarded cells (a test of something)
python3 - plan compare +simulate roadmap sweep/out expand kubectl >guard.out <<'PY' && ok || bad "$(head -5 guard.out)"
import csv, os, re, sys
num = re.compile(r'^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$')
bad = 0
for top in sys.argv[1:]:
    files = guarded = 0
    names_free = top.startswith('+')
    top = top.lstrip('+')
    for d, _, names in os.walk(top):
        for n in sorted(names):
            if not n.endswith('.csv'):
                continue
            files += 1
            text = open(os.path.join(d, n), newline='').read()
            rows = csv.reader(l for l in text.splitlines(True) if not l.startswith('#'))
            for i, row in enumerate(rows):
                for c in row:
                    if c[:1] in ('=', '+', '-', '@', '\t', '\r') and not num.match(c):
                        print('%s/%s: row %d: cell %r' % (d, n, i + 1, c)); bad = 1
                    guarded += c[:1] == "'"
    if not files or not (guarded or names_free):
        print('%s: %d CSV files, %d guarded cells' % (top, files, guarded)); bad = 1
sys.exit(bad)
PY
[ -s plan/deploy/requests.csv ] && grep -q "^\"'=HYPERLINK" plan/deploy/requests.csv && ok \
	|| bad "requests.csv has no guarded workload: $(head -3 plan/deploy/requests.csv)"

# read back: the names gpuplan wrote are the names it reads (plan.json is not a CSV: no guard there)
names() { python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); print(sorted({(x["workload"], x["tenant"]) for x in p["placements"]}))' "$1"; }
case1=$(ls expand/cases | head -1)
(cd "expand/cases/$case1" && "$exe" plan =buy.yaml -o "$work/replan" --format json >/dev/null 2>&1) \
	&& [ "$(names replan/plan.json)" = "$(names plan/plan.json)" ] && ok \
	|| bad "the expanded scenario does not plan with the same names"
(cd kubectl && "$exe" plan scenario.yaml -o ../kplan --format json --greedy >/dev/null 2>&1) \
	&& names kplan/plan.json | grep -qF "('=lab.dev-shell', '=lab')" && names kplan/plan.json | grep -qF "'-research')" && ok \
	|| bad "the imported workloads do not read back as written"
finish
