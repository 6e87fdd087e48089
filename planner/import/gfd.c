/*
 * gfd.c - GPU product names to catalog GPU types (see gfd.h).
 *
 * Each row is a product name as GFD labels it.  "seen" rows are labels
 * in public captures: NVIDIA/cloud-native-docs gpu-operator/
 * gpu-sharing.rst @52dcb7b8 (Tesla-T4-SHARED), erhwenkuo/techlearn
 * docs/mlops/02-gpu-sharing/mig/mig-k8s.md @8dedfd33
 * (NVIDIA-A100-80GB-PCIe, -MIG-1g.10gb), cbrownstein-lambda/
 * lambda-docs-mkdocs kubeai-hermes-3.md @b80909e8 (NVIDIA-H100-80GB-HBM3),
 * utkuozdemir/nvidia_gpu_exporter internal/captures @e656cd81 (nvidia-smi
 * name "NVIDIA H100 80GB HBM3"), and workload manifests that select
 * NVIDIA-A100-SXM4-80GB nodes.  The other rows are the NVML device name
 * with spaces as '-', the rule GFD follows (k8s-device-plugin
 * internal/lm/resource.go); older GFD versions wrote A100 names without
 * the "NVIDIA-" prefix (A100-PCIE-40GB, A100-SXM4-40GB), kept as rows.
 *
 * "listed" rows are names in the "Compatible GPUs" table of NVIDIA's
 * open-gpu-kernel-modules README [DRV] (Product Name, PCI ID; the name
 * the driver reports), read at driver 610.43.03 in a public copy of that
 * README (upstream README @015742d3, driver 550.40.82, has the
 * pre-Blackwell rows).  "seen" there means also printed by nvidia-smi or
 * NVML in public output: NVIDIA/TensorRT-LLM#10278 (B200), sglang#11208
 * (GB200), NVIDIA/cosmos-framework#114 and pytorch/ao#3640 (B300 SXM6
 * AC), bigstack-oss/cubecos#312 (RTX PRO 6000 Blackwell Server Edition),
 * vllm#7865 (H20), vllm#6737 and NVIDIA/DCGM#120 (H800), dexmal/dexbotic#41
 * (A800-SXM4-80GB), vllm#41519 (A800 80GB PCIe); GH200 480GB/120GB
 * (both 97871 MiB, the 96 GB GPU), GH200 144G HBM3e, H800 PCIe, L20, L2
 * and "RTX 6000 Ada Gene..." in nvidia-smi tables found by exact-string
 * search (repositories not named by the index).  Not mapped (catalog
 * type unsure): "NVIDIA H20-3e" (232C), "NVIDIA H100" (2339), "NVIDIA
 * H20 NVL16", "NVIDIA GB300"; see docs/formats.md "Not yet sourced".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gfd.h"
#include "util.h"
#include "banned.h"

static const struct {
	const char *label;	/* GFD nvidia.com/gpu.product base name */
	const char *gpu_id;	/* catalog id (models/gpus.yaml) */
} products[] = {
	{ "Tesla-T4", "T4" },				/* seen */
	{ "NVIDIA-A10", "A10" },
	{ "NVIDIA-A16", "A16" },
	{ "NVIDIA-A30", "A30" },
	{ "NVIDIA-A40", "A40" },
	{ "NVIDIA-A100-PCIE-40GB", "A100-PCIE-40GB" },
	{ "A100-PCIE-40GB", "A100-PCIE-40GB" },		/* older GFD, no prefix */
	{ "NVIDIA-A100-SXM4-40GB", "A100-SXM4-40GB" },
	{ "A100-SXM4-40GB", "A100-SXM4-40GB" },		/* older GFD, no prefix */
	{ "NVIDIA-A100-80GB-PCIe", "A100-PCIE-80GB" },	/* seen */
	{ "NVIDIA-A100-SXM4-80GB", "A100-SXM4-80GB" },	/* seen */
	{ "NVIDIA-H100-PCIe", "H100-PCIE-80GB" },
	{ "NVIDIA-H100-80GB-HBM3", "H100-SXM5-80GB" },	/* seen */
	{ "NVIDIA-H100-NVL", "H100-NVL-94GB" },
	{ "NVIDIA-H200", "H200-SXM-141GB" },
	{ "NVIDIA-H200-NVL", "H200-NVL-141GB" },
	{ "NVIDIA-L4", "L4" },
	{ "NVIDIA-L40", "L40" },
	{ "NVIDIA-L40S", "L40S" },
	{ "NVIDIA-B200", "B200" },			/* listed, seen */
	/* Rows below: driver product list names ("listed", see the top comment). */
	{ "NVIDIA-GB200", "GB200" },			/* listed, seen */
	{ "NVIDIA-B300-SXM6-AC", "B300" },		/* listed, seen */
	{ "NVIDIA-RTX-PRO-6000-Blackwell-Server-Edition", "RTX-PRO-6000-BSE" }, /* listed, seen */
	{ "NVIDIA-GH200-480GB", "GH200-96GB" },		/* listed, seen */
	{ "NVIDIA-GH200-120GB", "GH200-96GB" },		/* listed, seen */
	{ "NVIDIA-GH200-144G-HBM3e", "GH200-144GB" },	/* listed, seen */
	{ "NVIDIA-H20", "H20-SXM5-96GB" },		/* listed, seen */
	{ "NVIDIA-H800", "H800-SXM5-80GB" },		/* listed, seen */
	{ "NVIDIA-H800-PCIe", "H800-PCIE-80GB" },	/* listed, seen */
	{ "NVIDIA-H800-NVL", "H800-NVL-94GB" },		/* listed */
	{ "NVIDIA-A800-SXM4-80GB", "A800-SXM4-80GB" },	/* listed, seen */
	{ "NVIDIA-A800-80GB-PCIe", "A800-PCIE-80GB" },	/* listed, seen */
	{ "NVIDIA-A800-80GB-PCIe-LC", "A800-PCIE-80GB" }, /* listed */
	{ "NVIDIA-A800-40GB-Active", "A800-PCIE-40GB" }, /* listed */
	{ "NVIDIA-L20", "L20" },			/* listed, seen */
	{ "NVIDIA-L2", "L2" },				/* listed, seen */
	{ "NVIDIA-RTX-6000-Ada-Generation", "RTX-6000-Ada" }, /* listed, seen */
};
#define NPRODUCTS (sizeof(products) / sizeof(products[0]))

int gfd_product_parse(const char *label, struct gfd_product *p)
{
	char *mig, *c;
	size_t i, len;

	memset(p, 0, sizeof(*p));
	snprintf(p->base, sizeof(p->base), "%s", label);
	for (c = p->base; *c; c++)
		if (*c == ' ')
			*c = '-';
	len = strlen(p->base);
	if (len > 7 && !strcmp(p->base + len - 7, "-SHARED")) {
		p->shared = 1;
		p->base[len - 7] = '\0';
	}
	mig = strstr(p->base, "-MIG-");
	if (mig) {
		snprintf(p->mig_profile, sizeof(p->mig_profile), "%s", mig + 5);
		*mig = '\0';
	}
	for (i = 0; i < NPRODUCTS; i++)
		if (!strcmp(products[i].label, p->base)) {
			p->gpu_id = products[i].gpu_id;
			return 0;
		}
	return -1;
}

char *gfd_product_hint(const char *base)
{
	const char *names[NPRODUCTS + 1];
	char *hint, *msg;
	size_t i;

	for (i = 0; i < NPRODUCTS; i++)
		names[i] = products[i].label;
	names[NPRODUCTS] = NULL;
	hint = str_hint(base, names);
	msg = xasprintf("unknown GPU product '%s'%s", base, hint);
	free(hint);
	return msg;
}
