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
	for (i = 0; i < g->mig.nprofiles; i++) {
		free(g->mig.profiles[i].name);
		free(g->mig.profiles[i].assumed_rule);
	}
	free(g->mig.profiles);
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

static int ascii_lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c;
}

/* True when needle occurs in hay, ASCII case-insensitively. */
static int contains_nocase(const char *hay, const char *needle)
{
	size_t n = strlen(needle), i;

	for (; *hay; hay++) {
		/* A NUL in hay mismatches, so this stops at its end. */
		for (i = 0; i < n; i++)
			if (ascii_lower((unsigned char)hay[i]) != ascii_lower((unsigned char)needle[i]))
				break;
		if (i == n)
			return 1;
	}
	return 0;
}

/*
 * Two rules, in this order:
 *  1. A name of 3 or more characters found (case-insensitively) inside the
 *     id or an alias of exactly one type suggests that type: "H100X" is the
 *     start of alias H100XM of H100-SXM5-80GB, "SXM5" is inside its id.
 *     When it is inside names of several types ("H100", "NVL", "80GB") it
 *     is ambiguous and nothing is suggested, since any pick would be a
 *     guess and the caller's message already points at the full list.
 *  2. Otherwise the nearest id or alias by did_you_mean (at most 1 edit up
 *     to 4 characters, 2 up to 8, 3 beyond; a tie goes to the first type in
 *     catalog order, its id before its aliases).
 * Either way the answer is the type's id, never an alias.
 */
const char *catalog_suggest(const struct catalog *cat, const char *name)
{
	const struct gpu_type *found = NULL;
	const char **names;
	const char *hint, *ret = NULL;
	size_t i, j, k = 0, total = 0;

	if (strlen(name) >= 3) {
		for (i = 0; i < cat->n; i++) {
			const struct gpu_type *g = &cat->gpus[i];
			int hit = contains_nocase(g->id, name);
			for (j = 0; j < g->naliases && !hit; j++)
				hit = contains_nocase(g->aliases[j], name);
			if (!hit)
				continue;
			if (found)
				return NULL;
			found = g;
		}
		if (found)
			return found->id;
	}
	for (i = 0; i < cat->n; i++)
		total += 1 + cat->gpus[i].naliases;
	names = xcalloc(total + 1, sizeof(*names));
	for (i = 0; i < cat->n; i++) {
		names[k++] = cat->gpus[i].id;
		for (j = 0; j < cat->gpus[i].naliases; j++)
			names[k++] = cat->gpus[i].aliases[j];
	}
	hint = did_you_mean(name, names);
	if (hint) {
		const struct gpu_type *g = catalog_find(cat, hint);
		ret = g ? g->id : NULL;
	}
	free(names);
	return ret;
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
