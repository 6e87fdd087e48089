#!/usr/bin/env bash
# test_sweep_k8s.sh - the Kubernetes manifest of `gpuplan sweep submit
# --k8s` (a ConfigMap of the inputs and an Indexed Job): it is the one
# docs/sweep/k8s-indexed-job.yaml shows, byte for byte; both objects
# validate offline against the Kubernetes OpenAPI schemas of the npm
# package kubernetes-models 4.5.1, which .ci/setup --tests installs into build/npm
# (skipped, with a message, when node or that package is absent); the
# Job's fields are on an allow-list (the schemas accept unknown fields);
# and its pods, played here one index at a time with the manifest's own
# command, JOB_COMPLETION_INDEX set by hand and the ConfigMap's files as
# the mounted volume, merge to the local run's bytes.  Models that are not
# gpuplan's own travel in the ConfigMap.
# Usage: test_sweep_k8s.sh GPUPLAN SRC_DIR WORK_DIR
. "$(dirname "$0")/lib.sh"

doc=$src/docs/sweep/k8s-indexed-job.yaml
fix=$src/tests/sweep
mods=${GPUPLAN_NPM_DIR:-$(dirname "$exe")/../npm}/node_modules
unset SLURM_ARRAY_TASK_ID SLURM_PROCID OMPI_COMM_WORLD_RANK PMI_RANK JOB_COMPLETION_INDEX GPUPLAN_MODELS

(cd "$src" && "$exe" sweep submit tests/sweep/grid.yaml --k8s --shards 8 --parallelism 4 \
	--image registry.example.com/gpuplan:latest -o "$work/k8s" >"$work/submit.out") && ok || bad "submit --k8s exited $?"
job=$work/k8s/sweep-k8s.yaml
cmp -s "$job" "$doc" && ok || bad "docs/sweep/k8s-indexed-job.yaml is not what submit --k8s writes: $(diff "$doc" "$job" | head -5)"
"$exe" sweep submit "$fix/grid.yaml" --k8s --parallelism 9 --shards 8 -o bad >/dev/null 2>&1
[ $? = 2 ] && ok || bad "--parallelism over --shards was accepted"
# models of one's own travel with the inputs, as models: . in every scenario
cp -r "$src/models" mymodels
"$exe" --models mymodels sweep submit "$fix/grid.yaml" --k8s -o own >/dev/null && ok || bad "submit with --models"
[ "$(grep -c '^    models: \.$' own/sweep-k8s.yaml)" = 2 ] && grep -q '^  licenses.yaml: |$' own/sweep-k8s.yaml && ok \
	|| bad "own models are not in the ConfigMap"

if command -v node >/dev/null 2>&1 && [ -d "$mods/kubernetes-models" ]; then
	NODE_PATH=$mods node "$src/tests/scripts/k8s_validate.js" "$job" own/sweep-k8s.yaml >val.out 2>&1 && ok \
		|| bad "$(cat val.out)"
	[ "$(grep -c OK val.out)" = 4 ] && ok || bad "not 4 objects valid: $(cat val.out)"
	# the validator does reject a bad Job
	sed 's/completionMode: Indexed/completionMode: Indexd/' "$job" >badjob.yaml
	NODE_PATH=$mods node "$src/tests/scripts/k8s_validate.js" badjob.yaml >val.out 2>&1
	[ $? = 1 ] && grep -q 'completionMode must be equal to one of the allowed values' val.out && ok || bad "$(cat val.out)"
else
	echo "SKIP: node or kubernetes-models not installed ($mods; .ci/setup --tests installs it): schema validation skipped"
fi

# The allow-list, the ConfigMap's files (the volume) and the pods' command (python3 with PyYAML).
if ! python3 -c 'import yaml' 2>/dev/null; then
	echo "SKIP: python3 with PyYAML not installed: the field check and the pods are skipped"
	finish
fi
python3 - "$job" "$work/volume" >pods.txt <<'PY' || bad "manifest fields: $(cat pods.txt)"
import os, sys, yaml
cm, job = list(yaml.safe_load_all(open(sys.argv[1])))
assert cm["kind"] == "ConfigMap" and job["kind"] == "Job", "not a ConfigMap and a Job"
os.makedirs(sys.argv[2])
for k, v in cm["data"].items():
    open(os.path.join(sys.argv[2], k), "w").write(v)
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
assert s["completionMode"] == "Indexed", "not an Indexed Job"
pod = s["template"]["spec"]
assert pod["volumes"][0]["configMap"]["name"] == cm["metadata"]["name"], "the volume is not the ConfigMap"
cmd = pod["containers"][0]["command"]
k = cmd[cmd.index("--shards") + 1]
assert int(k) == s["completions"], f"--shards {k} but completions {s['completions']}"
print(s["completions"]); print("\t".join(cmd))
PY
n=$(head -1 pods.txt)
IFS=$'\t' read -r -a cmd < <(sed -n 2p pods.txt)
cmd=("${cmd[@]/#gpuplan/$exe}")
cmd=("${cmd[@]//\/sweep\/spec/$work\/volume}")
cmd=("${cmd[@]//\/sweep\/out/$work\/pods}")
for ((i = n - 1; i >= 0; i--)); do	# in reverse, as a scheduler may
	JOB_COMPLETION_INDEX=$i "${cmd[@]}" >pod.out 2>&1 || bad "pod $i: $(cat pod.out)"
done
grep -q "shard 0/$n (JOB_COMPLETION_INDEX)" pod.out && ok || bad "pods: $(cat pod.out)"
"$exe" sweep run volume/grid.yaml -o local -j 2 >/dev/null && "$exe" sweep merge volume/grid.yaml -o local --format all \
	>/dev/null || bad "local run"
"$exe" sweep merge volume/grid.yaml -o pods --format all >/dev/null || bad "merge of the pods"
for f in sweep.json cases.csv options.csv sensitivity.csv breakeven.csv report.html; do
	cmp -s local/$f pods/$f && ok || bad "$f differs from the local run's"
done
# the rewritten inputs plan as the originals: the same cases.csv as a run of tests/sweep/grid.yaml
"$exe" sweep run "$fix/grid.yaml" -o orig >/dev/null && "$exe" sweep merge "$fix/grid.yaml" -o orig >/dev/null \
	|| bad "run of the original spec"
cmp -s orig/cases.csv pods/cases.csv && ok || bad "the ConfigMap's inputs plan differently: $(diff orig/cases.csv pods/cases.csv | head -3)"
finish
