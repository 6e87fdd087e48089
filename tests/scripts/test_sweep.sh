#!/usr/bin/env bash
# test_sweep.sh - gpuplan sweep (docs/sweep.md): the merged report is the
# same bytes whether the cases ran in one process, as 3 shards in reverse
# order, on -j 2 workers, or as shards taken from the Slurm, Open MPI, PMI
# and Kubernetes variables; a case cut off mid-write (a temporary file, no
# result) is named missing by merge and run again by run, and then the
# report is the same again; a failed case is named with its error; a
# result of another spec is refused; Monte Carlo draws are reproducible
# and within their bounds; the figures are those the design supports; the
# spec reader is strict.
# Usage: test_sweep.sh GPUPLAN SRC_DIR WORK_DIR
. "$(dirname "$0")/lib.sh"

fix=$src/tests/sweep
reports="sweep.json cases.csv options.csv sensitivity.csv breakeven.csv"
unset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT SLURM_ARRAY_TASK_MIN SLURM_PROCID SLURM_NTASKS \
	OMPI_COMM_WORLD_RANK OMPI_COMM_WORLD_SIZE PMI_RANK PMI_SIZE JOB_COMPLETION_INDEX

# same NAME DIR SPEC: DIR's merged reports equal the reference of SPEC's in ref-SPEC.
same() {
	local f d=1
	for f in $reports; do
		cmp -s "ref-$3/$f" "$2/$f" || { d=0; bad "$1: $f differs"; diff "ref-$3/$f" "$2/$f" | head -5; }
	done
	[ $d = 1 ] && ok
}
merge() { "$exe" sweep merge "$fix/$1.yaml" -o "$2" >"$2.merge.out" 2>&1; }

for spec in grid mc oat; do
	"$exe" sweep run "$fix/$spec.yaml" -o "ref-$spec" --shard 0/1 >/dev/null 2>&1 && merge $spec "ref-$spec" \
		&& ok || bad "$spec: one shard run/merge failed"
	"$exe" sweep run "$fix/$spec.yaml" -o "j2-$spec" -j 2 >/dev/null 2>&1 && merge $spec "j2-$spec" \
		&& same "$spec -j 2" "j2-$spec" $spec || bad "$spec -j 2 failed"
	for i in 2 1 0; do
		"$exe" sweep run "$fix/$spec.yaml" -o "k3-$spec" --shard $i/3 >/dev/null 2>&1 || bad "$spec shard $i/3"
	done
	merge $spec "k3-$spec" && same "$spec 3 shards" "k3-$spec" $spec || bad "$spec 3 shards: merge failed"
	# every result file is the same bytes whichever process wrote it
	diff -r "ref-$spec/results" "k3-$spec/results" >/dev/null && ok || bad "$spec: result files differ"
done

# The grid's figures (hand check in docs/sweep.md): rent is best in 12 of 16 cases, and the
# cheapest option turns from rent to buy at a cloud price 4.7 % over the list price.
grep -qx 'cloud_price_scale,1.04696,rent,buy' ref-grid/breakeven.csv && grep -q '^rent,.*,0.7500,[0-9]*$' ref-grid/options.csv \
	&& ok || bad "grid figures: $(cat ref-grid/breakeven.csv ref-grid/options.csv)"

# The figures follow the design (docs/sweep.md "Statistics by design").  One-at-a-time: no
# percentiles, no P(best); the base case's cost and rank, the range; the tornado option by option,
# largest swing first; the base case is a point of every parameter, so the cheapest option flips
# between the base (3 years: rent) and 5 years (buy), at 3.1156, not between 1 and 5.
head -1 ref-oat/options.csv | grep -qx 'option,file,cases,base_usd,rank_at_base,min_usd,max_usd,cases_with_unplaced' \
	&& grep -q '^rent,.*,11,180144.00,1,60048.00,282240.00,0$' ref-oat/options.csv && ok \
	|| bad "oat options: $(cat ref-oat/options.csv)"
grep -qx 'horizon_years,3.115591,rent,buy' ref-oat/breakeven.csv && ok || bad "oat flip: $(cat ref-oat/breakeven.csv)"
[ "$(cut -d, -f1,2,10 ref-oat/sensitivity.csv | sed -n '2,3p;6,7p' | tr '\n' ' ')" = \
	"buy,horizon_years,148128.13 buy,capex_scale,48000.00 rent,horizon_years,222192.00 rent,cloud_price_scale,75686.40 " ] \
	&& ok || bad "oat tornado order: $(cat ref-oat/sensitivity.csv)"
grep -q 'cheapest at the base case: rent' ref-oat.merge.out && grep -q 'tornado: ' ref-oat.merge.out \
	&& ! grep -qE 'P5|P\(best\)' ref-oat.merge.out && ! grep -q '"p_best"' ref-oat/sweep.json \
	&& grep -q '"cheapest_at_base":	"rent"' ref-oat/sweep.json && ok || bad "oat summary: $(cat ref-oat.merge.out)"
# a grid counts its points; Monte Carlo gives percentiles, P(best) and its 95 % Wilson interval
# (14 of 24 cases: 0.3883-0.7553) with the sample's size
grep -q '^  rent .*  12 of 16 grid points$' ref-grid.merge.out && ! grep -qE 'P5|P\(best\)' ref-grid.merge.out \
	&& ok || bad "grid summary: $(cat ref-grid.merge.out)"
grep -q '^buy,.*,24,.*,0.5833,0.3883,0.7553,[0-9]*$' ref-mc/options.csv && grep -q 'a sample of 24 cases' ref-mc.merge.out \
	&& grep -q '"schema_version":	"2.0.0"' ref-mc/sweep.json && ok || bad "mc options: $(cat ref-mc/options.csv ref-mc.merge.out)"

# Shards from the schedulers' variables (grid, 16 cases).
for i in 0 1 2 3; do
	SLURM_ARRAY_TASK_ID=$((i + 1)) SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=4 \
		"$exe" sweep run "$fix/grid.yaml" -o slurm >/dev/null 2>&1 || bad "slurm array task $i"
done
for i in 0 1; do
	OMPI_COMM_WORLD_RANK=$i OMPI_COMM_WORLD_SIZE=2 "$exe" sweep run "$fix/grid.yaml" -o ompi >ompi.$i.out 2>&1 \
		|| bad "ompi rank $i"
	PMI_RANK=$i PMI_SIZE=2 "$exe" sweep run "$fix/grid.yaml" -o pmi >/dev/null 2>&1 || bad "pmi rank $i"
	JOB_COMPLETION_INDEX=$i "$exe" sweep run "$fix/grid.yaml" -o k8s --shards 2 >/dev/null 2>&1 || bad "k8s index $i"
done
grep -q 'shard 1/2 (OMPI_COMM_WORLD_RANK): 8 cases, 8 done' ompi.1.out && ok || bad "ompi summary: $(cat ompi.1.out)"
for d in slurm ompi pmi k8s; do merge grid $d && same "$d shards" $d grid || bad "$d: merge failed"; done
JOB_COMPLETION_INDEX=0 "$exe" sweep run "$fix/grid.yaml" -o x >/dev/null 2>err.txt
[ $? = 2 ] && grep -q 'give the number of shards with --shards K' err.txt && ok || bad "index without --shards"
SLURM_PROCID=3 SLURM_NTASKS=2 "$exe" sweep run "$fix/grid.yaml" -o x >/dev/null 2>err.txt
[ $? = 2 ] && grep -q 'shard 3 is not in 0..1' err.txt && ok || bad "procid out of range: $(cat err.txt)"

# A case cut off mid-write: its temporary file is there, its result is not.
cp -r ref-grid cut
rm cut/results/case-0005.json
echo '{"schema": "gpuplan-sweep-c' >cut/results/.case-0005.json.4242.tmp
merge grid cut
[ $? = 1 ] && grep -q 'missing: case-0005' cut.merge.out && grep -q '"case-0005"' cut/sweep.json && ok \
	|| bad "missing case not named: $(cat cut.merge.out)"
"$exe" sweep run "$fix/grid.yaml" -o cut -j 2 >run.out 2>&1 && grep -q '16 done, 0 failed, 0 missing' run.out \
	&& ok || bad "rerun: $(cat run.out)"
merge grid cut && same "after the rerun" cut grid || bad "merge after the rerun failed"

# A run killed (SIGKILL) once its first case is written: merge names what is missing, a second run
# completes it, and the report is the reference's.  (If the run ends before the kill, nothing is missing.)
"$exe" sweep run "$fix/mc.yaml" -o killed -j 1 >/dev/null 2>&1 &
pid=$!
for i in $(seq 500); do [ -n "$(ls killed/results 2>/dev/null)" ] && break; sleep 0.01; done
kill -KILL $pid 2>/dev/null
wait $pid 2>/dev/null
left=$((24 - $(ls killed/results | grep -c '^case-')))
echo "killed after $((24 - left)) of 24 cases"
merge mc killed
rc=$?
if [ $left -gt 0 ]; then
	[ $rc = 1 ] && [ "$(grep -c '  missing: ' killed.merge.out)" = $left ] && ok || bad "killed: $left missing, rc $rc"
else
	echo "note: the run ended before the kill"
fi
"$exe" sweep run "$fix/mc.yaml" -o killed >/dev/null 2>&1 && merge mc killed && same "killed, then rerun" killed mc \
	|| bad "rerun after the kill"

# A failed case: demand grown 10x a year for 30 years is over the replica limit.
cat >fail.yaml <<EOF
schema: gpuplan-sweep/1
name: fails
options: [$fix/buy.yaml, $fix/rent.yaml]
parameters:
  horizon_years: [30]
  demand_growth: [0, 10]
EOF
"$exe" sweep run fail.yaml -o fail -j 1 >fail.run 2>fail.err
rc=$?
[ $rc = 3 ] && grep -q 'case-0001 failed: .*fail.yaml: workload .train. of .*buy.yaml would have' fail.err \
	&& grep -q '1 done, 1 failed, 0 missing' fail.run && ok || bad "failed case: rc $rc $(cat fail.err fail.run)"
"$exe" sweep merge fail.yaml -o fail >fail.merge 2>&1
[ $? = 1 ] && grep -q 'failed:  case-0001: .*more than 1000000' fail.merge && grep -q '"exit_code":	3' fail/sweep.json \
	&& ok || bad "merge of a failed case: $(cat fail.merge)"

# A result of another version of the spec is refused, naming the file.
sed 's/1.1]/1.2]/' "$fix/grid.yaml" | sed "s|buy.yaml, rent.yaml|$fix/buy.yaml, $fix/rent.yaml|" >grid2.yaml
"$exe" sweep merge grid2.yaml -o ref-grid >/dev/null 2>err.txt
[ $? = 3 ] && grep -q 'ref-grid/results/case-0000.json: written for another version of the sweep spec' err.txt \
	&& ok || bad "other spec: $(cat err.txt)"

# Monte Carlo: the same draws every time, within the bounds.
"$exe" sweep expand "$fix/mc.yaml" -o e1 >/dev/null && "$exe" sweep expand "$fix/mc.yaml" -o e2 >/dev/null \
	&& cmp -s e1/expand.csv e2/expand.csv && ok || bad "expand not reproducible"
[ "$("$exe" sweep expand "$fix/mc.yaml" --count)" = 24 ] && [ "$("$exe" sweep expand "$fix/grid.yaml" --count)" = 16 ] \
	&& [ "$("$exe" sweep expand "$fix/oat.yaml" --count)" = 11 ] && ok || bad "--count"
awk -F, 'NR > 1 && ($2 < 0.7 || $2 > 1.2 || $3 <= 0.02 || $4 <= 0 || $5 < 0 || $5 > 0.3 || ($6 != 3 && $6 != 5)) \
	{ print; bad = 1 } END { exit bad }' e1/expand.csv && ok || bad "draws out of bounds"

# The spec reader is strict: unknown fields, duplicate keys, distributions outside Monte Carlo.
check_bad() {	# NAME EXPECTED-MESSAGE YAML
	printf '%s\n' "$3" >bad.yaml
	"$exe" sweep expand bad.yaml --count >/dev/null 2>err.txt
	[ $? = 3 ] && grep -q -- "$2" err.txt && ok || bad "$1: $(cat err.txt)"
}
head="schema: gpuplan-sweep/1
name: x
options: [$fix/buy.yaml]"
check_bad unknown-field "bad.yaml:4:1: unknown field 'desing'" "$head
desing: grid
parameters: {demand_scale: [1]}"
check_bad duplicate-key "bad.yaml:5:1: duplicate key 'parameters'" "$head
parameters: {demand_scale: [1]}
parameters: {demand_scale: [2]}"
check_bad unknown-parameter "unknown field 'demand_scal' in parameters (did you mean 'demand_scale'?)" "$head
parameters: {demand_scal: [1]}"
check_bad dist-in-grid "distribution: only for design monte-carlo" "$head
parameters: {demand_scale: {distribution: uniform, min: 1, max: 2}}"
check_bad out-of-range "demand_scale '0' must be in (0, 1000]" "$head
parameters: {demand_scale: [0]}"
check_bad unknown-dist "unknown distribution 'gauss'" "$head
design: monte-carlo
samples: 4
parameters: {demand_scale: {distribution: gauss, mean: 1, sd: 1}}"
check_bad greedy-off "greedy: false needs a node_limit" "$head
solver: {greedy: false}
parameters: {demand_scale: [1]}"
finish
