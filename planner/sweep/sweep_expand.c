/*
 * sweep_expand.c - the derived scenarios of a sweep's case: each option
 * loaded and changed by the case's values as sweep run does (sweep_apply),
 * then written back as files that plan the same: the scenario through
 * libyaml's emitter, the workloads with the case's replicas, the
 * inventory with its prices, and the licence model with its prices.  A
 * file the case does not change is named where it is, by a path relative
 * to the case's directory.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csvdoc.h"
#include "dyaml.h"
#include "sweep_files.h"
#include "sweep_inputs.h"
#include "ydoc.h"
#include "banned.h"

/* What the case changes, per parameter (NAN: nothing). */
struct expand {
	double v[SP_COUNT];
	char *case_real;	/* the case directory, absolute */
	char **used;		/* the file names taken in the case's directory */
	size_t nused;
	struct outset *os;
};

/* The relative path from directory `from` (absolute, no trailing '/') to the absolute path `to`. */
static char *relative(const char *from, const char *to)
{
	size_t i = 0, common = 0;
	struct sb sb;

	while (from[i] && from[i] == to[i]) {
		i++;
		if (from[i] == '/' && to[i] == '/')
			common = i;
	}
	if (!from[i] && to[i] == '/')
		common = i;
	sb_init(&sb);
	for (i = common; from[i]; i++)
		if (from[i] == '/')
			sb_adds(&sb, "../");
	sb_adds(&sb, to[common] == '/' ? to + common + 1 : to + common);
	return sb_detach(&sb);
}

/* Takes a name in the case's directory: name, or name with "-2" ... */
static char *take_name(struct expand *x, const char *base)
{
	char *n = sweep_unique_name(base, x->used, x->nused);
	x->used = xrealloc(x->used, (x->nused + 1) * sizeof(*x->used));
	x->used[x->nused++] = xstrdup(n);
	return n;
}

static void num_text(struct sb *sb, double v)
{
	char b[400];
	sb_adds(sb, dyaml_num_text(b, sizeof(b), v));
}

/* ================= the CSV files ================= */

/* The workloads file again, each row's replicas the case's (sc's, changed); other fields as read. */
static int workloads_csv(const struct scenario *sc, struct sb *out, struct diag *d)
{
	struct csvdoc doc = CSVDOC_INIT;
	size_t r, f;
	long col = -1;

	if (csvdoc_load(&doc, sc->workloads_path, d))
		return -1;
	for (f = 0; f < doc.header.n; f++)
		if (!str_casecmp(doc.header.f[f], "replicas"))
			col = (long)f;
	if (col < 0 || doc.nrows != sc->workloads.n) {
		csvdoc_release(&doc);
		return diag_set(d, DIAG_IO, sc->workloads_path, 0, 0, "cannot match its rows to the workloads read");
	}
	for (r = 0; r <= doc.nrows; r++) {
		const struct csvrow *row = r ? &doc.rows[r - 1] : &doc.header;
		for (f = 0; f < row->n; f++) {
			if (f)
				sb_adds(out, ",");
			if (r && (long)f == col)
				sb_addf(out, "%ld", sc->workloads.w[r - 1].replicas);
			else
				sb_add_csv(out, row->f[f]);
		}
		sb_adds(out, "\n");
	}
	csvdoc_release(&doc);
	return 0;
}

/*
 * The inventory from the classes read, every column written out; a row
 * from a cloud offer keeps it unless the case changes cloud prices (its
 * price is then the row's own hourly_usd).
 */
static void inventory_csv(const struct scenario *sc, int price_changed, struct sb *out)
{
	struct sb names;	/* a class's node names, as one cell */
	size_t k, j;

	sb_adds(out, "name,count,gpu_type,gpus_per_node,hypervisor,site,cpu_cores,ram_gib,ownership,capex_usd,"
		     "amortization_years,hourly_usd,base_power_w,offer,nvaie_bundle_years,nodes,k8s_workers\n");
	for (k = 0; k < sc->inventory.n; k++) {
		const struct node_class *nc = &sc->inventory.classes[k];
		int offer = nc->offer && !price_changed;
		sb_add_csv(out, nc->name);
		sb_addf(out, ",%ld,", nc->count);
		sb_add_csv(out, nc->gpu->id);
		sb_addf(out, ",%d,%s,", nc->gpus_per_node, hypervisor_name(nc->hv));
		sb_add_csv(out, nc->site);
		sb_adds(out, ",");
		num_text(out, nc->cpu_cores);
		sb_adds(out, ",");
		num_text(out, nc->ram_gib);
		sb_addf(out, ",%s,", ownership_name(nc->own));
		if (nc->own == OWN_BUY) {
			num_text(out, nc->capex_usd);
			sb_adds(out, ",");
			num_text(out, nc->amortization_years);
		} else {
			sb_adds(out, ",");
		}
		sb_adds(out, ",");
		if (nc->own == OWN_RENT && !offer)
			num_text(out, nc->hourly_usd);
		sb_adds(out, ",");
		num_text(out, nc->base_power_w);
		sb_adds(out, ",");
		sb_add_csv(out, offer ? nc->offer->id : "");
		if (nc->bundle_years >= 0)
			sb_addf(out, ",%d,", nc->bundle_years);
		else
			sb_adds(out, ",,");
		sb_init(&names);
		for (j = 0; j < nc->nnodes; j++)
			sb_addf(&names, "%s%s", j ? "|" : "", nc->nodes[j]);
		sb_add_csv(out, names.buf);
		sb_release(&names);
		sb_addf(out, ",%s\n", nc->k8s_vgpu ? "vgpu" : "host");
	}
}

/* ================= the licence model ================= */

/* gpus.yaml and clouds.yaml copied, licenses.yaml with every price times f, into the case's directory. */
static int models_files(struct expand *x, const struct scenario *sc, double f, struct diag *d)
{
	static const char *const copies[] = { "gpus.yaml", "clouds.yaml" };
	struct dyaml_edit e[2];
	struct ydoc doc = YDOC_INIT;
	struct dyaml y;
	char *text, b[128];
	size_t len, i;
	int err;

	for (i = 0; i < 2; i++) {
		char *p = xasprintf("%s/%s", sc->models_dir, copies[i]);
		err = file_read_all(p, YDOC_MAX_BYTES, &text, &len);
		if (err) {
			diag_set(d, DIAG_IO, p, 0, 0, "%s", file_read_strerror(b, sizeof(b), err, YDOC_MAX_BYTES));
			free(p);
			return -1;
		}
		outset_add(x->os, copies[i], text, len);
		free(p);
	}
	if (ydoc_load(&doc, sc->licenses.file, d))
		return -1;
	memset(e, 0, sizeof(e));
	e[0].path = "products.terms.usd_per_gpu";
	e[1].path = "products.terms.usd_per_gpu_hour";
	e[0].scale = e[1].scale = f;
	dyaml_begin(&y);
	dyaml_tree(&y, doc.root, e, 2);
	ydoc_release(&doc);
	if (dyaml_finish(&y, &text, &len))
		return diag_set(d, DIAG_IO, sc->licenses.file, 0, 0, "cannot write it again (libyaml's emitter failed)");
	outset_add(x->os, "licenses.yaml", text, len);
	return 0;
}

/* ================= one option ================= */

/* How the derived scenario names a file: the case's own, or the original relative to the case. */
struct namer {
	const struct expand *x;
	const struct scenario *sc;
	char *workloads, *inventory;	/* the derived files' names, or NULL */
};

static char *name_file(void *ctx, const char *path)
{
	const struct namer *n = ctx;
	char *real, *rel;

	if (path == n->sc->models_dir && !isnan(n->x->v[SP_LICENSE_PRICE_SCALE]))
		return xstrdup(".");
	if (path == n->sc->workloads_path && n->workloads)
		return xstrdup(n->workloads);
	if (path == n->sc->inventory_path && n->inventory)
		return xstrdup(n->inventory);
	real = sweep_real_path(path);
	if (!real)
		return xstrdup(path);
	rel = relative(n->x->case_real, real);
	free(real);
	return rel;
}

/* The base name of an option's file without .yaml or .yml. */
static char *stem_of(const char *file)
{
	const char *b = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
	size_t n = strlen(b);
	if (n > 5 && !strcmp(b + n - 5, ".yaml"))
		n -= 5;
	else if (n > 4 && !strcmp(b + n - 4, ".yml"))
		n -= 4;
	return xstrndup(b, n);
}

static int expand_option(struct expand *x, const struct scenario *sc, const char *case_name, struct diag *d)
{
	char *stem = stem_of(sc->file), *tmp, *yaml, *text, *name;
	struct namer nm = { x, sc, NULL, NULL };
	struct dyaml_edit e[6];
	struct sweep_rewrite rw = { name_file, NULL, !isnan(x->v[SP_LICENSE_PRICE_SCALE]), e, 0 };
	size_t ne = 0, len;
	struct sb sb;
	int rc = -1;

	tmp = xasprintf("%s.yaml", stem);
	yaml = take_name(x, tmp);
	free(tmp);
	memset(e, 0, sizeof(e));
	name = xasprintf("%s %s", sc->name, case_name);
	e[ne].path = "name";
	e[ne++].text = name;
	if (!isnan(x->v[SP_HORIZON_YEARS])) {
		e[ne].path = "horizon_years";
		e[ne++].num = sc->horizon_years;
	}
	if (!isnan(x->v[SP_ENERGY_USD_PER_KWH])) {
		e[ne].path = "energy.usd_per_kwh";
		e[ne++].num = sc->energy_usd_per_kwh;
	}
	if (!isnan(x->v[SP_LICENSE_PRICE_SCALE])) {
		static const char *const own[] = { "licensing.nvaie_usd_per_gpu_year", "licensing.vcs_usd_per_gpu_year",
						   "licensing.support_usd_per_gpu_year" };
		size_t k;
		for (k = 0; k < 3; k++) {
			e[ne].path = own[k];
			e[ne++].scale = x->v[SP_LICENSE_PRICE_SCALE];
		}
	}
	sb_init(&sb);
	if (!isnan(x->v[SP_DEMAND_SCALE]) || !isnan(x->v[SP_DEMAND_GROWTH])) {
		tmp = xasprintf("%s.workloads.csv", stem);
		nm.workloads = take_name(x, tmp);
		free(tmp);
		if (workloads_csv(sc, &sb, d))
			goto out;
		outset_add_sb(x->os, nm.workloads, &sb);
	}
	if (!isnan(x->v[SP_CAPEX_SCALE]) || !isnan(x->v[SP_CLOUD_PRICE_SCALE])) {
		tmp = xasprintf("%s.inventory.csv", stem);
		nm.inventory = take_name(x, tmp);
		free(tmp);
		inventory_csv(sc, !isnan(x->v[SP_CLOUD_PRICE_SCALE]), &sb);
		outset_add_sb(x->os, nm.inventory, &sb);
	}
	rw.ctx = &nm;
	rw.nextra = ne;
	if (sweep_scenario_yaml(sc, &rw, &text, &len, d))
		goto out;
	outset_add(x->os, yaml, text, len);
	rc = 0;
out:
	sb_release(&sb);
	free(nm.workloads);
	free(nm.inventory);
	free(name);
	free(yaml);
	free(stem);
	return rc;
}

int sweep_expand_case(struct outset *os, const struct sweep_spec *s, size_t i, const char *cases_dir,
		      const char *models_dir, struct diag *d)
{
	double *values = xcalloc(s->nparams + 1, sizeof(*values));
	char *real = sweep_real_path(cases_dir), *case_name = sweep_case_name(s, i), *models = NULL;
	struct expand x;
	size_t k, o;
	int rc = 0;

	memset(&x, 0, sizeof(x));
	x.os = os;
	for (k = 0; k < SP_COUNT; k++)
		x.v[k] = NAN;
	sweep_case_values(s, i, values);
	for (k = 0; k < s->nparams; k++)
		x.v[s->params[k].id] = values[k];
	if (!real) {
		rc = diag_set(d, DIAG_IO, cases_dir, 0, 0, "cannot find the directory");
		goto out;
	}
	x.case_real = xasprintf("%s/%s", real, case_name);
	for (k = 0; k < 3; k++) {	/* the models' names stay free for them */
		static const char *const m[] = { "gpus.yaml", "licenses.yaml", "clouds.yaml" };
		free(take_name(&x, m[k]));
	}
	for (o = 0; o < s->noptions && !rc; o++) {
		struct scenario sc;
		if (scenario_load(&sc, s->options[o], models_dir, d)) {
			rc = -1;
			break;
		}
		rc = sweep_apply(&sc, s, values, d);
		if (!rc && !isnan(x.v[SP_LICENSE_PRICE_SCALE])) {	/* one models directory: the case's */
			char *mr = sweep_real_path(sc.models_dir);
			if (!models)
				rc = models_files(&x, &sc, x.v[SP_LICENSE_PRICE_SCALE], d);
			else if (!mr || strcmp(mr, models))
				rc = diag_set(d, DIAG_INPUT, sc.file, 0, 0,
					      "its models (%s) are not those of the other options: expanding "
					      "license_price_scale needs one models directory", sc.models_dir);
			if (!models)
				models = mr;
			else
				free(mr);
		}
		if (!rc)
			rc = expand_option(&x, &sc, case_name, d);
		scenario_release(&sc);
	}
out:
	for (k = 0; k < x.nused; k++)
		free(x.used[k]);
	free(x.used);
	free(x.case_real);
	free(models);
	free(real);
	free(case_name);
	free(values);
	return rc ? -1 : 0;
}
