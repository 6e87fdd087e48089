#!/bin/bash
# test_import_large.sh - an import whose result passes what gpuplan reads in
# one file (issue 57): a SkyPilot catalog of 60,000 GPU rows gives 75,000
# offers, more than one 16 MiB YAML file holds.  The import splits them
# into clouds-skypilot.yaml and clouds-skypilot-2.yaml, each under 16 MiB,
# with every offer once; a scenario listing both validates.  Imports that
# fail on what they would write name the user's file and line, never their
# temporary folder, and leave nothing in TMPDIR.
# usage: bash test_import_large.sh GPUPLAN_EXE SRC_DIR WORK_DIR
. "$(dirname "$0")/lib.sh"
export LC_ALL=C TZ=UTC GPUPLAN_TODAY=2026-11-25
mkdir tmp && export TMPDIR=$work/tmp

# 300 instance types x 50 regions x 4 zones: 60,000 rows, 15,000 on-demand and 60,000 spot offers
mkdir -p cat/aws
awk 'BEGIN {
	print "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone"
	split("L40S H100 A100 L4 T4 A10", acc, " "); split("8 8 8 1 4 1", cnt, " ")
	for (t = 0; t < 300; t++)
		for (r = 0; r < 50; r++)
			for (z = 0; z < 4; z++) {
				a = t % 6 + 1
				printf "x%d.%dxlarge,%s,%d.0,%d.0,%d.0,,%.5f,%.6f,reg-%d,reg%d-az%d\n", t, cnt[a], acc[a], cnt[a],
					8 * cnt[a], 64 * cnt[a], 1.5 * cnt[a] + t / 1000, 0.7 * cnt[a] + z / 100, r, r, z
			}
}' >cat/aws/vms.csv
"$exe" import skypilot cat/aws/vms.csv --as-of 2026-11-01 -o out >import.out 2>import.err
rc=$?
[ $rc = 0 ] && ok || bad "import of 60,000 rows: exit $rc: $(cat import.err)"
grep -q '^skypilot: 60000 rows, 15000 on-demand and 60000 spot offers' import.out && ok || bad "summary: $(cat import.out)"
grep -q 'written:    out/clouds-skypilot.yaml to clouds-skypilot-2.yaml (2 files of up to 16 MiB' import.out && ok ||
	bad "summary: $(cat import.out)"
[ "$(ls out | tr '\n' ' ')" = "clouds-skypilot-2.yaml clouds-skypilot.yaml " ] && ok || bad "out/ holds $(ls out)"
for f in out/*.yaml; do
	[ "$(wc -c <"$f")" -le $((16 * 1024 * 1024)) ] && ok || bad "$f is $(wc -c <"$f") bytes"
	head -6 "$f" | grep -q '^# Part [12] of 2: ' && ok || bad "$f does not say which part it is"
done
[ "$(cat out/*.yaml | grep -c '^  - {id: ')" = 75000 ] && ok || bad "not 75,000 offers in the files"
[ "$(cat out/*.yaml | grep -o '^  - {id: [^,]*' | sort | uniq -d | wc -l)" = 0 ] && ok || bad "an offer id twice"
cp "$src"/tests/bad/base/*.csv out/
{ sed -n '/^schema:/,$p' "$src/tests/bad/base/scenario.yaml"; echo "cloud_offers: [clouds-skypilot.yaml, clouds-skypilot-2.yaml]"; } >out/scenario.yaml
"$exe" validate out/scenario.yaml >validate.out 2>&1 && ok || bad "a scenario with both files: $(tail -3 validate.out)"
[ -z "$(ls -A tmp)" ] && ok || bad "TMPDIR holds $(ls -A tmp)"

# what an import would write breaks a limit: the user's file and line, nothing in TMPDIR
cp "$src"/tests/cases/import-skypilot-aws/catalogs/v7/aws/vms.csv .
sed -n '4s/,eu-north-1,eun1-az1$/,eu-west-9,eun1-az1/p' vms.csv >>vms.csv
"$exe" import skypilot vms.csv -o zone >out.txt 2>err.txt
[ $? = 3 ] && grep -q '^gpuplan: vms.csv:41:10: zone ' err.txt && ! grep -q 'gpuplan-import' err.txt && ok ||
	bad "a zone in two regions: $(cat err.txt)"
[ ! -e zone ] && [ -z "$(ls -A tmp)" ] && ok || bad "a zone in two regions left zone/ or TMPDIR: $(ls -A tmp)"
cp "$src"/tests/cases/import-kubectl-mixed/*.json .
sed -i "0,/\"name\": \"batch-eval\"/s//\"name\": \"$(printf 'a%.0s' $(seq 5000))\"/" pods.json
"$exe" import kubectl nodes.json pods.json -o kube >out.txt 2>err.txt
[ $? = 3 ] && grep -q '^gpuplan: pods.json:[0-9]*:[0-9]*: ' err.txt && ! grep -q 'workloads.csv\|gpuplan-import' err.txt && ok ||
	bad "a 5,000-byte owner name: $(cat err.txt)"
[ ! -e kube ] && [ -z "$(ls -A tmp)" ] && ok || bad "a 5,000-byte owner name left kube/ or TMPDIR: $(ls -A tmp)"
finish
