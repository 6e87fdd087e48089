/*
 * deploy_apply.c - apply.sh: the plan's deploy files onto a cluster with
 * the NVIDIA GPU Operator, idempotently.  The mig-parted config becomes
 * the ConfigMap the MIG manager reads (key config.yaml), the device
 * plugin's ConfigMap is applied, the ClusterPolicy is patched to use both
 * (and, unless the scenario says the cluster keeps one, to leave
 * spec.mig.strategy unset, so that each node's config governs), then
 * labels.sh labels the nodes.  docs/deploy.md "To apply" gives the same
 * commands and the upstream source of each rule.
 */
#include <stdio.h>
#include <string.h>

#include "deploy.h"
#include "deploy_plan.h"
#include "util.h"
#include "banned.h"

void deploy_apply(const struct dplan *dp, const char *ns, struct outset *os)
{
	const struct scenario *sc = dp->cp->p->sc;
	struct sb sh;

	sb_init(&sh);
	sb_adds(&sh, "#!/bin/sh\n"
		     "# Applies the deploy files of a gpuplan plan (gpuplan plan --deploy) to the cluster kubectl\n"
		     "# points at, whose NVIDIA GPU Operator (v24.3.0 or later: device plugin v0.15.0 or later)\n"
		     "# runs in the namespace below. Idempotent: run it again after a change.\n"
		     "# docs/deploy.md \"To apply\" says what each step does and why.\n"
		     "set -eu\n"
		     "cd \"$(dirname \"$0\")\"\n");
	sb_addf(&sh, "ns=%s\n", ns);	/* a namespace name: letters, digits and '-' (checked) */
	sb_adds(&sh, "kubectl create configmap gpuplan-mig-parted-config --namespace \"$ns\" "
		     "--from-file=config.yaml=mig-parted.yaml --dry-run=client -o yaml | kubectl apply -f -\n"
		     "kubectl apply --namespace \"$ns\" -f device-plugin-config.yaml\n"
		     "policy=$(kubectl get clusterpolicies.nvidia.com -o name)\n"
		     "case \"$policy\" in\n"
		     "clusterpolicy.nvidia.com/*[!a-z0-9.-]* | '') echo \"apply.sh: expected one ClusterPolicy, "
		     "found: '$policy'\" >&2; exit 1 ;;\n"
		     "esac\n"
		     "kubectl patch \"$policy\" --type merge -p '{\"spec\": {");
	if (sc->operator_mig == OPERATOR_MIG_UNSET)
		sb_adds(&sh, "\"mig\": {\"strategy\": null}, ");
	sb_adds(&sh, "\"migManager\": {\"config\": {\"name\": \"gpuplan-mig-parted-config\", "
		     "\"default\": \"all-disabled\"}}, \"devicePlugin\": {\"config\": {\"name\": "
		     "\"gpuplan-device-plugin-config\", \"default\": \"default\"}}}}'\n"
		     "sh ./labels.sh\n");
	outset_add_sb(os, "apply.sh", &sh);
}

int deploy_namespace_valid(const char *s)
{
	size_t i, n = strlen(s);

	if (!n || n > 63 || s[0] == '-' || s[n - 1] == '-')
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			return 0;
	return 1;
}
