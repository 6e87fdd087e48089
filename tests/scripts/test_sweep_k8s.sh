#!/usr/bin/env bash
# test_sweep_k8s.sh - the Kubernetes Indexed Job of docs/sweep/
# k8s-indexed-job.yaml: it validates offline as a batch/v1 Job (and the
# ConfigMap of the test inputs as a v1 ConfigMap) against the Kubernetes
# OpenAPI schemas of the npm package kubernetes-models 4.5.1, which
# .ci/setup installs into build/npm (skipped, with a message, when
# node or that package is absent); its fields are on an allow-list (the
# schemas accept unknown fields); and its pods, played here one index at a
# time with the manifest's own command and JOB_COMPLETION_INDEX, merge to
# the local run's bytes.
# Usage: test_sweep_k8s.sh GPUPLAN SRC_DIR WORK_DIR
. "$(dirname "$0")/lib.sh"

job=$src/docs/sweep/k8s-indexed-job.yaml
fix=$src/tests/sweep
mods=${GPUPLAN_NPM_DIR:-$(dirname "$exe")/../npm}/node_modules
unset SLURM_ARRAY_TASK_ID SLURM_PROCID OMPI_COMM_WORLD_RANK PMI_RANK JOB_COMPLETION_INDEX

if command -v node >/dev/null 2>&1 && [ -d "$mods/kubernetes-models" ]; then
	NODE_PATH=$mods node "$src/tests/scripts/k8s_validate.js" "$job" >val.out 2>&1 && ok || bad "$(cat val.out)"
	if command -v kubectl >/dev/null 2>&1; then
		kubectl create configmap gpuplan-sweep-inputs --from-file="$fix/" --dry-run=client -o yaml >cm.yaml \
			&& NODE_PATH=$mods node "$src/tests/scripts/k8s_validate.js" cm.yaml >val.out 2>&1 && ok \
			|| bad "configmap: $(cat val.out)"
	fi
	# the validator does reject a bad Job
	sed 's/completionMode: Indexed/completionMode: Indexd/' "$job" >badjob.yaml
	NODE_PATH=$mods node "$src/tests/scripts/k8s_validate.js" badjob.yaml >val.out 2>&1
	[ $? = 1 ] && grep -q 'completionMode must be equal to one of the allowed values' val.out && ok || bad "$(cat val.out)"
else
	echo "SKIP: node or kubernetes-models not installed ($mods; .ci/setup installs it): schema validation skipped"
fi

# The allow-list, and the pods' commands, from the manifest (python3 with PyYAML).
if ! python3 -c 'import yaml' 2>/dev/null; then
	echo "SKIP: python3 with PyYAML not installed: the field check and the pods are skipped"
	finish
fi
python3 - "$job" >pods.txt <<'PY' || bad "manifest fields: $(cat pods.txt)"
import sys, yaml
job = yaml.safe_load(open(sys.argv[1]))
allowed = {
    "": {"apiVersion", "kind", "metadata", "spec"},
    "metadata": {"name", "labels"},
    "spec": {"completionMode", "completions", "parallelism", "backoffLimit", "template"},
    "spec.template": {"metadata", "spec"},
    "spec.template.metadata": {"labels"},
    "spec.template.spec": {"restartPolicy", "containers", "volumes"},
    "spec.template.spec.containers": {"name", "image", "command", "resources", "volumeMounts"},
    "spec.template.spec.containers.resources": {"requests", "limits"},
    "spec.template.spec.containers.volumeMounts": {"name", "mountPath", "readOnly"},
    "spec.template.spec.volumes": {"name", "configMap", "persistentVolumeClaim"},
}
def walk(node, path):
    if isinstance(node, list):
        for x in node: walk(x, path)
        return
    if path not in allowed or not isinstance(node, dict): return
    for k, v in node.items():
        if k not in allowed[path]:
            print(f"unknown field {k!r} at {path or 'top'}"); sys.exit(1)
        walk(v, f"{path}.{k}" if path else k)
walk(job, "")
s = job["spec"]
assert s["completionMode"] == "Indexed" and job["kind"] == "Job", "not an Indexed Job"
cmd = s["template"]["spec"]["containers"][0]["command"]
k = cmd[cmd.index("--shards") + 1]
assert int(k) == s["completions"], f"--shards {k} but completions {s['completions']}"
print(s["completions"]); print("\t".join(cmd))
PY
n=$(head -1 pods.txt)
IFS=$'\t' read -r -a cmd < <(sed -n 2p pods.txt)
cmd=("${cmd[@]/#gpuplan/$exe}")
cmd=("${cmd[@]//\/sweep\/spec/$fix}")
cmd=("${cmd[@]//\/sweep\/out/$work\/pods}")
for ((i = 0; i < n; i++)); do
	JOB_COMPLETION_INDEX=$i "${cmd[@]}" >pod.out 2>&1 || bad "pod $i: $(cat pod.out)"
done
grep -q "shard $((n - 1))/$n (JOB_COMPLETION_INDEX)" pod.out && ok || bad "pods: $(cat pod.out)"
"$exe" sweep run "$fix/grid.yaml" -o local -j 2 >/dev/null && "$exe" sweep merge "$fix/grid.yaml" -o local >/dev/null \
	|| bad "local run"
"$exe" sweep merge "$fix/grid.yaml" -o pods >/dev/null || bad "merge of the pods"
for f in sweep.json cases.csv options.csv sensitivity.csv breakeven.csv; do
	cmp -s local/$f pods/$f && ok || bad "$f differs from the local run's"
done
finish
