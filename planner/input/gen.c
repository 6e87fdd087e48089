/*
 * gen.c - the seeded synthetic fleet and workload generator.
 *
 * A size fixes the GPU and replica totals and the numbers of node and
 * demand classes; the seed picks the rest.  Node classes come from a
 * table of node shapes (GPU type, GPUs per node, allowed hypervisors,
 * CPU, RAM, base power; rented shapes carry an on-demand price).  The
 * first classes are fixed so that every size has 8-GPU bare-metal
 * training nodes, a VM host, a 48 GB kvm class and two rented shapes;
 * the rest are drawn.  GPUs are shared out by drawn weights and the
 * remainder goes to a rented 1-GPU class, so the total is exact.
 * Workloads are drawn from kinds (inference, notebooks, VM-only work,
 * whole-GPU serving, multi-GPU training); replicas are shared out so
 * that the asked GPU-equivalents come near `load` x GPUs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "rng.h"
#include "util.h"
#include "banned.h"

static const struct gen_spec specs[GEN_SIZE_COUNT] = {
	{ "S", 100, 500, 6, 30, 0.65, 10 },
	{ "M", 1000, 5000, 16, 80, 0.65, 10 },
	{ "L", 8000, 20000, 40, 200, 0.8, 10 },
	{ "XL", 20000, 100000, 64, 400, 0.65, 60 },
};

const struct gen_spec *gen_spec(enum gen_size s)
{
	return &specs[s];
}

int gen_size_parse(const char *s)
{
	int i;
	for (i = 0; i < GEN_SIZE_COUNT; i++)
		if (!str_casecmp(s, specs[i].name))
			return i;
	return -1;
}

/* ================= random numbers (splitmix64, rng.h) ================= */

/* Uniform in [0, n). */
static int rng_int(struct rng *r, int n)
{
	return (int)(rng_next(r) % (unsigned long long)n);
}

static int rng_chance(struct rng *r, int percent)
{
	return rng_int(r, 100) < percent;
}

#define PICK(r, arr) ((arr)[rng_int((r), (int)(sizeof(arr) / sizeof((arr)[0])))])

/* ================= node shapes ================= */

enum { HVB_VSPHERE = 1, HVB_KVM = 2, HVB_BM = 4, HVB_CLOUD = 8 };

struct shape {
	const char *gpu;	/* catalog id */
	const char *tag;	/* short name for the class name */
	int gpn;		/* GPUs per node */
	unsigned hvs;		/* allowed hypervisors (HVB_*) */
	double cpu, ram;	/* per node */
	double base_w;		/* node power without GPUs (owned; illustrative) */
	double hourly;		/* rent: USD per node-hour; 0 = owned */
	int weight;		/* how often drawn */
};

/*
 * Owned shapes: CPU, RAM and base power are illustrative assumptions for
 * typical servers of each kind, not measurements.  Rented shapes: AWS
 * instances with their vCPU and memory, and the on-demand USD/hour of
 * the skypilot catalog ([SKY], as in models/clouds.yaml).
 */
static const struct shape shapes[] = {
	{ "H100-SXM5-80GB", "h100sxm", 8, HVB_BM | HVB_KVM, 112, 2048, 1300, 0, 4 },
	{ "A100-PCIE-80GB", "a100pcie", 4, HVB_VSPHERE | HVB_KVM, 64, 1024, 650, 0, 4 },
	{ "L40S", "l40s", 4, HVB_KVM | HVB_VSPHERE | HVB_BM, 64, 768, 500, 0, 4 },
	{ "H100-SXM5-80GB", "p5", 8, HVB_CLOUD, 192, 2048, 0, 98.32, 2 },      /* p5.48xlarge [SKY] */
	{ "L4", "g6", 1, HVB_CLOUD, 4, 16, 0, 0.8048, 1 },                    /* g6.xlarge [SKY] */
	{ "H100-PCIE-80GB", "h100pcie", 4, HVB_VSPHERE | HVB_KVM | HVB_BM, 64, 1024, 650, 0, 3 },
	{ "A100-SXM4-80GB", "a100sxm", 8, HVB_BM | HVB_KVM, 128, 2048, 1200, 0, 4 },
	{ "L4", "l4", 8, HVB_VSPHERE | HVB_BM, 64, 512, 450, 0, 3 },
	{ "T4", "t4", 4, HVB_VSPHERE | HVB_BM, 48, 384, 400, 0, 2 },
	{ "A10", "a10", 4, HVB_VSPHERE | HVB_KVM, 48, 512, 450, 0, 2 },
	{ "H200-SXM-141GB", "h200", 8, HVB_BM, 112, 2048, 1300, 0, 2 },
	{ "B200", "b200", 8, HVB_BM, 112, 2048, 1500, 0, 1 },
	{ "A100-SXM4-80GB", "p4de", 8, HVB_CLOUD, 96, 1152, 0, 40.96575, 2 },  /* p4de.24xlarge [SKY] */
	{ "H200-SXM-141GB", "p5en", 8, HVB_CLOUD, 192, 2048, 0, 84.8, 1 },     /* p5en.48xlarge [SKY] */
	{ "L40S", "g6e", 8, HVB_CLOUD, 192, 1536, 0, 30.13118, 2 },           /* g6e.48xlarge [SKY] */
	{ "T4", "g4dn", 1, HVB_CLOUD, 4, 16, 0, 0.526, 1 },                   /* g4dn.xlarge [SKY] */
};
#define NSHAPES (sizeof(shapes) / sizeof(shapes[0]))
#define NFIXED 5		/* the first shapes every size gets, in order */
#define SHAPE_REMAINDER 4	/* the 1-GPU rented class that takes the remainder */
/* hypervisors of the fixed classes: bare metal, vsphere, kvm, cloud, cloud */
static const int fixed_hv[NFIXED] = { 2, 0, 1, 3, 3 };

static const char *const hv_names[] = { "vsphere", "kvm", "baremetal", "cloud" };
static const char *const owned_sites[] = { "dc-east", "dc-west", "dc-north" };
#define CLOUD_SITE "aws-us-east-1"

struct gclass {
	const struct shape *sh;
	int hv;			/* index in hv_names */
	const char *site;
	long nodes;
	double weight;
	long mem_mib;		/* GPU memory */
};

/* ================= workloads ================= */

enum kind { K_INFER, K_INFER_MED, K_NOTEBOOK, K_VM, K_SERVE, K_TRAIN, K_COUNT };
static const char *const kind_tag[K_COUNT] = { "infer", "infer-med", "notebook", "vm", "serve", "train" };
static const int kind_weight[K_COUNT] = { 32, 18, 12, 12, 16, 10 };

static const char *const tenant_names[] = { "search", "bank", "research", "ads", "vision", "speech",
					    "retail", "health", "games", "maps", "mail", "video" };

struct gwork {
	enum kind kind;
	const char *tenant;
	int tenant_no;		/* for names beyond the list */
	int gpus;
	double mem;		/* GiB; 0 = not given */
	double compute;		/* 0 = not given (whole GPUs) */
	const char *iso;
	int vm;
	double cpu, ram;
	const char *types;	/* gpu_types list or NULL */
	const char *modes;	/* modes list or NULL */
	const char *site;	/* one site or NULL */
	int nvaie;
	int priority;
	double weight;		/* share of replicas within its group */
	long replicas;
};

/* GPU-equivalents of one replica. */
/*
 * GPU-equivalents one replica takes: its GPUs, or for a fraction the
 * larger of its compute share and its memory over GEN_MEM_PER_GPU (slots
 * come in profile sizes, so memory, not compute, is what fills a GPU).
 */
#define GEN_MEM_PER_GPU 48.0
static double work_equiv(const struct gwork *w)
{
	return w->gpus ? w->gpus : fmax(w->compute, w->mem / GEN_MEM_PER_GPU);
}

/* True when id is an entry of the '|'-separated list. */
static int list_has(const char *list, const char *id)
{
	size_t n = strlen(id);
	const char *p = list;
	while ((p = strstr(p, id)) != NULL) {
		if ((p == list || p[-1] == '|') && (p[n] == '\0' || p[n] == '|'))
			return 1;
		p += n;
	}
	return 0;
}

/* Some class can host the class-level asks of w (site, type, VM host, node size, memory). */
static int hostable(const struct gclass *cl, int ncl, const struct gwork *w, const struct catalog *cat)
{
	int i;
	for (i = 0; i < ncl; i++) {
		const struct gclass *c = &cl[i];
		if (w->site && strcmp(w->site, c->site))
			continue;
		if (w->types && !list_has(w->types, c->sh->gpu))
			continue;
		if (w->vm && c->hv != 0 && c->hv != 1)
			continue;
		if (w->gpus > c->sh->gpn || w->cpu > c->sh->cpu || w->ram > c->sh->ram)
			continue;
		if (w->mem * 1024 > (double)c->mem_mib)
			continue;
		/* shared modes only: at least two replicas share the GPU */
		if (w->modes && !strcmp(w->modes, "timeslice|mps") &&
		    (w->mem * 2048 > (double)c->mem_mib || w->compute > 0.5))
			continue;
		/* a fraction with hardware isolation needs MIG */
		if (!strcmp(w->iso, "hardware") && !w->gpus && !catalog_find(cat, c->sh->gpu)->has_mig)
			continue;
		return 1;
	}
	return 0;
}

/* GPU memory (GiB) and compute share menus of the fractional kinds; dense: many replicas per GPU. */
struct menu {
	double small_mem[8], small_cmp[5], med_mem[4], med_cmp[4], nb_mem[4], nb_cmp[4], vm_mem[4], vm_cmp[3];
};
static const struct menu menus[2] = {
	{ { 4, 5, 6, 8, 8, 10, 12, 16 }, { 0.05, 0.1, 0.1, 0.125, 0.2 }, { 20, 24, 32, 40 },
	  { 0.25, 0.3, 0.4, 0.5 }, { 8, 12, 16, 24 }, { 0.1, 0.125, 0.2, 0.25 }, { 8, 10, 16, 20 },
	  { 0.1, 0.2, 0.25 } },
	{ { 2, 2, 3, 4, 4, 5, 6, 8 }, { 0.05, 0.05, 0.1, 0.1, 0.125 }, { 8, 10, 12, 16 },
	  { 0.125, 0.2, 0.2, 0.25 }, { 4, 5, 6, 8 }, { 0.05, 0.1, 0.1, 0.125 }, { 4, 5, 8, 8 },
	  { 0.1, 0.1, 0.125 } },
};

/* The asks of w's kind: memory, compute, isolation, modes, CPU, RAM, licence, priority. */
static void draw_asks(struct rng *r, struct gwork *w, const struct menu *mn)
{
	static const double serve_mem[] = { 0, 0, 40, 80 };
	static const double train_mem[] = { 0, 40, 80 };
	static const int train_gpus[] = { 2, 4, 4, 8, 8 };
	static const double cpu_small[] = { 0.5, 1, 1, 2 };
	static const double ram_small[] = { 2, 4, 8, 16 };
	int k;

	switch (w->kind) {
	case K_INFER:
		w->mem = PICK(r, mn->small_mem);
		w->compute = PICK(r, mn->small_cmp);
		k = rng_int(r, 100);
		w->iso = k < 40 ? "none" : k < 75 ? "memory" : "hardware";
		if (!strcmp(w->iso, "hardware") && rng_chance(r, 30))
			w->modes = "mig|mig-vgpu";
		w->cpu = PICK(r, cpu_small);
		w->ram = PICK(r, ram_small);
		w->priority = rng_chance(r, 30) ? 5 : 1;
		break;
	case K_INFER_MED:
		w->mem = PICK(r, mn->med_mem);
		w->compute = PICK(r, mn->med_cmp);
		w->iso = rng_chance(r, 50) ? "memory" : "hardware";
		w->cpu = 2 + 2 * rng_int(r, 2);
		w->ram = 16 + 16 * rng_int(r, 2);
		w->priority = rng_chance(r, 50) ? 10 : 2;
		break;
	case K_NOTEBOOK:
		w->mem = PICK(r, mn->nb_mem);
		w->compute = PICK(r, mn->nb_cmp);
		w->iso = "none";
		if (rng_chance(r, 50))
			w->modes = "timeslice|mps";
		w->cpu = 1 + rng_int(r, 2);
		w->ram = 8 << rng_int(r, 3);
		break;
	case K_VM:
		w->mem = PICK(r, mn->vm_mem);
		w->compute = PICK(r, mn->vm_cmp);
		w->iso = rng_chance(r, 50) ? "memory" : "hardware";
		w->vm = 1;
		if (rng_chance(r, 40))
			w->modes = "vgpu|mig-vgpu";
		w->nvaie = rng_chance(r, 20);
		w->cpu = 2;
		w->ram = 8 << rng_int(r, 2);
		w->priority = rng_chance(r, 50) ? 20 : 10;
		break;
	case K_SERVE:
		w->gpus = 1;
		w->mem = PICK(r, serve_mem);
		w->iso = rng_chance(r, 60) ? "exclusive" : "hardware";
		w->cpu = 4 << rng_int(r, 2);
		w->ram = 32 << rng_int(r, 3);
		w->nvaie = rng_chance(r, 10);
		w->priority = rng_chance(r, 40) ? 10 : 3;
		break;
	case K_TRAIN:
		w->gpus = PICK(r, train_gpus);
		w->mem = PICK(r, train_mem);
		w->iso = "exclusive";
		w->modes = "passthrough";
		w->cpu = 12.0 * w->gpus;
		w->ram = 128.0 * w->gpus;
		if (rng_chance(r, 50))
			w->types = "H100-SXM5-80GB|H200-SXM-141GB|A100-SXM4-80GB|B200";
		w->priority = 3;
		break;
	case K_COUNT:
		break;
	}
}

static void draw_work(struct rng *r, struct gwork *w, const struct gclass *cl, int ncl, int ntenants,
		      const struct menu *mn)
{
	int k, t;

	memset(w, 0, sizeof(*w));
	k = rng_int(r, 100);
	for (w->kind = 0; w->kind < K_COUNT - 1; w->kind++) {
		if (k < kind_weight[w->kind])
			break;
		k -= kind_weight[w->kind];
	}
	t = rng_int(r, ntenants);
	w->tenant = tenant_names[t % 12];
	w->tenant_no = t / 12;
	w->priority = 1;
	draw_asks(r, w, mn);
	/* Some work is pinned to a site or to one GPU type present in the fleet. */
	if (w->kind != K_TRAIN && rng_chance(r, 12)) {
		const struct gclass *c = &cl[rng_int(r, ncl)];
		if (c->hv != 3)
			w->site = c->site;
	}
	if (w->kind != K_TRAIN && !w->types && rng_chance(r, 10)) {
		const struct gclass *c = &cl[rng_int(r, ncl)];
		if (w->mem * 1024 <= (double)c->mem_mib)
			w->types = c->sh->gpu;
	}
	/* heavy-tailed replica weights: a few big services, many small ones */
	w->weight = exp(3.0 * rng_unit(r));
	if (w->kind == K_TRAIN)
		w->weight *= 0.3;
}

/* Shares total among n items by weight (largest remainder), each at least 1. */
static void share_out(long total, size_t n, const double *weight, long *out)
{
	double sum = 0;
	long given = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += weight[i];
	for (i = 0; i < n; i++) {
		out[i] = 1;
		given++;
	}
	if (total <= given || sum <= 0)
		return;
	{
		long rest = total - given, used = 0;
		double *frac = xcalloc(n + 1, sizeof(*frac));
		for (i = 0; i < n; i++) {
			double x = (double)rest * weight[i] / sum;
			long f = (long)floor(x);
			out[i] += f;
			used += f;
			frac[i] = x - (double)f;
		}
		while (used < rest) {
			size_t best = 0;
			for (i = 1; i < n; i++)
				if (frac[i] > frac[best])
					best = i;
			out[best]++;
			frac[best] = -1;
			used++;
		}
		free(frac);
	}
}

static void add_num(struct sb *sb, double v)
{
	char buf[64];
	sb_adds(sb, fmt_num_short(buf, sizeof(buf), v, 6));
}

/* The fleet being generated. */
struct gfleet {
	const struct gen_spec *sp;
	const struct catalog *cat;
	struct rng r;
	struct gclass *cl;	/* node classes */
	int ncl;
	struct gwork *wk;	/* workloads */
	int nw;
	int nsites;		/* owned sites drawn from */
	int ntenants;
};

/* Draws the node classes: a shape, hypervisor and site each, and a weight. */
static void draw_classes(struct gfleet *f)
{
	struct gclass *cl = f->cl;
	int i;

	for (i = 0; i < f->ncl; i++) {
		struct gclass *c = &cl[i];
		int h, nh = 0, hv[4];
		int tries = 0, dup;
		/* draw a shape, hypervisor and site; avoid repeating a class while others remain */
		do {
			if (i < NFIXED) {
				c->sh = &shapes[i];
			} else {
				int tot = 0, k;
				size_t s;
				for (s = 0; s < NSHAPES; s++)
					tot += shapes[s].weight;
				k = rng_int(&f->r, tot);
				for (s = 0; s < NSHAPES - 1 && k >= shapes[s].weight; s++)
					k -= shapes[s].weight;
				c->sh = &shapes[s];
			}
			for (h = nh = 0; h < 4; h++)
				if (c->sh->hvs & (1u << h))
					hv[nh++] = h;
			c->hv = i < NFIXED ? fixed_hv[i] : hv[rng_int(&f->r, nh)];
			c->site = c->hv == 3 ? CLOUD_SITE : owned_sites[i < NFIXED ? 0 : rng_int(&f->r, f->nsites)];
			for (h = 0, dup = 0; h < i; h++)
				if (cl[h].sh == c->sh && cl[h].hv == c->hv && cl[h].site == c->site)
					dup = 1;
		} while (dup && i >= NFIXED && ++tries < 50);
		/* the bench scenarios plan on the nominal memory (gpu_memory: nominal, write_scenario) */
		c->mem_mib = catalog_find(f->cat, c->sh->gpu)->nominal_mib;
		/* rented shapes offer more than needed: they are the expensive reserve */
		c->weight = (1.0 + 3.0 * rng_unit(&f->r)) * (c->sh->hourly > 0 ? 0.5 : 1.0);
	}
}

/* GPUs per class by weight, in whole nodes; the remainder goes to the 1-GPU class. */
static void share_gpus(struct gclass *cl, int ncl, long gpus)
{
	double sum = 0;
	long gpus_left;
	int i;

	for (i = 0; i < ncl; i++)
		sum += cl[i].weight;
	gpus_left = gpus;
	for (i = 0; i < ncl; i++) {
		double g = (double)gpus * cl[i].weight / sum;
		cl[i].nodes = (long)floor(g / cl[i].sh->gpn);
		if (cl[i].nodes < 1)
			cl[i].nodes = 1;
		gpus_left -= cl[i].nodes * cl[i].sh->gpn;
	}
	while (gpus_left < 0) { /* only at tiny sizes: take nodes from the largest class */
		int big = 0;
		for (i = 1; i < ncl; i++)
			if (cl[i].nodes * cl[i].sh->gpn > cl[big].nodes * cl[big].sh->gpn)
				big = i;
		cl[big].nodes--;
		gpus_left += cl[big].sh->gpn;
	}
	/* whole nodes for the classes furthest below their share, then 1-GPU nodes */
	while (gpus_left > 0) {
		int best = -1;
		double bd = 0;
		for (i = 0; i < ncl; i++) {
			double def = (double)gpus * cl[i].weight / sum - (double)(cl[i].nodes * cl[i].sh->gpn);
			if (cl[i].sh->gpn <= gpus_left && cl[i].sh->gpn > 1 && (best < 0 || def > bd)) {
				best = i;
				bd = def;
			}
		}
		if (best < 0 || bd <= 0)
			break;
		cl[best].nodes++;
		gpus_left -= cl[best].sh->gpn;
	}
	cl[SHAPE_REMAINDER].nodes += gpus_left;
}

/* Shares total replicas among the workloads with (whole) or without GPUs by weight. */
static void share_group(struct gwork *wk, int nw, int whole, long total)
{
	double *wt = xcalloc((size_t)nw + 1, sizeof(*wt));
	long *share = xcalloc((size_t)nw + 1, sizeof(*share));
	size_t n = 0, j;
	int i;

	for (i = 0; i < nw; i++)
		if (!wk[i].gpus == !whole)
			wt[n++] = wk[i].weight;
	share_out(total, n, wt, share);
	for (i = 0, j = 0; i < nw; i++)
		if (!wk[i].gpus == !whole)
			wk[i].replicas = share[j++];
	free(wt);
	free(share);
}

/* Replicas: fractional and whole-GPU groups sized to meet the load. */
static void share_replicas(struct gfleet *f, double load)
{
	const struct gen_spec *sp = f->sp;
	struct gwork *wk = f->wk;
	double sum_f = 0, sum_w = 0, e_f = 0, e_w = 0, x;
	size_t nf = 0, nwh = 0;
	long r_w;
	int i;

	for (i = 0; i < f->nw; i++) {
		if (wk[i].gpus) {
			sum_w += wk[i].weight;
			e_w += wk[i].weight * work_equiv(&wk[i]);
			nwh++;
		} else {
			sum_f += wk[i].weight;
			e_f += wk[i].weight * work_equiv(&wk[i]);
			nf++;
		}
	}
	e_f = sum_f > 0 ? e_f / sum_f : 0;
	e_w = sum_w > 0 ? e_w / sum_w : 1;
	x = ((double)sp->gpus * (load > 0 ? load : sp->load) / (double)sp->replicas - e_f) / (e_w - e_f);
	x = fmin(0.6, fmax(0.0, x));
	r_w = lround(x * (double)sp->replicas);
	if (r_w < (long)nwh)
		r_w = (long)nwh;
	if (!nf)
		r_w = sp->replicas;
	share_group(wk, f->nw, 1, r_w);
	share_group(wk, f->nw, 0, sp->replicas - r_w);
}

static void write_inventory(struct sb *inv, const struct gfleet *f, unsigned long long seed, struct gen_out *out)
{
	int i;

	sb_addf(inv, "# Synthetic fleet: gpuplan bench gen --size %s --seed %llu (%d node classes).\n", f->sp->name,
		seed, f->ncl);
	sb_adds(inv, "# Owned nodes: cpu_cores, ram_gib and base_power_w are illustrative assumptions.\n"
		     "# Rented nodes: AWS instance shapes (vCPU, GiB) with their on-demand USD/hour from the\n"
		     "# skypilot-org/skypilot-catalog catalogs/v7/aws/vms.csv @001367d2 (snapshot date unconfirmed).\n");
	sb_adds(inv, "name,count,gpu_type,gpus_per_node,hypervisor,site,cpu_cores,ram_gib,ownership,capex_usd,"
		     "amortization_years,hourly_usd,base_power_w\n");
	for (i = 0; i < f->ncl; i++) {
		const struct gclass *c = &f->cl[i];
		sb_addf(inv, "c%02d-%s-%s-%s,%ld,%s,%d,%s,%s,", i, c->sh->tag, hv_names[c->hv], c->site, c->nodes,
			c->sh->gpu, c->sh->gpn, hv_names[c->hv], c->site);
		add_num(inv, c->sh->cpu);
		sb_adds(inv, ",");
		add_num(inv, c->sh->ram);
		if (c->sh->hourly > 0) {
			sb_adds(inv, ",rent,,,");
			add_num(inv, c->sh->hourly);
			sb_adds(inv, ",\n");
		} else {
			sb_adds(inv, ",owned,,,,");
			add_num(inv, c->sh->base_w);
			sb_adds(inv, "\n");
		}
		out->gpus += c->nodes * c->sh->gpn;
	}
}

static void write_workloads(struct sb *wl, const struct gfleet *f, unsigned long long seed, struct gen_out *out)
{
	int i;

	sb_addf(wl, "# Synthetic workloads: gpuplan bench gen --size %s --seed %llu (%d workloads).\n", f->sp->name,
		seed, f->nw);
	sb_adds(wl, "name,tenant,replicas,gpus,gpu_mem_gib,compute,isolation,vm,cpu_cores,ram_gib,gpu_types,modes,"
		    "sites,needs_nvaie,priority\n");
	for (i = 0; i < f->nw; i++) {
		const struct gwork *w = &f->wk[i];
		char tenant[32];
		if (w->tenant_no)
			snprintf(tenant, sizeof(tenant), "%s%d", w->tenant, w->tenant_no + 1);
		else
			snprintf(tenant, sizeof(tenant), "%s", w->tenant);
		sb_addf(wl, "w%03d-%s-%s,%s,%ld,%d,", i, kind_tag[w->kind], tenant, tenant, w->replicas, w->gpus);
		if (w->mem > 0)
			add_num(wl, w->mem);
		sb_adds(wl, ",");
		if (!w->gpus)
			add_num(wl, w->compute);
		sb_addf(wl, ",%s,%s,", w->iso, w->vm ? "true" : "false");
		add_num(wl, w->cpu);
		sb_adds(wl, ",");
		add_num(wl, w->ram);
		sb_addf(wl, ",%s,%s,%s,%s,%d\n", w->types ? w->types : "", w->modes ? w->modes : "",
			w->site ? w->site : "", w->nvaie ? "true" : "false", w->priority);
		out->replicas += w->replicas;
		out->gpu_equiv += (double)w->replicas * work_equiv(w);
	}
}

static void write_scenario(struct sb *sc, const struct gen_spec *sp, unsigned long long seed)
{
	sb_addf(sc, "# Synthetic benchmark scenario: gpuplan bench gen --size %s --seed %llu\n", sp->name, seed);
	sb_adds(sc, "schema: gpuplan-scenario/1\n");
	sb_addf(sc, "name: bench-%s-s%llu\n", sp->name, seed);
	sb_adds(sc, "inventory: inventory.csv\nworkloads: workloads.csv\nhorizon_years: 3\n");
	/* the seeds' recorded results (docs/benchmarks.md, the solver's unit tests) were measured on it */
	sb_adds(sc, "gpu_memory: nominal   # data-sheet GPU memory, as the recorded bench results used\n");
	sb_addf(sc, "solver: {time_limit_s: %d, gap_pct: 0.01}\n", (int)sp->time_limit_s);
	sb_adds(sc, "sharing: {timeslice_max_replicas: 8, mps_max_clients: 8}\n"
		    "energy:\n"
		    "  usd_per_kwh: 0.12             # illustrative assumption, not a quoted tariff\n"
		    "  pue: 1.4                      # illustrative assumption\n"
		    "  gpu_load_factor: 0.6          # illustrative assumption\n");
}

int gen_generate(enum gen_size size, unsigned long long seed, double load, const struct catalog *cat,
		 struct gen_out *out, struct diag *d)
{
	const struct gen_spec *sp = &specs[size];
	struct gfleet f;
	struct sb inv, wl, sc;
	int i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < (int)NSHAPES; i++)
		if (!catalog_find(cat, shapes[i].gpu))
			return diag_set(d, DIAG_INPUT, NULL, 0, 0,
					"the GPU catalog has no type '%s', which the generator uses", shapes[i].gpu);
	memset(&f, 0, sizeof(f));
	f.sp = sp;
	f.cat = cat;
	f.r.s = seed * 0x2545F4914F6CDD1DULL + (unsigned long long)size;
	f.ncl = sp->classes;
	f.nw = sp->workloads;
	f.nsites = size == GEN_S ? 2 : 3;
	f.ntenants = size == GEN_S ? 4 : size == GEN_M ? 8 : size == GEN_L ? 16 : 24;

	f.cl = xcalloc((size_t)f.ncl, sizeof(*f.cl));
	draw_classes(&f);
	share_gpus(f.cl, f.ncl, sp->gpus);
	f.wk = xcalloc((size_t)f.nw, sizeof(*f.wk));
	for (i = 0; i < f.nw; i++) {
		int tries = 0;
		do
			draw_work(&f.r, &f.wk[i], f.cl, f.ncl, f.ntenants, &menus[sp->replicas >= 2 * sp->gpus]);
		while (!hostable(f.cl, f.ncl, &f.wk[i], cat) && ++tries < 100);
	}
	share_replicas(&f, load);

	sb_init(&inv);
	sb_init(&wl);
	sb_init(&sc);
	write_inventory(&inv, &f, seed, out);
	write_workloads(&wl, &f, seed, out);
	write_scenario(&sc, sp, seed);
	out->inventory = sb_detach(&inv);
	out->workloads = sb_detach(&wl);
	out->scenario = sb_detach(&sc);
	out->classes = f.ncl;
	out->nworkloads = f.nw;
	free(f.cl);
	free(f.wk);
	return 0;
}

void gen_out_release(struct gen_out *out)
{
	free(out->inventory);
	free(out->workloads);
	free(out->scenario);
	memset(out, 0, sizeof(*out));
}
