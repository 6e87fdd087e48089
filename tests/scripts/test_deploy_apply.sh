#!/usr/bin/env bash
# apply.sh against docs/deploy.md "To apply" (issue #60): the documented block (between
# <!-- apply-begin --> and <!-- apply-end -->), followed literally in the example's deploy
# directory with a fake kubectl that records its arguments, makes exactly the calls apply.sh
# makes; apply.sh run again makes the same calls again (idempotent: create-or-replace, merge
# patch, label --overwrite); it stops, saying why, when the cluster has no ClusterPolicy or two;
# --deploy-namespace reaches every namespaced call; a scenario name with line breaks runs nothing
# from labels.sh.
# usage: test_deploy_apply.sh GPUPLAN SRC_DIR WORK_DIR
set -u
gpuplan=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work/bin" && cd "$work" || exit 1
fail=0
# the fake kubectl: one line of arguments per call; `get clusterpolicies` answers $POLICIES
# (the two sides of `create ... | kubectl apply -f -` run at once: logs are compared sorted, and
# the order that matters - ConfigMaps, then the patch, then the labels - is checked on its own)
cat >bin/kubectl <<'EOF'
#!/bin/sh
line=$(printf '%s|' "$@")
printf '%s\n' "$line" >>"$KUBECTL_LOG"
case "$1 $2" in
"get clusterpolicies.nvidia.com") printf '%b' "$POLICIES" ;;
"create configmap") echo "apiVersion: v1" ;;
esac
cat >/dev/null 2>&1 </dev/null
EOF
chmod +x bin/kubectl
export PATH=$work/bin:$PATH POLICIES='clusterpolicy.nvidia.com/cluster-policy\n'
"$gpuplan" plan "$src/data/example/scenario.yaml" --greedy -o out --deploy deploy >/dev/null || { echo "FAIL: plan"; exit 1; }
sed -n '/<!-- apply-begin -->/,/<!-- apply-end -->/p' "$src/docs/deploy.md" | sed '/^```/d;/^<!--/d' >doc.sh
[ "$(grep -c kubectl doc.sh)" -ge 4 ] || { echo "FAIL: no apply block in docs/deploy.md"; exit 1; }

(cd deploy && KUBECTL_LOG=$work/doc.log sh -eu ../doc.sh >/dev/null) || { echo "FAIL: the documented commands fail"; fail=1; }
(cd / && KUBECTL_LOG=$work/apply.log sh "$work/deploy/apply.sh" >/dev/null) || { echo "FAIL: apply.sh fails"; fail=1; }
if ! cmp -s <(sort doc.log) <(sort apply.log); then
	echo "FAIL: docs/deploy.md's commands and apply.sh differ:"
	diff <(sort doc.log) <(sort apply.log) | head -20
	fail=1
fi
order=$(grep -n -e '^apply|--namespace' -e '^patch|' -e '^label|' apply.log | cut -d: -f2 | cut -d'|' -f1 | uniq | tr '\n' ' ')
[ "$order" = "apply patch label " ] || { echo "FAIL: apply.sh's order: $order"; fail=1; }
[ "$(grep -c '^label|node|--overwrite|' apply.log)" -ge 10 ] || { echo "FAIL: apply.sh labelled too few nodes"; fail=1; }
KUBECTL_LOG=$work/again.log sh deploy/apply.sh >/dev/null && cat apply.log apply.log >twice.log
KUBECTL_LOG=$work/again.log sh deploy/apply.sh >/dev/null
cmp -s <(sort again.log) <(sort twice.log) || { echo "FAIL: apply.sh run twice makes other calls the second time"; fail=1; }

for p in '' 'clusterpolicy.nvidia.com/a\nclusterpolicy.nvidia.com/b\n'; do
	if POLICIES=$p KUBECTL_LOG=$work/bad.log sh deploy/apply.sh >/dev/null 2>err.txt; then
		echo "FAIL: apply.sh went on with ClusterPolicies '$p'"
		fail=1
	elif ! grep -q 'expected one ClusterPolicy' err.txt || grep -q '^patch|' bad.log; then
		echo "FAIL: apply.sh with ClusterPolicies '$p': $(cat err.txt)"
		fail=1
	fi
	rm -f bad.log
done

"$gpuplan" plan "$src/data/example/scenario.yaml" --greedy -o out2 --deploy deploy2 \
	--deploy-namespace nvidia-gpu-operator >/dev/null || { echo "FAIL: plan with a namespace"; exit 1; }
KUBECTL_LOG=$work/ns.log sh deploy2/apply.sh >/dev/null
if [ "$(grep -c -- '--namespace|nvidia-gpu-operator|' ns.log)" != 2 ] || grep -q 'gpu-operator|' <(grep -v nvidia-gpu ns.log) ||
	! grep -q '^  namespace: nvidia-gpu-operator$' deploy2/device-plugin-config.yaml; then
	echo "FAIL: --deploy-namespace nvidia-gpu-operator not in every namespaced call:"
	cat ns.log
	fail=1
fi
# a scenario name with line breaks stays inside labels.sh's comment: running it runs nothing else
mkdir -p hostile
cp "$src/tests/cases/deploy-named-nodes/inventory.csv" "$src/tests/cases/deploy-named-nodes/workloads.csv" hostile/
printf 'schema: gpuplan-scenario/1\nname: "x\\ntouch %s/PWNED\\n#"\ninventory: inventory.csv\nworkloads: workloads.csv\n' \
	"$work" >hostile/scenario.yaml
if ! "$gpuplan" plan hostile/scenario.yaml --greedy -o hostile/out --deploy hostile/deploy >/dev/null; then
	echo "FAIL: plan of the hostile scenario name"
	fail=1
else
	KUBECTL_LOG=$work/hostile.log sh -eu hostile/deploy/labels.sh >/dev/null
	[ -e PWNED ] && { echo "FAIL: a scenario name ran a command from labels.sh"; fail=1; }
fi

[ $fail = 0 ] && echo "ok: docs/deploy.md's commands = apply.sh's, idempotent, one ClusterPolicy, namespace"
exit $fail
