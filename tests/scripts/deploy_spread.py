#!/usr/bin/env python3
"""deploy_spread.py DEPLOY_DIR: the spread and disruption budgets of requests.yaml (issue #62)
are well-formed Kubernetes: each request's labels are valid label values (apimachinery
IsValidLabelValue), each topologySpreadConstraint has only core/v1 TopologySpreadConstraint fields
with a topologyKey gpuplan plans, a whenUnsatisfiable Kubernetes knows, minDomains only with
DoNotSchedule, and a labelSelector that selects the request's own pods; each PodDisruptionBudget
is policy/v1, named with a Kubernetes object name, with one of minAvailable/maxUnavailable and a selector that selects some request's
pods.  With priorityClasses (resilience preemption: lower-priority, docs/deploy.md "Priority and
preemption"): each is scheduling.k8s.io/v1 with only PriorityClass's fields, an object name not
under the reserved system- prefix, a value within the user range (<= 1,000,000,000), not a global
default; every request names one of them and every one is named; a workload's requests name one
class; and the classes make two tiers, as the plan counts: every PreemptLowerPriority class has one
value (so they never preempt one another), above every other class's, and the others are Never.
Exit 1 with one line per fault."""
import os, re, sys
import yaml

NAME = re.compile(r'^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$')
LABEL = re.compile(r'^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$')
TSC = {"maxSkew", "topologyKey", "whenUnsatisfiable", "labelSelector", "minDomains", "matchLabelKeys",
       "nodeAffinityPolicy", "nodeTaintsPolicy"}
faults = []


def selects(sel, labels):
    return all(labels.get(k) == v for k, v in (sel or {}).get("matchLabels", {}).items()) and bool(sel)


doc = yaml.safe_load(open(os.path.join(sys.argv[1], "requests.yaml")))
all_labels = []
for i, r in enumerate(doc.get("requests") or []):
    labels = r.get("labels") or {}
    all_labels.append(labels)
    for k, v in labels.items():
        if len(v) > 63 or not LABEL.match(v):
            faults.append(f"request {i} ({r['workload']}): label {k}={v!r} is not a label value")
    for c in r.get("topologySpreadConstraints") or []:
        extra = set(c) - TSC
        if extra:
            faults.append(f"request {i}: fields {sorted(extra)} are not TopologySpreadConstraint's")
        if not (isinstance(c.get("maxSkew"), int) and c["maxSkew"] >= 1):
            faults.append(f"request {i}: maxSkew {c.get('maxSkew')!r}")
        if c.get("topologyKey") not in ("kubernetes.io/hostname", "topology.kubernetes.io/zone"):
            faults.append(f"request {i}: topologyKey {c.get('topologyKey')!r}")
        if c.get("whenUnsatisfiable") not in ("DoNotSchedule", "ScheduleAnyway"):
            faults.append(f"request {i}: whenUnsatisfiable {c.get('whenUnsatisfiable')!r}")
        if "minDomains" in c and (c["whenUnsatisfiable"] != "DoNotSchedule" or c["minDomains"] < 1):
            faults.append(f"request {i}: minDomains {c['minDomains']!r} with {c['whenUnsatisfiable']}")
        if not selects(c.get("labelSelector"), labels):
            faults.append(f"request {i}: the labelSelector does not select the request's own pods")
for b in doc.get("podDisruptionBudgets") or []:
    spec = b.get("spec") or {}
    name = (b.get("metadata") or {}).get("name", "")
    if b.get("apiVersion") != "policy/v1" or b.get("kind") != "PodDisruptionBudget":
        faults.append(f"PDB {name}: {b.get('apiVersion')}/{b.get('kind')}")
    if len(name) > 253 or not NAME.match(name):
        faults.append(f"PDB {name!r}: not a Kubernetes object name (RFC 1123 subdomain)")
    if ("minAvailable" in spec) == ("maxUnavailable" in spec):
        faults.append(f"PDB {name}: give one of minAvailable, maxUnavailable")
    if not any(selects(spec.get("selector"), l) for l in all_labels):
        faults.append(f"PDB {name}: its selector selects no request's pods")
PC_FIELDS = {"apiVersion", "kind", "metadata", "value", "globalDefault", "preemptionPolicy", "description"}
classes = {}
for c in doc.get("priorityClasses") or []:
    name = (c.get("metadata") or {}).get("name", "")
    classes[name] = c
    if c.get("apiVersion") != "scheduling.k8s.io/v1" or c.get("kind") != "PriorityClass":
        faults.append(f"PriorityClass {name}: {c.get('apiVersion')}/{c.get('kind')}")
    if set(c) - PC_FIELDS:
        faults.append(f"PriorityClass {name}: fields {sorted(set(c) - PC_FIELDS)} are not PriorityClass's")
    if len(name) > 253 or not NAME.match(name) or name.startswith("system-"):
        faults.append(f"PriorityClass {name!r}: not a user object name (RFC 1123 subdomain, no system- prefix)")
    v = c.get("value")
    if not (isinstance(v, int) and not isinstance(v, bool) and -2**31 <= v <= 10**9):
        faults.append(f"PriorityClass {name}: value {v!r} outside the user range")
    if c.get("globalDefault") is not False:
        faults.append(f"PriorityClass {name}: globalDefault {c.get('globalDefault')!r}")
    if c.get("preemptionPolicy") not in ("Never", "PreemptLowerPriority"):
        faults.append(f"PriorityClass {name}: preemptionPolicy {c.get('preemptionPolicy')!r}")
reqs = doc.get("requests") or []
named = [r.get("priorityClassName") for r in reqs]
if classes or any(named):
    by_workload = {}
    for i, (r, n) in enumerate(zip(reqs, named)):
        if n not in classes:
            faults.append(f"request {i} ({r['workload']}): priorityClassName {n!r} is not a listed PriorityClass")
        if by_workload.setdefault(r["workload"], n) != n:
            faults.append(f"workload {r['workload']}: its requests name two classes")
    for name in set(classes) - set(named):
        faults.append(f"PriorityClass {name}: no request names it")
    up = {c.get("value") for c in classes.values() if c.get("preemptionPolicy") == "PreemptLowerPriority"}
    down = [c.get("value") for c in classes.values() if c.get("preemptionPolicy") != "PreemptLowerPriority"]
    if len(up) > 1:
        faults.append(f"preempting classes of values {sorted(up)}: the higher would evict the lower")
    if up and down and min(up) <= max(down):
        faults.append(f"preempting class value {min(up)} not above every Never class ({max(down)})")
for f in faults:
    print("FAIL:", f)
sys.exit(1 if faults else 0)
