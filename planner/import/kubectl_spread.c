/*
 * kubectl_spread.c - the resilience rules of `import kubectl` (see
 * kube.h): a pod's topology spread and anti-affinity, and the
 * PodDisruptionBudgets of `kubectl get pdb -A -o json`.
 *
 * Formats, Kubernetes API (k8s.io/api v0.31, Kubernetes 1.31):
 * - core/v1 PodSpec.topologySpreadConstraints[]: TopologySpreadConstraint
 *   {maxSkew int32 > 0, topologyKey, whenUnsatisfiable DoNotSchedule |
 *   ScheduleAnyway, labelSelector, minDomains int32 > 0 (only with
 *   DoNotSchedule), matchLabelKeys, nodeAffinityPolicy, nodeTaintsPolicy}.
 * - core/v1 PodSpec.affinity.podAntiAffinity
 *   .requiredDuringSchedulingIgnoredDuringExecution[]: PodAffinityTerm
 *   {labelSelector, namespaces, namespaceSelector, topologyKey}.
 * - policy/v1 PodDisruptionBudget.spec {minAvailable | maxUnavailable
 *   (IntOrString: a count or "N%"), selector}; in policy/v1 a null
 *   selector selects no pod and an empty one every pod of the namespace
 *   (policy/v1beta1 differed, and is served no more since 1.25).
 * - meta/v1 LabelSelector {matchLabels, matchExpressions[{key, operator
 *   In | NotIn | Exists | DoesNotExist, values}]}, the terms ANDed.
 *
 * A rule counts for a workload only when its selector selects the pod
 * itself (a spread over other pods does not spread this one).  The keys
 * gpuplan plans are kubernetes.io/hostname (node) and
 * topology.kubernetes.io/zone (site).  A required anti-affinity against
 * its own pods puts at most one per domain: that is a DoNotSchedule
 * spread with maxSkew 1 and minDomains = replicas (while fewer domains
 * than minDomains are eligible the global minimum counts as 0, so no
 * domain takes a second replica), which is how the row is written.
 */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kube.h"
#include "util.h"
#include "banned.h"

#define KEY_NODE "kubernetes.io/hostname"
#define KEY_ZONE "topology.kubernetes.io/zone"

static const char *const k_tsc[] = { "spec", "topologySpreadConstraints", NULL };
static const char *const k_anti[] = { "spec", "affinity", "podAntiAffinity",
				      "requiredDuringSchedulingIgnoredDuringExecution", NULL };

/* One matchExpressions requirement against the labels. */
static int requirement_match(const cJSON *req, const cJSON *labels)
{
	const char *key = kjson_str(req, "key"), *op = kjson_str(req, "operator");
	const char *have = key ? kjson_str(labels, key) : NULL;
	const cJSON *v;
	int in = 0;

	if (!key || !op)
		return 0;
	if (!strcmp(op, "Exists"))
		return have != NULL;
	if (!strcmp(op, "DoesNotExist"))
		return have == NULL;
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(req, "values"))
		if (have && cJSON_IsString(v) && !strcmp(v->valuestring, have))
			in = 1;
	if (!strcmp(op, "In"))
		return in;
	if (!strcmp(op, "NotIn"))
		return !in;
	return 0;	/* an operator meta/v1 does not have: the API server refuses it, so nothing matches */
}

int kselector_match(const cJSON *sel, const cJSON *labels)
{
	const cJSON *v;

	if (!cJSON_IsObject(sel))
		return 0;
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(sel, "matchLabels")) {
		const char *have = kjson_str(labels, v->string);
		if (!cJSON_IsString(v) || !have || strcmp(have, v->valuestring))
			return 0;
	}
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(sel, "matchExpressions"))
		if (!requirement_match(v, labels))
			return 0;
	return 1;
}

/* The domain of a topologyKey: 1 node, 2 site, 0 one gpuplan does not plan. */
static int topology_key(const char *key)
{
	if (key && !strcmp(key, KEY_NODE))
		return 1;
	if (key && !strcmp(key, KEY_ZONE))
		return 2;
	return 0;
}

/* How strong a rule is, to keep the strongest: a hard rule, then the wider domain, then one per domain. */
static int spread_rank(const struct kspread *s)
{
	return s->key ? 1 + (!s->anyway) * 4 + (s->key == 2) * 2 + s->anti : 0;
}

/* Keeps s when it outranks what *best holds; counts the rule left out. */
static void spread_pick(struct kspread *best, const struct kspread *s, long *dropped)
{
	if (best->key)
		++*dropped;
	if (spread_rank(s) > spread_rank(best))
		*best = *s;
}

/* A positive int32 field of a constraint; 0 when absent (with absent_ok), -1 with d set. */
static int positive_field(const struct kitem *it, const cJSON *c, const char *name, int absent_ok, int *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, name);

	*out = 0;
	if (!v && absent_ok)
		return 0;
	if (!cJSON_IsNumber(v) || v->valuedouble != (double)(long)v->valuedouble || v->valuedouble < 1 ||
	    v->valuedouble > 1000000)
		return kitem_error(it, k_tsc, "topologySpreadConstraints: %s must be a whole number in 1..1000000 "
					      "(core/v1 TopologySpreadConstraint)", name);
	*out = (int)v->valuedouble;
	return 0;
}

/* One topologySpreadConstraint into s (s->key 0: not one that spreads this pod over a planned domain). */
static int read_constraint(const struct kitem *it, const cJSON *c, const cJSON *labels, struct kspread *s)
{
	const char *when = kjson_str(c, "whenUnsatisfiable");

	memset(s, 0, sizeof(*s));
	if (positive_field(it, c, "maxSkew", 0, &s->max_skew) || positive_field(it, c, "minDomains", 1, &s->min_domains))
		return -1;
	if (!when || (strcmp(when, "DoNotSchedule") && strcmp(when, "ScheduleAnyway")))
		return kitem_error(it, k_tsc, "topologySpreadConstraints: whenUnsatisfiable '%s' (expected "
					      "DoNotSchedule or ScheduleAnyway)", when ? when : "");
	s->anyway = !strcmp(when, "ScheduleAnyway");
	if (s->anyway && s->min_domains)
		return kitem_error(it, k_tsc, "topologySpreadConstraints: minDomains needs whenUnsatisfiable "
					      "DoNotSchedule");
	if (kselector_match(cJSON_GetObjectItemCaseSensitive(c, "labelSelector"), labels))
		s->key = topology_key(kjson_str(c, "topologyKey"));
	return 0;
}

/* Whether a PodAffinityTerm applies to the pod's own namespace ns. */
static int term_in_namespace(const cJSON *term, const char *ns)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(term, "namespaces"), *v;

	if (cJSON_GetObjectItemCaseSensitive(term, "namespaceSelector"))
		return 0;	/* other namespaces' pods: not this workload's own spread */
	if (!cJSON_GetArraySize(list))
		return 1;	/* null or empty: the pod's namespace */
	cJSON_ArrayForEach(v, list)
		if (cJSON_IsString(v) && !strcmp(v->valuestring, ns))
			return 1;
	return 0;
}

int kspread_read(const struct kitem *it, const char *ns, struct kspread *out, long *dropped)
{
	const cJSON *labels = kjson_path(it->obj, (const char *const[]){ "metadata", "labels", NULL });
	const cJSON *c;
	struct kspread s;

	memset(out, 0, sizeof(*out));
	cJSON_ArrayForEach(c, kjson_path(it->obj, k_tsc)) {
		if (read_constraint(it, c, labels, &s))
			return -1;
		if (s.key)
			spread_pick(out, &s, dropped);
		else
			++*dropped;
	}
	cJSON_ArrayForEach(c, kjson_path(it->obj, k_anti)) {
		memset(&s, 0, sizeof(s));
		if (!term_in_namespace(c, ns) ||
		    !kselector_match(cJSON_GetObjectItemCaseSensitive(c, "labelSelector"), labels) ||
		    !(s.key = topology_key(kjson_str(c, "topologyKey")))) {
			++*dropped;
			continue;
		}
		s.max_skew = 1;
		s.anti = 1;
		spread_pick(out, &s, dropped);
	}
	return 0;
}

/* ---- PodDisruptionBudgets ---- */

/* minAvailable or maxUnavailable: a count >= 0 or a whole percent "N%" in 0..100. */
static int pdb_value(const struct kitem *it, const cJSON *v, const char *field, struct kpdb *p)
{
	const char *const keys[] = { "spec", field, NULL };
	long long x;

	if (cJSON_IsNumber(v)) {
		if (v->valuedouble != (double)(long long)v->valuedouble || v->valuedouble < 0 || v->valuedouble > 1e6)
			return kitem_error(it, keys, "spec.%s: %g is not a count in 0..1000000", field, v->valuedouble);
		p->value = (long)v->valuedouble;
		return 0;
	}
	if (cJSON_IsString(v)) {
		size_t n = strlen(v->valuestring);
		char *num = n ? xstrndup(v->valuestring, n - 1) : NULL;
		int bad = !n || v->valuestring[n - 1] != '%' || !*num || !strchr("0123456789", num[0]) ||
			  parse_llong(num, &x) || x < 0 || x > 100;
		free(num);
		if (bad)
			return kitem_error(it, keys, "spec.%s: '%s' is not a count or a whole percent (2 or 50%%)", field,
					   v->valuestring);
		p->value = (long)x;
		p->percent = 1;
		return 0;
	}
	return kitem_error(it, keys, "spec.%s must be a count or a percent string (policy/v1 IntOrString)", field);
}

/* One item of the PDB list. */
static int read_pdb(const struct kitem *it, struct kpdb *p)
{
	static const char *const k_api[] = { "apiVersion", NULL }, *const k_spec[] = { "spec", NULL };
	const char *api = kjson_str(it->obj, "apiVersion");
	const cJSON *md = cJSON_GetObjectItemCaseSensitive(it->obj, "metadata");
	const cJSON *spec = cJSON_GetObjectItemCaseSensitive(it->obj, "spec");
	const cJSON *mn = cJSON_GetObjectItemCaseSensitive(spec, "minAvailable");
	const cJSON *mx = cJSON_GetObjectItemCaseSensitive(spec, "maxUnavailable");

	memset(p, 0, sizeof(*p));
	if (api && strcmp(api, "policy/v1"))
		return kitem_error(it, k_api, "apiVersion '%s': expected policy/v1 (its selector rules differ from "
					      "policy/v1beta1's)", api);
	p->name = kjson_str(md, "name");
	if (!p->name)
		return kitem_error(it, (const char *const[]){ "metadata", "name", NULL }, "items[%ld] has no metadata.name",
				   it->index);
	p->ns = kjson_str(md, "namespace") ? kjson_str(md, "namespace") : "default";
	if ((mn != NULL) == (mx != NULL))
		return kitem_error(it, k_spec, "PodDisruptionBudget '%s': give spec.minAvailable or spec.maxUnavailable "
					       "(one of them)", p->name);
	p->max = mx != NULL;
	p->selector = cJSON_GetObjectItemCaseSensitive(spec, "selector");
	if (cJSON_IsNull(p->selector))
		p->selector = NULL;
	return pdb_value(it, mx ? mx : mn, mx ? "maxUnavailable" : "minAvailable", p);
}

int kpdbs_read(const struct kjson *j, struct kpdb **out, size_t *n, struct diag *d)
{
	struct kitem it = { j, NULL, 0, d };
	struct kpdb *v = xcalloc((size_t)j->nitems + 1, sizeof(*v));
	long *lines = kjson_item_lines(j);

	cJSON_ArrayForEach(it.obj, j->items) {
		if (read_pdb(&it, &v[it.index])) {
			free(lines);
			free(v);
			return -1;
		}
		v[it.index].line = lines[it.index];
		it.index++;
	}
	free(lines);
	*out = v;
	*n = (size_t)j->nitems;
	return 0;
}

int kpdb_of(const struct kjson *j, const struct kpdb *v, size_t n, const struct kpod *p, struct diag *d)
{
	size_t i;
	int found = -1;

	for (i = 0; i < n; i++) {
		if (strcmp(v[i].ns, p->ns) || !kselector_match(v[i].selector, p->labels))
			continue;
		if (found >= 0) {
			diag_set(d, DIAG_INPUT, j->file, v[i].line, 0,
				 "PodDisruptionBudgets '%s' and '%s' both select pod '%s' (namespace %s): the eviction "
				 "API refuses to evict a pod with more than one", v[found].name, v[i].name, p->name, p->ns);
			return -2;
		}
		found = (int)i;
	}
	return found;
}
