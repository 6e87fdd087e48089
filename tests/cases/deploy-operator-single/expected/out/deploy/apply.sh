#!/bin/sh
# Applies the deploy files of a gpuplan plan (gpuplan plan --deploy) to the cluster kubectl
# points at, whose NVIDIA GPU Operator (v24.3.0 or later: device plugin v0.15.0 or later)
# runs in the namespace below. Idempotent: run it again after a change.
# docs/deploy.md "To apply" says what each step does and why.
set -eu
cd "$(dirname "$0")"
ns=nvidia-gpu-operator
kubectl create configmap gpuplan-mig-parted-config --namespace "$ns" --from-file=config.yaml=mig-parted.yaml --dry-run=client -o yaml | kubectl apply -f -
kubectl apply --namespace "$ns" -f device-plugin-config.yaml
policy=$(kubectl get clusterpolicies.nvidia.com -o name)
case "$policy" in
clusterpolicy.nvidia.com/*[!a-z0-9.-]* | '') echo "apply.sh: expected one ClusterPolicy, found: '$policy'" >&2; exit 1 ;;
esac
kubectl patch "$policy" --type merge -p '{"spec": {"migManager": {"config": {"name": "gpuplan-mig-parted-config", "default": "all-disabled"}}, "devicePlugin": {"config": {"name": "gpuplan-device-plugin-config", "default": "default"}}}}'
sh ./labels.sh
