#!/bin/sh
# The node labels of plan 'deploy-named' (gpuplan plan --deploy): nvidia.com/mig.config selects a config of
# mig-parted.yaml, nvidia.com/device-plugin.config one of device-plugin-config.yaml.
# Idempotent: run it again after a change.
set -eu
kubectl label node --overwrite 'gpu-h100-a' nvidia.com/mig.config=all-disabled nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'gpu-h100-b' nvidia.com/mig.config=gpuplan-mig-1 nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'gpu-a100-a' nvidia.com/mig.config=all-disabled nvidia.com/device-plugin.config=mps-5
kubectl label node --overwrite 'gpu-a100-b' nvidia.com/mig.config=all-disabled nvidia.com/device-plugin.config=time-slicing-8
kubectl label node --overwrite 'gpu-h100-c' nvidia.com/mig.config=all-disabled nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'gpu-h100-d' nvidia.com/mig.config=all-disabled nvidia.com/device-plugin.config=default
kubectl label node --overwrite 'gpu-a100-c' nvidia.com/mig.config=all-disabled nvidia.com/device-plugin.config=default
