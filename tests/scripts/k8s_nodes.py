#!/usr/bin/env python3
"""k8s_nodes.py REPORTS_DIR DEPLOY_DIR

The plan's nodes.csv (one row per Kubernetes GPU node) against its hosts.csv (one row per
machine) and the deploy files of the same run:
- every host is in hosts.csv once, every node in nodes.csv once; each node's host is a host, and
  a host's k8s_nodes is its number of rows in nodes.csv;
- bare metal and cloud: the host is its one node (kind host, same GPUs, use and CPU/RAM);
- vSphere/KVM: no host is a node; a host in a node mode (passthrough, mig, timeslice, mps) has at
  most one vm-passthrough worker, and its GPUs plus those of the host's VM workloads (vms.csv role
  workload) are the host's GPUs; a host in vgpu or mig-vgpu mode has one vm-vgpu node per worker
  VM of vms.csv, with that VM's GPUs;
- the nodes are the ones labels.json labels for the plan (the inventory's unused bare-metal
  nodes aside) and every pod request names one;
- hosts.csv's costs add up to summary.csv's cost_total_usd (to half a cent a host: each is rounded).
Prints one line per failure and 'N passed, N failed'; exits 1 on any failure.
"""
import csv
import json
import os
import sys
from collections import Counter, defaultdict

reports, deploy = sys.argv[1:3]
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {what}")


def rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


hosts_rows = rows(os.path.join(reports, "hosts.csv"))
nodes = rows(os.path.join(reports, "nodes.csv"))
hosts = {r["host"]: r for r in hosts_rows}
check(len(hosts) == len(hosts_rows), f"hosts.csv names a host twice: {len(hosts_rows)} rows, {len(hosts)} hosts")
names = Counter(r["node"] for r in nodes)
check(all(c == 1 for c in names.values()), f"nodes.csv names a node twice: {[n for n, c in names.items() if c > 1]}")
by_host = defaultdict(list)
for r in nodes:
    check(r["host"] in hosts, f"node {r['node']}: host {r['host']} is not in hosts.csv")
    by_host[r["host"]].append(r)

vms = rows(os.path.join(deploy, "vms.csv"))
workload_gpus = Counter()
workers = defaultdict(dict)
for v in vms:
    if v["role"] == "workload":
        workload_gpus[v["host"]] += int(v["ngpus"])
    else:
        workers[v["host"]][v["vm"]] = int(v["ngpus"])

for h, hr in hosts.items():
    mine = by_host.get(h, [])
    gpus = int(hr["gpus"])
    check(int(hr["k8s_nodes"]) == len(mine), f"host {h}: k8s_nodes {hr['k8s_nodes']}, {len(mine)} rows in nodes.csv")
    if hr["hypervisor"] not in ("vsphere", "kvm"):
        same = len(mine) == 1 and mine[0]["node"] == h and mine[0]["kind"] == "host"
        check(same, f"host {h} ({hr['hypervisor']}): its one node is not itself: {[r['node'] for r in mine]}")
        if same:
            for col in ("gpus", "gpus_active", "mode", "memory_utilisation", "compute_utilisation",
                        "cpu_cores_used", "ram_gib_used"):
                check(mine[0][col] == hr[col], f"node {h}: {col} {mine[0][col]}, its host's {hr[col]}")
        continue
    kinds = Counter(r["kind"] for r in mine)
    if hr["mode"] in ("vgpu", "mig-vgpu"):
        got = {r["node"]: int(r["gpus"]) for r in mine}
        check(set(kinds) <= {"vm-vgpu"}, f"host {h} ({hr['mode']}): nodes of kind {sorted(kinds)}")
        check(got == workers[h], f"host {h}: vGPU worker nodes {got}, vms.csv's workers {workers[h]}")
    else:
        pt = sum(int(r["gpus"]) for r in mine)
        check(set(kinds) <= {"vm-passthrough"} and len(mine) <= 1,
              f"host {h} ({hr['mode']}): nodes {[(r['node'], r['kind']) for r in mine]}, not one worker VM")
        check(pt + workload_gpus[h] == gpus,
              f"host {h}: worker VM {pt} GPUs + VM workloads {workload_gpus[h]} GPUs, host has {gpus}")
        check({r["node"]: int(r["gpus"]) for r in mine} == workers[h],
              f"host {h}: worker nodes {[r['node'] for r in mine]}, vms.csv's workers {workers[h]}")

labelled = {n["name"] for n in json.load(open(os.path.join(deploy, "labels.json")))["nodes"]}
missing = sorted(set(names) - labelled)
check(not missing, f"nodes.csv names nodes labels.json does not label: {missing[:5]}")
extra = sorted(n for n in labelled - set(names) if n in hosts or any(n in w for w in workers.values()))
check(not extra, f"labels.json labels planned hosts or VMs that nodes.csv lacks: {extra[:5]}")
asked = {r["node"] for r in rows(os.path.join(deploy, "requests.csv"))}
check(asked <= set(names), f"requests name nodes nodes.csv lacks: {sorted(asked - set(names))[:5]}")

summary = {r["metric"]: r["value"] for r in rows(os.path.join(reports, "summary.csv"))}
cents = sum(round(float(r["cost_usd"]) * 100) for r in hosts_rows)
total = round(float(summary["cost_total_usd"]) * 100)
check(abs(cents - total) * 2 <= max(len(hosts_rows), 1),
      f"hosts.csv costs add up to {cents / 100:.2f}, summary's cost_total_usd is {total / 100:.2f}")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
