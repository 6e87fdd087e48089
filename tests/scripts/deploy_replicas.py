#!/usr/bin/env python3
"""deploy_replicas.py REPORTS_DIR DEPLOY_DIR

Per workload, the replicas the deploy files run - pod requests (requests.csv `replicas`) plus
VM workloads (vms.csv rows of role `workload`, one replica each) - must equal the replicas the
plan placed (placements.csv, one row per replica); no pod request may name a hypervisor host
(hosts.csv `hypervisor` vsphere or kvm), and every requested node must be a Kubernetes node of
nodes.csv. Prints one line per workload that differs and 'N passed, N failed'.
"""
import csv
import os
import sys
from collections import Counter

reports, deploy = sys.argv[1:3]


def rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


placed = Counter(r["workload"] for r in rows(os.path.join(reports, "placements.csv")))
hosts = {r["host"]: r["hypervisor"] for r in rows(os.path.join(reports, "hosts.csv"))}
k8s = {r["node"] for r in rows(os.path.join(reports, "nodes.csv"))}
run = Counter()
passed = failed = 0
for r in rows(os.path.join(deploy, "requests.csv")):
    run[r["workload"]] += int(r["replicas"])
    if hosts.get(r["node"]) in ("vsphere", "kvm") or r["node"] not in k8s:
        print(f"FAIL request of {r['workload']} on {r['node']}: not a Kubernetes node of nodes.csv "
              f"or a hypervisor host")
        failed += 1
for r in rows(os.path.join(deploy, "vms.csv")):
    if r["role"] == "workload":
        run[r["workload"]] += 1
for w in sorted(set(placed) | set(run)):
    if placed[w] == run[w]:
        passed += 1
    else:
        failed += 1
        print(f"FAIL workload {w}: {placed[w]} replicas placed, {run[w]} in the deploy files")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
