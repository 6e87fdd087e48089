#!/usr/bin/env bash
# Speed of `gpuplan simulate`: a year of hourly steps (8,760) for a 200-GPU scenario.
# Prints the wall time; not a timed test (the target is under a minute on 2 cores).
#
#   bench/simulate-bench.sh [GPUPLAN]      (default: build/planner/gpuplan)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
gpuplan=${1:-$here/build/planner/gpuplan}
dir=$(mktemp -d /tmp/simulate-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT

# 200 GPUs: 10 vSphere nodes of 4 A100-80GB, 10 bare-metal nodes of 8 H100-SXM5, 10 KVM nodes of 8 L40S.
cat > "$dir/inventory.csv" <<'CSV'
name,count,gpu_type,gpus_per_node,hypervisor,site,cpu_cores,ram_gib,ownership,capex_usd,amortization_years,hourly_usd,base_power_w
vs-a100,10,A100-PCIE-80GB,4,vsphere,dc,64,1024,owned,,,,650
bm-h100,10,H100-SXM5-80GB,8,baremetal,dc,112,2048,owned,,,,1300
kvm-l40s,10,L40S,8,kvm,dc,64,1024,owned,,,,900
CSV
cat > "$dir/workloads.csv" <<'CSV'
name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,gpu_types,modes,sites,needs_nvaie,priority
chat,search,40,0,20,0.25,hardware,false,2,16,,mig|mig-vgpu,,false,10
embed,search,40,0,10,0.125,memory,false,1,8,,,,false,5
rag,search,20,0,40,0.4,hardware,false,4,32,H100-SXM5-80GB|A100-PCIE-80GB,,,false,10
bank-inference,bank,30,0,20,0.25,hardware,true,2,16,,,,false,20
bank-scoring,bank,40,0,8,0.1,memory,true,1,8,,vgpu|mig-vgpu,,false,20
bank-ocr,bank,16,0,16,0.2,memory,true,2,16,L40S,,,false,10
bank-nvaie,bank,8,1,,,exclusive,true,4,64,,passthrough,,true,20
notebooks,research,60,0,8,0.1,none,false,1,8,,,,false,1
notebooks-large,research,20,0,24,0.25,none,false,2,32,,,,false,1
transcribe,research,30,0,12,0.2,memory,false,2,16,,mps|mig,,false,2
batch,research,16,1,,,none,false,4,32,,,,false,1
train,research,4,8,80,1,exclusive,false,48,512,H100-SXM5-80GB,passthrough,,false,3
CSV
cat > "$dir/scenario.yaml" <<'YAML'
schema: gpuplan-scenario/1
name: simulate-bench-200
inventory: inventory.csv
workloads: workloads.csv
horizon_years: 1
licensing: {counting: vgpu-seat, lease_hours: 24}
YAML

spec='daily:hours_per_day=10,weekend=0.3,base=0.2,workloads=notebooks|notebooks-large|bank-inference|bank-scoring|chat,growth=0.02'
echo "gpuplan simulate: 8760 hourly steps, 200 GPUs, --generate $spec"
start=$(date +%s.%N)
"$gpuplan" simulate "$dir/scenario.yaml" --generate "$spec" --hours 8760 -o "$dir/out"
end=$(date +%s.%N)
awk -v s="$start" -v e="$end" 'BEGIN { printf "wall time: %.2f s for 8760 steps (%.3f ms per step)\n", e - s, (e - s) * 1000 / 8760 }'
