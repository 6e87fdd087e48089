#!/bin/sh
# The node labels of plan 'deploy-operator-single' (gpuplan plan --deploy): nvidia.com/mig.config selects a config of
# mig-parted.yaml, nvidia.com/device-plugin.config one of device-plugin-config.yaml.
# Idempotent: run it again after a change.
set -eu
kubectl label node --overwrite 'bm-h100-000' nvidia.com/mig.config=all-disabled nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'bm-h100-001' nvidia.com/mig.config=all-disabled nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'bm-h100-002' nvidia.com/mig.config=all-disabled nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-001-k8s' nvidia.com/mig.config=all-disabled nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'bm-h100-003' nvidia.com/mig.config=all-disabled nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'bm-h100-004' nvidia.com/mig.config=gpuplan-mig-1 nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-1' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-2' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-3' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-4' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-5' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-6' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-7' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-8' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-9' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-10' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-11' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-12' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-13' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-14' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-15' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-16' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-17' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-18' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-19' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-20' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-21' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-22' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-23' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-24' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-25' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-002-k8s-26' nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'vs-a100-003-k8s' nvidia.com/mig.config=all-disabled nvidia.com/device-plugin.config=mps-5
