/*
 * catalog.c - the GPU catalog: modes, look-ups by name, release.
 *
 * input/catalog_load.c fills it from gpus.yaml-format files.
 */
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "util.h"
#include "banned.h"

const char *const mode_names[] = { "passthrough", "vgpu", "mig-vgpu", "mig", "timeslice", "mps", NULL };

const char *mode_name(enum gpu_mode m)
{
	return (unsigned)m < MODE_COUNT ? mode_names[m] : "?";
}

int mode_parse(const char *s)
{
	int m;
	for (m = 0; m < MODE_COUNT; m++)
		if (!str_casecmp(s, mode_names[m]))
			return m;
	return -1;
}

void gpu_type_release(struct gpu_type *g)
{
	size_t i;
	free(g->id);
	for (i = 0; i < g->naliases; i++)
		free(g->aliases[i]);
	free(g->aliases);
	free(g->memory_source);
	free(g->memory_driver);
	free(g->sms_source);
	for (i = 0; i < g->mig.nprofiles; i++) {
		free(g->mig.profiles[i].name);
		free(g->mig.profiles[i].assumed_rule);
	}
	free(g->mig.profiles);
	for (i = 0; i < g->mig.nreads; i++) {
		free(g->mig.reads[i].driver);
		free(g->mig.reads[i].source);
	}
	for (i = 0; i < g->vgpu.nprofiles; i++)
		free(g->vgpu.profiles[i].name);
	free(g->vgpu.profiles);
	for (i = 0; i < g->vgpu.nmig; i++) {
		free(g->vgpu.mig_backed[i].name);
		free(g->vgpu.mig_backed[i].gi_profile);
	}
	free(g->vgpu.mig_backed);
	free(g->file);
}

void catalog_release(struct catalog *cat)
{
	size_t i;
	for (i = 0; i < cat->n; i++)
		gpu_type_release(&cat->gpus[i]);
	free(cat->gpus);
	cat->gpus = NULL;
	cat->n = cat->cap = 0;
	for (i = 0; i < cat->nmulti; i++) {
		free(cat->multi[i].hypervisor);
		free(cat->multi[i].release);
		free(cat->multi[i].source);
	}
	free(cat->multi);
	cat->multi = NULL;
	cat->nmulti = 0;
}

const struct multi_vgpu *catalog_multi_vgpu(const struct catalog *cat, const char *hv)
{
	size_t i;
	for (i = cat->nmulti; i-- > 0;)
		if (!strcmp(cat->multi[i].hypervisor, hv))
			return &cat->multi[i];
	return NULL;
}

int catalog_full_vgpu(const struct gpu_type *gpu)
{
	size_t i;
	if (!gpu->has_vgpu)
		return -1;
	for (i = 0; i < gpu->vgpu.nprofiles; i++)
		if (gpu->vgpu.profiles[i].max_equal == 1)
			return (int)i;
	return -1;
}

const struct gpu_type *catalog_find(const struct catalog *cat, const char *name)
{
	size_t i, j;
	for (i = 0; i < cat->n; i++) {
		const struct gpu_type *g = &cat->gpus[i];
		if (g->id && !str_casecmp(g->id, name))
			return g;
		for (j = 0; j < g->naliases; j++)
			if (!str_casecmp(g->aliases[j], name))
				return g;
	}
	return NULL;
}

/* Token k (0-based) of a '-'-separated GPU name into buf, upper-cased; 0 when there is none. */
static int name_token(const char *name, int k, char *buf, size_t n)
{
	size_t len;

	for (; k > 0 && name; k--) {
		name = strchr(name, '-');
		if (name)
			name++;
	}
	if (!name || !*name)
		return 0;
	len = strcspn(name, "-");
	if (len >= n)
		len = n - 1;
	for (n = 0; n < len; n++)
		buf[n] = (char)(name[n] >= 'a' && name[n] <= 'z' ? name[n] - 'a' + 'A' : name[n]);
	buf[len] = '\0';
	return 1;
}

/* True when token a begins token b, or is b with two neighbouring characters swapped ("SMX5", "SXM5"). */
static int token_like(const char *a, const char *b)
{
	size_t n = strlen(a), i;

	if (!strncmp(a, b, n))
		return 1;
	if (n != strlen(b))
		return 0;
	for (i = 0; a[i] == b[i]; i++)
		;
	return i + 1 < n && a[i] == b[i + 1] && a[i + 1] == b[i] && !strcmp(a + i + 2, b + i + 2);
}

/*
 * How a GPU name s the catalog lacks resembles name by its '-'-separated
 * tokens: 1 when every token of s begins a token of name, in order, or
 * is one with two characters swapped ("H100-80GB", "H100-SXM-80GB" or
 * "H100-SMX5-80GB", "H100-SXM5-80GB": the form or its generation left
 * out, a typo), 2
 * when only the family, the first token, is the same ("H100-40GB",
 * "H100-NVL-94GB"), -1 otherwise.
 */
static int token_rank(const char *s, const char *name)
{
	char a[64], b[64], f[64];
	int i, j = 0;

	if (!name_token(s, 0, a, sizeof(a)) || !name_token(name, 0, f, sizeof(f)) || strcmp(a, f))
		return -1;
	for (i = 1; name_token(s, i, a, sizeof(a)); i++) {
		for (j++; name_token(name, j, b, sizeof(b)) && !token_like(a, b); j++)
			;
		if (!name_token(name, j, b, sizeof(b)))
			return 2;
	}
	return 1;
}

/*
 * A name's rank for s: str_nearness's prefix (0) and contains (1), the
 * tokens of token_rank (1), one edit (2), the family of token_rank (3),
 * then more edits (3 + edits): the family before names merely a few
 * edits away, so that "H100-40GB" suggests the H100s, not GH200-96GB
 * (alias H100-96GB, 2 edits).
 */
static int suggest_rank(const char *s, const char *name)
{
	int r = str_nearness(s, name), t = token_rank(s, name);

	if (r >= 4)
		r++;
	else if (r == 3)
		r = 2;
	if (t == 2)
		t = 3;
	return t >= 0 && (r < 0 || t < r) ? t : r;
}

size_t catalog_suggest(const struct catalog *cat, const char *name, const char **out)
{
	int *rank = xcalloc(cat->n + 1, sizeof(*rank));
	size_t i, j, near, idx[HINT_MAX];

	for (i = 0; i < cat->n; i++) {
		const struct gpu_type *g = &cat->gpus[i];
		rank[i] = suggest_rank(name, g->id);
		for (j = 0; j < g->naliases; j++) {
			int r = suggest_rank(name, g->aliases[j]);
			if (r >= 0 && (rank[i] < 0 || r < rank[i]))
				rank[i] = r;
		}
	}
	near = hint_pick(rank, cat->n, idx);
	for (i = 0; i < near && i < HINT_MAX; i++)
		out[i] = cat->gpus[idx[i]].id;
	free(rank);
	return near;
}

char *catalog_hint(const struct catalog *cat, const char *name)
{
	const char *near[HINT_MAX];
	return str_hint_text(near, catalog_suggest(cat, name, near));
}

int catalog_mig_profile(const struct gpu_type *gpu, const char *name)
{
	size_t i;
	for (i = 0; i < gpu->mig.nprofiles; i++)
		if (!strcmp(gpu->mig.profiles[i].name, name))
			return (int)i;
	return -1;
}

long mig_name_nominal_mib(const char *name)
{
	const char *s = strchr(name, '.');
	long gb = 0;

	if (!s || !(s[1] >= '0' && s[1] <= '9'))
		return 0;
	for (s++; *s >= '0' && *s <= '9'; s++) {
		if (gb > 1000000)
			return 0;
		gb = gb * 10 + (*s - '0');
	}
	if ((s[0] != 'g' && s[0] != 'G') || (s[1] != 'b' && s[1] != 'B'))
		return 0;
	return gb * 1024;
}

char *catalog_mig_starts(const struct mig_profile *p)
{
	struct sb sb;
	int i;

	sb_init(&sb);
	sb_adds(&sb, "{");
	for (i = 0; i < p->nstarts; i++)
		sb_addf(&sb, "%s%d", i ? "," : "", p->starts[i]);
	sb_adds(&sb, "}");
	return sb_detach(&sb);
}

long driver_branch(const char *version)
{
	long b = 0;
	const char *s = version;

	if (!s || !(*s >= '0' && *s <= '9'))
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (b > 100000)
			return -1;
		b = b * 10 + (*s - '0');
	}
	return *s == '\0' || *s == '.' ? b : -1;
}

/* The read of p to plan with: see catalog_pick_mig_reads. */
static int pick_read(const struct gpu_type *g, const struct mig_profile *p, long branch)
{
	int best = -1;
	size_t r;

	for (r = 0; r < g->mig.nreads && branch >= 0; r++)
		if (p->read_mib[r] && driver_branch(g->mig.reads[r].driver) == branch &&
		    (best < 0 || p->read_mib[r] < p->read_mib[best]))
			best = (int)r;
	if (best >= 0)
		return best;
	for (r = 0; r < g->mig.nreads; r++)
		if (p->read_mib[r] && (best < 0 || p->read_mib[r] < p->read_mib[best]))
			best = (int)r;
	return best;
}

void catalog_pick_mig_reads(struct catalog *cat, const char *driver)
{
	long branch = driver ? driver_branch(driver) : -1;
	size_t i, j;

	for (i = 0; i < cat->n; i++) {
		struct gpu_type *g = &cat->gpus[i];
		for (j = 0; j < g->mig.nprofiles; j++) {
			struct mig_profile *p = &g->mig.profiles[j];
			int r = pick_read(g, p, branch);
			if (r < 0)
				continue;
			p->read_used = r;
			p->memory_mib = p->read_mib[r];
		}
	}
}

int mig_profile_nfigures(const struct gpu_type *g, const struct mig_profile *p)
{
	size_t r, q;
	int n = 0;

	for (r = 0; r < g->mig.nreads; r++) {
		if (!p->read_mib[r])
			continue;
		for (q = 0; q < r; q++)
			if (p->read_mib[q] == p->read_mib[r])
				break;
		n += q == r;
	}
	return n;
}
