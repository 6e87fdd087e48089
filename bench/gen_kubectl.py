#!/usr/bin/env python3
"""Writes `kubectl get nodes -o json` and `kubectl get pods -A -o json` lists.

The documents follow what kubectl prints (a v1 List of Node / Pod objects,
keys in kubectl's sorted order, two-space indent): metadata with labels and
ownerReferences, spec, status with allocatable quantities and conditions.
The GPU labels are GPU Feature Discovery's as public captures show them:
NVIDIA/cloud-native-docs gpu-operator/gpu-sharing.rst @52dcb7b8
(Tesla-T4-SHARED, gpu.replicas), erhwenkuo/techlearn
docs/mlops/02-gpu-sharing/mig/mig-k8s.md @8dedfd33 (MIG single and mixed:
NVIDIA-A100-80GB-PCIe-MIG-1g.10gb, nvidia.com/mig-<profile>.count),
cbrownstein-lambda/lambda-docs-mkdocs kubeai-hermes-3.md @b80909e8 (8x
NVIDIA-H100-80GB-HBM3: gpu.memory 81559, mig.config all-disabled).

usage: gen_kubectl.py --example DIR          the mixed cluster of tests/cases/import-kubectl-*
       gen_kubectl.py --nodes N --pods M DIR  a synthetic cluster for bench/run.sh
"""
import json
import random
import sys

H100 = ("NVIDIA-H100-80GB-HBM3", "hopper", "81559", "9")
A100P = ("NVIDIA-A100-80GB-PCIe", "ampere", "81920", "8")
T4 = ("Tesla-T4", "turing", "15360", "7")
L40S = ("NVIDIA-L40S", "ada-lovelace", "46068", "8")


def gfd_labels(prod, count, replicas=1, strategy="single", config="all-disabled", product_suffix="",
               sharing="none", mig=None):
    name, family, mem, major = prod
    lab = {
        "nvidia.com/cuda.driver-version.full": "550.90.07",
        "nvidia.com/cuda.driver-version.major": "550",
        "nvidia.com/gfd.timestamp": "1729173628",
        "nvidia.com/gpu.compute.major": major,
        "nvidia.com/gpu.compute.minor": "0",
        "nvidia.com/gpu.count": str(count),
        "nvidia.com/gpu.deploy.device-plugin": "true",
        "nvidia.com/gpu.deploy.gpu-feature-discovery": "true",
        "nvidia.com/gpu.family": family,
        "nvidia.com/gpu.machine": "PowerEdge-XE9680",
        "nvidia.com/gpu.memory": mem,
        "nvidia.com/gpu.present": "true",
        "nvidia.com/gpu.product": name + product_suffix,
        "nvidia.com/gpu.replicas": str(replicas),
        "nvidia.com/gpu.sharing-strategy": sharing,
        "nvidia.com/mig.capable": "true" if family in ("hopper", "ampere") else "false",
    }
    if family in ("hopper", "ampere"):
        lab["nvidia.com/mig.config"] = config
        lab["nvidia.com/mig.config.state"] = "success"
        lab["nvidia.com/mig.strategy"] = strategy
    for prof, (cnt, memmib, sms, g) in (mig or {}).items():
        p = "nvidia.com/mig-" + prof
        lab[p + ".count"] = str(cnt)
        lab[p + ".memory"] = str(memmib)
        lab[p + ".multiprocessors"] = str(sms)
        lab[p + ".product"] = name + "-MIG-" + prof
        lab[p + ".replicas"] = "1"
        lab[p + ".slices.ci"] = str(g)
        lab[p + ".slices.gi"] = str(g)
    return lab


def node(name, zone, labels, cpu, mem, gpu_alloc):
    lab = {
        "beta.kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/os": "linux",
        "kubernetes.io/arch": "amd64",
        "kubernetes.io/hostname": name,
        "kubernetes.io/os": "linux",
        "topology.kubernetes.io/region": "eu-west-1",
        "topology.kubernetes.io/zone": zone,
    }
    lab.update(labels)
    alloc = {"cpu": cpu, "ephemeral-storage": "1742016016358", "hugepages-1Gi": "0", "hugepages-2Mi": "0",
             "memory": mem, "pods": "110"}
    alloc.update(gpu_alloc)
    return {
        "apiVersion": "v1",
        "kind": "Node",
        "metadata": {
            "annotations": {"node.alpha.kubernetes.io/ttl": "0",
                            "volumes.kubernetes.io/controller-managed-attach-detach": "true"},
            "creationTimestamp": "2026-03-02T09:14:07Z",
            "labels": dict(sorted(lab.items())),
            "name": name,
            "resourceVersion": "48213377",
            "uid": "5e0c6a1e-%08x-4b7e-9d51-0c1f7a3e2b90" % (hash(name) & 0xffffffff),
        },
        "spec": {"podCIDR": "10.244.3.0/24", "podCIDRs": ["10.244.3.0/24"]},
        "status": {
            "addresses": [{"address": "10.0.3.17", "type": "InternalIP"}, {"address": name, "type": "Hostname"}],
            "allocatable": alloc,
            "capacity": dict(alloc, cpu=str(int(float(cpu.rstrip("m")) / (1000 if cpu.endswith("m") else 1)) + 1)),
            "conditions": [{"lastHeartbeatTime": "2026-11-24T16:02:11Z", "lastTransitionTime": "2026-03-02T09:15:40Z",
                            "message": "kubelet is posting ready status", "reason": "KubeletReady",
                            "status": "True", "type": "Ready"}],
            "nodeInfo": {"architecture": "amd64", "containerRuntimeVersion": "containerd://1.7.22",
                         "kernelVersion": "5.15.0-125-generic", "kubeProxyVersion": "v1.30.6",
                         "kubeletVersion": "v1.30.6", "operatingSystem": "linux",
                         "osImage": "Ubuntu 22.04.5 LTS"},
        },
    }


def pod(name, ns, owner, node_name, limits, requests, phase="Running"):
    md = {"creationTimestamp": "2026-11-20T08:00:00Z", "labels": {"app": name.rsplit("-", 1)[0]},
          "name": name, "namespace": ns, "resourceVersion": "48211902",
          "uid": "9b1d2c3e-%08x-4f00-8a11-3c2b1a0f9e8d" % (hash(name) & 0xffffffff)}
    if owner:
        md["ownerReferences"] = [{"apiVersion": "apps/v1" if owner[0] != "Job" else "batch/v1",
                                  "blockOwnerDeletion": True, "controller": True, "kind": owner[0],
                                  "name": owner[1], "uid": "0d3e5f6a-1b2c-4d5e-8f90-a1b2c3d4e5f6"}]
    spec = {"containers": [{"image": "nvcr.io/nvidia/pytorch:24.10-py3", "imagePullPolicy": "IfNotPresent",
                            "name": "main", "resources": {"limits": limits, "requests": requests}}],
            "dnsPolicy": "ClusterFirst", "restartPolicy": "Always" if owner and owner[0] != "Job" else "Never",
            "schedulerName": "default-scheduler", "terminationGracePeriodSeconds": 30}
    if node_name:
        spec["nodeName"] = node_name
    return {"apiVersion": "v1", "kind": "Pod", "metadata": md, "spec": spec,
            "status": {"phase": phase, "qosClass": "Burstable"}}


def lst(items):
    return {"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}}


def example():
    h100_mig = {"1g.10gb": (16, 9984, 16, 1), "2g.20gb": (8, 20096, 32, 2), "3g.40gb": (8, 40320, 60, 3)}
    nodes = [
        node("gpu-h100-a01", "eu-west-1a", gfd_labels(H100, 8), "190", "2113631836Ki", {"nvidia.com/gpu": "8"}),
        node("gpu-h100-a02", "eu-west-1a", gfd_labels(H100, 8), "190", "2113629788Ki", {"nvidia.com/gpu": "8"}),
        node("gpu-h100-b01", "eu-west-1a",
             gfd_labels(H100, 8, 0, "mixed", "all-balanced", mig=h100_mig), "190000m", "2063Gi",
             {"nvidia.com/mig-1g.10gb": "16", "nvidia.com/mig-2g.20gb": "8", "nvidia.com/mig-3g.40gb": "8"}),
        node("gpu-a100-c01", "eu-west-1b",
             gfd_labels(A100P, 14, 1, "single", "all-1g.10gb", "-MIG-1g.10gb"), "23", "210Gi",
             {"nvidia.com/gpu": "14"}),
        node("gpu-t4-d01", "eu-west-1b", gfd_labels(T4, 4, 4, product_suffix="-SHARED", sharing="time-slicing"),
             "31500m", "120Gi", {"nvidia.com/gpu": "16"}),
        node("gpu-t4-d02", "eu-west-1b", gfd_labels(T4, 4, 4, product_suffix="-SHARED", sharing="time-slicing"),
             "31.5", "0.1171875Ti", {"nvidia.com/gpu": "16"}),
        node("gpu-l40s-e01", "eu-west-1c", gfd_labels(L40S, 4, 2, product_suffix="-SHARED", sharing="mps"),
             "62", "1e12", {"nvidia.com/gpu": "8"}),
        node("cpu-01", "eu-west-1a", {}, "31750m", "128Gi", {}),
    ]
    rs = lambda n: ("ReplicaSet", n)
    g = lambda n, c="8", m="64Gi": ({"cpu": c, "memory": m, "nvidia.com/gpu": str(n)},
                                    {"cpu": c, "memory": m, "nvidia.com/gpu": str(n)})
    mig = lambda p, c="4", m="16Gi": ({"cpu": c, "memory": m, "nvidia.com/mig-" + p: "1"},
                                      {"cpu": c, "memory": m, "nvidia.com/mig-" + p: "1"})
    pods = []
    for i, nd in enumerate(["gpu-h100-a01", "gpu-h100-a01", "gpu-h100-a02"]):
        pods.append(pod("llm-serve-7c9f8d6b5-%s" % "xk2pq q8w4n z7m1c".split()[i], "inference",
                        rs("llm-serve-7c9f8d6b5"), nd, *g(2, "16", "128Gi")))
    for i in range(2):
        pods.append(pod("trainer-%d" % i, "research", ("StatefulSet", "trainer"), "gpu-h100-a02",
                        *g(4, "48", "512Gi")))
    for i, s in enumerate("4hx2m 9kd7p rr5tw b2c8v".split()):
        pods.append(pod("embed-5d8b9c7f4-" + s, "inference", rs("embed-5d8b9c7f4"), "gpu-h100-b01",
                        *mig("1g.10gb")))
    for i, s in enumerate("f7k2x m3n9q".split()):
        pods.append(pod("batch-eval-" + s, "research", ("Job", "batch-eval"), "gpu-h100-b01",
                        *mig("3g.40gb", "8", "32Gi")))
    pods.append(pod("batch-eval-old1x", "research", ("Job", "batch-eval"), "gpu-h100-b01",
                    *mig("3g.40gb", "8", "32Gi"), phase="Succeeded"))
    for i, s in enumerate("a1b2c d3e4f g5h6i j7k8l m9n0p".split()):
        pods.append(pod("notebook-6f7d8c9b5-" + s, "lab", rs("notebook-6f7d8c9b5"), "gpu-a100-c01",
                        *g(1, "2", "8Gi")))
    for i, s in enumerate("q1w2e r3t4y u5i6o p7a8s d9f0g h1j2k".split()):
        pods.append(pod("dev-shell-79c6b5d4f8-" + s, "lab", rs("dev-shell-79c6b5d4f8"),
                        "gpu-t4-d01" if i < 4 else "gpu-t4-d02", *g(1, "1500m", "6Gi")))
    for i, s in enumerate("v1x2c b3n4m l5k6j".split()):
        pods.append(pod("vision-58d9f7c6b4-" + s, "inference", rs("vision-58d9f7c6b4"), "gpu-l40s-e01",
                        *g(1, "4", "24Gi")))
    pods.append(pod("queue-job-x9z8y", "research", ("Job", "queue-job"), None, *g(1, "8", "32Gi"),
                    phase="Pending"))
    pods.append(pod("coredns-7db6d8ff4d-2qz5n", "kube-system", rs("coredns-7db6d8ff4d"), "cpu-01",
                    {"memory": "170Mi"}, {"cpu": "100m", "memory": "70Mi"}))
    return nodes, pods


def synthetic(nn, npods):
    rnd = random.Random(28)
    nodes, pods = [], []
    kinds = [("h100", lambda: gfd_labels(H100, 8), {"nvidia.com/gpu": "8"}, 8),
             ("h100m", lambda: gfd_labels(H100, 8, 0, "mixed", "all-1g.10gb",
                                          mig={"1g.10gb": (56, 9984, 16, 1)}), {"nvidia.com/mig-1g.10gb": "56"}, 0),
             ("t4", lambda: gfd_labels(T4, 4, 4, product_suffix="-SHARED", sharing="time-slicing"),
              {"nvidia.com/gpu": "16"}, 16)]
    for i in range(nn):
        k = kinds[i % 3]
        nodes.append(node("node-%s-%05d" % (k[0], i), "zone-%d" % (i % 4), k[1](), "190", "2113631836Ki", k[2]))
    by_kind = {}
    for nd in nodes:
        by_kind.setdefault(nd["metadata"]["name"].split("-")[1], []).append(nd["metadata"]["name"])
    for i in range(npods):
        dep = i // 10      # Deployments of 10 replicas, each on one kind of node
        kind = kinds[dep % 3][0]
        owner = "app-%05d" % dep
        if kind == "h100m":
            lim = {"cpu": "2", "memory": "8Gi", "nvidia.com/mig-1g.10gb": "1"}
        else:
            lim = {"cpu": "2", "memory": "8Gi", "nvidia.com/gpu": "1"}
        pods.append(pod("%s-5d8b9c7f4-%05d" % (owner, i), "team-%d" % (dep % 20),
                        ("ReplicaSet", "%s-5d8b9c7f4" % owner), rnd.choice(by_kind[kind]), lim, dict(lim)))
    return nodes, pods


def main():
    args = sys.argv[1:]
    if args[0] == "--example":
        nodes, pods = example()
        out = args[1]
    else:
        nodes, pods = synthetic(int(args[1]), int(args[3]))
        out = args[4]
    for name, items in (("nodes.json", nodes), ("pods.json", pods)):
        with open("%s/%s" % (out, name), "w") as f:
            json.dump(lst(items), f, indent=4)
            f.write("\n")


main()
