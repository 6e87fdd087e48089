#!/usr/bin/env bash
# The deploy ConfigMap (device-plugin-config.yaml) of data/example and of
# the named-nodes case, checked offline against the Kubernetes OpenAPI
# schemas (tests/scripts/k8s_validate.js: the npm package kubernetes-models
# 4.5.1, which .ci/setup --tests installs into build/npm); the PriorityClasses
# of plan-resilience-preempt's requests.yaml and a Pod per request naming its
# class; also that a broken ConfigMap and a broken PriorityClass fail.  Skips, saying so, only when node or the package is
# missing on this machine (GPUPLAN_NPM_DIR: where node_modules is; default
# SRC_DIR/build/npm).
# usage: test_deploy_k8s.sh GPUPLAN SRC_DIR WORK_DIR
set -u
gpuplan=$1 src=$2 work=$3
npm_dir=${GPUPLAN_NPM_DIR:-$src/build/npm}
if ! command -v node >/dev/null || [ ! -d "$npm_dir/node_modules/kubernetes-models" ]; then
	echo "SKIP: node or kubernetes-models missing in $npm_dir (.ci/setup --tests installs them)"
	exit 0
fi
export NODE_PATH=$npm_dir/node_modules
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail=0
for sc in data/example/scenario.yaml tests/cases/deploy-named-nodes/scenario.yaml; do
	d=$(basename "$(dirname "$sc")")
	"$gpuplan" plan "$src/$sc" --greedy -o "out-$d" --deploy "deploy-$d" >/dev/null || { echo "FAIL: plan $sc"; fail=1; continue; }
	node "$src/tests/scripts/k8s_validate.js" "deploy-$d/device-plugin-config.yaml" || fail=1
done
# resilience preemption: requests.yaml's PriorityClasses, and a Pod per request with its
# priorityClassName, against the schemas (docs/deploy.md, "Priority and preemption")
sc=$src/tests/cases/plan-resilience-preempt/scenario.yaml
if "$gpuplan" plan "$sc" -o out-preempt --deploy deploy-preempt >/dev/null; then
	python3 - deploy-preempt/requests.yaml >preempt.yaml <<'PY' || fail=1
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
pods = [{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "r%d" % i},
         "spec": {"priorityClassName": r["priorityClassName"], "containers": [{"name": "c", "image": "x"}]}}
        for i, r in enumerate(d["requests"])]
print(yaml.safe_dump_all(d["priorityClasses"] + pods))
PY
	node "$src/tests/scripts/k8s_validate.js" preempt.yaml || fail=1
	printf 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: x}\nvalue: high\n' >broken-pc.yaml
	if node "$src/tests/scripts/k8s_validate.js" broken-pc.yaml >/dev/null; then
		echo "FAIL: a broken PriorityClass passed"
		fail=1
	fi
else
	echo "FAIL: plan $sc"
	fail=1
fi
# a ConfigMap whose data value is a number must fail the schema
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {default: 7}\n' > broken.yaml
if node "$src/tests/scripts/k8s_validate.js" broken.yaml >/dev/null; then
	echo "FAIL: a broken ConfigMap passed"
	fail=1
fi
[ $fail = 0 ] && echo "ok: deploy ConfigMaps and PriorityClasses valid against the Kubernetes schemas"
exit $fail
