/*
 * sweep_k8s.c - a sweep as a Kubernetes Indexed Job: a ConfigMap of its
 * inputs under flat keys (ConfigMap keys have no '/'), the spec and the
 * scenarios rewritten to name those keys, and the Job whose pods run one
 * shard each (docs/sweep.md, "On a scheduler").
 */
#include <stdlib.h>
#include <string.h>

#include "dyaml.h"
#include "sweep_files.h"
#include "sweep_inputs.h"
#include "ydoc.h"
#include "banned.h"

#define SPEC_DIR "/sweep/spec"	/* where the ConfigMap is mounted */
#define OUT_DIR "/sweep/out"	/* where the claim is mounted */
#define NAME_MAX_LEN 40		/* the Job's name: its pods' host names add "-INDEX" and must stay a DNS label */

/* The ConfigMap's entries, in the order added. */
struct kinputs {
	size_t n;
	char **real;		/* the file's real path (NULL: a rewritten file) */
	char **key;
	char **data;
	size_t *len;
	int failed;		/* a file could not be read: d is set */
	struct diag *d;
};

static size_t add_entry(struct kinputs *in, char *real, const char *base, char *data, size_t len)
{
	char *k = xstrdup(base), *p;
	size_t i = in->n++;

	for (p = k; *p; p++)	/* a ConfigMap key: [-._a-zA-Z0-9]+ */
		if (!strchr("-._", *p) && !((*p | 32) >= 'a' && (*p | 32) <= 'z') && !(*p >= '0' && *p <= '9'))
			*p = '-';
	in->real = xrealloc(in->real, in->n * sizeof(*in->real));
	in->key = xrealloc(in->key, in->n * sizeof(*in->key));
	in->data = xrealloc(in->data, in->n * sizeof(*in->data));
	in->len = xrealloc(in->len, in->n * sizeof(*in->len));
	in->key[i] = sweep_unique_name(k, in->key, i);
	in->real[i] = real;
	in->data[i] = data;
	in->len[i] = len;
	free(k);
	return i;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* The key of the file at path, its bytes read on first use (sweep_namer); NULL after an error (in->d set). */
static char *key_of(void *ctx, const char *path)
{
	struct kinputs *in = ctx;
	char *real = sweep_real_path(path), *data = NULL, b[128];
	size_t i, len = 0;
	int err;

	for (i = 0; real && i < in->n; i++)
		if (in->real[i] && !strcmp(in->real[i], real)) {
			free(real);
			return xstrdup(in->key[i]);
		}
	if (!real || (err = file_read_all(real, YDOC_MAX_BYTES, &data, &len)) != 0) {
		if (!in->failed)
			diag_set(in->d, DIAG_IO, path, 0, 0, "%s",
				 real ? file_read_strerror(b, sizeof(b), err, YDOC_MAX_BYTES) : "cannot open");
		in->failed = 1;
		free(real);
		return xstrdup("");
	}
	i = add_entry(in, real, base_name(path), data, len);	/* (it moves in->key) */
	return xstrdup(in->key[i]);
}

/* A scenario's namer: its models "." when they travel with the inputs (dropped else), any other file's key. */
struct scen_namer {
	struct kinputs *in;
	const char *models_dir;	/* the scenario's (compared by address) */
	int models;		/* the models travel */
};

static char *scen_name(void *ctx, const char *path)
{
	struct scen_namer *sn = ctx;
	if (path == sn->models_dir)
		return sn->models ? xstrdup(".") : NULL;
	return key_of(sn->in, path);
}

/* True when dir is the models directory gpuplan finds by itself (the image's own). */
static int default_models(const char *dir)
{
	char *a = sweep_real_path(dir), *b = sweep_real_path(models_dir_or_default(NULL));
	int same = a && b && !strcmp(a, b);
	free(a);
	free(b);
	return same;
}

/* Adds models/{gpus,licenses,clouds}.yaml under their own names (first, so that they keep them). */
static void add_models(struct kinputs *in, const char *dir)
{
	static const char *const files[] = { "gpus.yaml", "licenses.yaml", "clouds.yaml" };
	size_t f;
	for (f = 0; f < 3; f++) {
		char *p = xasprintf("%s/%s", dir, files[f]);
		free(key_of(in, p));
		free(p);
	}
}

/*
 * Loads option o and adds it (rewritten) and its files; models_dir_key:
 * the models directory that travels (NULL: the image's own), set by the
 * first option whose models are not gpuplan's own.  The option's key, or
 * NULL after an error.
 */
static char *add_option(struct kinputs *in, const char *file, const char *models_arg, char **models_travel,
			struct diag *d)
{
	struct scenario sc;
	struct scen_namer sn;
	struct sweep_rewrite rw = { 0 };
	char *text = NULL, *key = NULL;
	size_t len = 0;

	if (scenario_load(&sc, file, models_arg, d))
		return NULL;
	sn.in = in;
	sn.models_dir = sc.models_dir;
	sn.models = !default_models(sc.models_dir);
	if (sn.models && !*models_travel) {
		*models_travel = sweep_real_path(sc.models_dir);
		add_models(in, sc.models_dir);
	} else if (sn.models) {
		char *r = sweep_real_path(sc.models_dir);
		if (!r || strcmp(r, *models_travel))
			diag_set(d, DIAG_INPUT, file, 0, 0,
				 "its models (%s) are not those of the other options (%s): one ConfigMap holds one "
				 "models directory", sc.models_dir, *models_travel);
		free(r);
		if (d->kind)
			goto out;
	}
	rw.namer = scen_name;
	rw.ctx = &sn;
	rw.want_models = sn.models;
	if (sweep_scenario_yaml(&sc, &rw, &text, &len, d) == 0 && !in->failed) {
		size_t i = add_entry(in, NULL, base_name(file), text, len);
		key = xstrdup(in->key[i]);
	} else {
		free(text);
	}
out:
	scenario_release(&sc);
	return key;
}

/* The spec again, its options named by their keys; added to in. The spec's key, or NULL (d set). */
static char *add_spec(struct kinputs *in, const struct sweep_spec *s, char **opt_keys, struct diag *d)
{
	struct ydoc doc = YDOC_INIT;
	struct dyaml_edit e;
	struct dyaml y;
	char *text;
	size_t len, i;

	if (ydoc_load(&doc, s->file, d))
		return NULL;
	memset(&e, 0, sizeof(e));
	e.path = "options";
	e.list = (const char *const *)opt_keys;
	e.nlist = s->noptions;
	dyaml_begin(&y);
	dyaml_tree(&y, doc.root, &e, 1);
	ydoc_release(&doc);
	if (dyaml_finish(&y, &text, &len)) {
		diag_set(d, DIAG_IO, s->file, 0, 0, "cannot write the spec again (libyaml's emitter failed)");
		return NULL;
	}
	i = add_entry(in, NULL, base_name(s->file), text, len);
	return xstrdup(in->key[i]);
}

/* The Job's name: gpuplan-sweep-NAME as a DNS label, at most NAME_MAX_LEN characters. */
static char *job_name(const char *name)
{
	char *j = xasprintf("gpuplan-sweep-%s", name), *p;
	size_t n;

	for (p = j; *p; p++) {
		*p = (char)((*p >= 'A' && *p <= 'Z') ? *p + 32 : *p);
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
			*p = '-';
	}
	n = strlen(j) > NAME_MAX_LEN ? NAME_MAX_LEN : strlen(j);
	while (n > 0 && j[n - 1] == '-')
		n--;
	j[n] = '\0';
	return j;
}

static void emit_configmap(struct dyaml *y, const struct kinputs *in, const char *name)
{
	size_t i;

	dyaml_k8s_head(y, "v1", "ConfigMap", name);
	dyaml_end(y, 0);
	dyaml_str(y, "data");
	dyaml_map(y, 0);
	for (i = 0; i < in->n; i++) {
		dyaml_str(y, in->key[i]);
		dyaml_lit(y, in->data[i]);
	}
	dyaml_end(y, 0);
	dyaml_end(y, 0);
}

/* The pod template's one container. */
static void emit_container(struct dyaml *y, const struct sweep_k8s *k, const char *spec_key)
{
	char *spec = xasprintf(SPEC_DIR "/%s", spec_key), *shards = xasprintf("%ld", k->shards);
	const char *cmd[] = { "gpuplan", "sweep", "run", spec, "-o", OUT_DIR, "--shards", shards };
	size_t i;

	dyaml_map(y, 0);
	dyaml_kv(y, "name", "sweep");
	dyaml_kv(y, "image", k->image);
	dyaml_str(y, "command");
	dyaml_seq(y, 1);
	for (i = 0; i < sizeof(cmd) / sizeof(cmd[0]); i++)
		dyaml_str(y, cmd[i]);
	dyaml_end(y, 1);
	dyaml_str(y, "resources");
	dyaml_map(y, 0);
	dyaml_str(y, "requests");
	dyaml_map(y, 0);
	dyaml_kv(y, "cpu", "1");
	dyaml_kv(y, "memory", "512Mi");
	dyaml_end(y, 0);
	dyaml_str(y, "limits");
	dyaml_map(y, 0);
	dyaml_kv(y, "memory", "1Gi");
	dyaml_end(y, 0);
	dyaml_end(y, 0);
	dyaml_str(y, "volumeMounts");
	dyaml_seq(y, 0);
	dyaml_map(y, 0);
	dyaml_kv(y, "name", "spec");
	dyaml_kv(y, "mountPath", SPEC_DIR);
	dyaml_str(y, "readOnly");
	dyaml_bool(y, 1);
	dyaml_end(y, 0);
	dyaml_map(y, 0);
	dyaml_kv(y, "name", "out");
	dyaml_kv(y, "mountPath", OUT_DIR);
	dyaml_end(y, 0);
	dyaml_end(y, 1);
	dyaml_end(y, 0);
	free(spec);
	free(shards);
}

/* A volume: {name: NAME, SOURCE: {KEY: VALUE}}. */
static void volume(struct dyaml *y, const char *name, const char *source, const char *key, const char *value)
{
	dyaml_map(y, 0);
	dyaml_kv(y, "name", name);
	dyaml_str(y, source);
	dyaml_map(y, 0);
	dyaml_kv(y, key, value);
	dyaml_end(y, 0);
	dyaml_end(y, 0);
}

static void emit_volumes(struct dyaml *y, const char *cm, const char *claim)
{
	dyaml_str(y, "volumes");
	dyaml_seq(y, 0);
	volume(y, "spec", "configMap", "name", cm);
	volume(y, "out", "persistentVolumeClaim", "claimName", claim);
	dyaml_end(y, 1);
}

static void labels(struct dyaml *y, const char *job)
{
	dyaml_str(y, "labels");
	dyaml_map(y, 0);
	dyaml_kv(y, "app.kubernetes.io/name", "gpuplan-sweep");
	dyaml_kv(y, "app.kubernetes.io/instance", job);
	dyaml_end(y, 0);
}

static void emit_job(struct dyaml *y, const struct sweep_k8s *k, const char *job, const char *cm, const char *spec_key)
{
	dyaml_k8s_head(y, "batch/v1", "Job", job);
	labels(y, job);
	dyaml_end(y, 0);
	dyaml_str(y, "spec");
	dyaml_map(y, 0);
	dyaml_kv(y, "completionMode", "Indexed");
	dyaml_ki(y, "completions", k->shards);
	dyaml_ki(y, "parallelism", k->parallelism);
	dyaml_ki(y, "backoffLimit", 2 * k->shards);
	dyaml_str(y, "template");
	dyaml_map(y, 0);
	dyaml_str(y, "metadata");
	dyaml_map(y, 0);
	labels(y, job);
	dyaml_end(y, 0);
	dyaml_str(y, "spec");
	dyaml_map(y, 0);
	dyaml_kv(y, "restartPolicy", "Never");
	dyaml_str(y, "containers");
	dyaml_seq(y, 0);
	emit_container(y, k, spec_key);
	dyaml_end(y, 1);
	emit_volumes(y, cm, k->claim);
	dyaml_end(y, 0);
	dyaml_end(y, 0);
	dyaml_end(y, 0);
	dyaml_end(y, 0);
}

static void kinputs_release(struct kinputs *in)
{
	size_t i;
	for (i = 0; i < in->n; i++) {
		free(in->real[i]);
		free(in->key[i]);
		free(in->data[i]);
	}
	free(in->real);
	free(in->key);
	free(in->data);
	free(in->len);
}

int sweep_k8s_manifest(const struct sweep_spec *s, const struct sweep_k8s *k, const char *models_dir, char **text,
		       size_t *len, struct diag *d)
{
	struct kinputs in;
	char **opt = xcalloc(s->noptions + 1, sizeof(*opt)), *models = NULL, *spec = NULL;
	char *job = job_name(s->name), *cm = xasprintf("%s-inputs", job);
	size_t o, total = 0;
	struct dyaml y;
	int rc = -1;

	memset(&in, 0, sizeof(in));
	in.d = d;
	for (o = 0; o < s->noptions; o++)
		if (!(opt[o] = add_option(&in, s->options[o], models_dir, &models, d)) || in.failed)
			goto out;
	if (!(spec = add_spec(&in, s, opt, d)))
		goto out;
	for (o = 0; o < in.n; o++)
		total += in.len[o] + strlen(in.key[o]);
	if (total > (size_t)SWEEP_K8S_MAX_INPUT) {
		diag_set(d, DIAG_INPUT, s->file, 0, 0,
			 "its inputs are %zu bytes, more than a ConfigMap holds (%ld): put them on a volume instead "
			 "(docs/sweep.md)", total, SWEEP_K8S_MAX_INPUT);
		goto out;
	}
	dyaml_begin(&y);
	emit_configmap(&y, &in, cm);
	dyaml_next_doc(&y);
	emit_job(&y, k, job, cm, spec);
	if (dyaml_finish(&y, text, len))
		diag_set(d, DIAG_IO, s->file, 0, 0, "cannot write the manifest (libyaml's emitter failed)");
	else
		rc = 0;
out:
	for (o = 0; o < s->noptions; o++)
		free(opt[o]);
	free(opt);
	free(models);
	free(spec);
	free(job);
	free(cm);
	kinputs_release(&in);
	return rc;
}
