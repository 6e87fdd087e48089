/*
 * dyaml.c - YAML documents through libyaml's emitter (see dyaml.h).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dyaml.h"
#include "banned.h"

static int out_handler(void *data, unsigned char *buf, size_t size)
{
	sb_addn(data, (const char *)buf, size);
	return 1;
}

static void emit(struct dyaml *y, yaml_event_t *ev, int ok)
{
	if (y->failed || !ok) {
		if (ok)
			yaml_event_delete(ev);
		y->failed = 1;
		return;
	}
	if (!yaml_emitter_emit(&y->em, ev))	/* the emitter frees ev either way */
		y->failed = 1;
}

void dyaml_begin(struct dyaml *y)
{
	yaml_event_t ev;

	memset(y, 0, sizeof(*y));
	sb_init(&y->out);
	if (!yaml_emitter_initialize(&y->em)) {
		y->failed = 1;
		return;
	}
	yaml_emitter_set_output(&y->em, out_handler, &y->out);
	yaml_emitter_set_unicode(&y->em, 1);
	yaml_emitter_set_width(&y->em, -1);	/* never fold a long line */
	yaml_emitter_set_indent(&y->em, 2);
	emit(y, &ev, yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING));
	emit(y, &ev, yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1));
}

void dyaml_map(struct dyaml *y, int flow)
{
	yaml_event_t ev;
	emit(y, &ev, yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
							 flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE));
}

void dyaml_seq(struct dyaml *y, int flow)
{
	yaml_event_t ev;
	emit(y, &ev, yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
							  flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE));
}

void dyaml_end(struct dyaml *y, int seq)
{
	yaml_event_t ev;
	if (seq)
		emit(y, &ev, yaml_sequence_end_event_initialize(&ev));
	else
		emit(y, &ev, yaml_mapping_end_event_initialize(&ev));
}

static void scalar(struct dyaml *y, const char *s, int plain, yaml_scalar_style_t style)
{
	yaml_event_t ev;
	emit(y, &ev, yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)(uintptr_t)s, (int)strlen(s),
						  plain, !plain, style));
}

/* True when a plain s would read as something other than a string (YAML 1.1 and 1.2 core). */
static int looks_typed(const char *s)
{
	static const char *const words[] = { "true", "false", "yes", "no", "on", "off", "y", "n",
					     "null", "~", NULL };
	size_t i, n = strlen(s);
	int digits = 0;

	if (!n)
		return 1;
	for (i = 0; words[i]; i++)
		if (!str_casecmp(s, words[i]))
			return 1;
	for (i = 0; i < n; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			digits++;
		else if (!strchr("+-.eE_xXoO:", s[i]) && !((s[i] | 32) >= 'a' && (s[i] | 32) <= 'f'))
			return 0;
	}
	return digits > 0 || !strcmp(s, ".inf") || !strcmp(s, ".nan");
}

void dyaml_str(struct dyaml *y, const char *s)
{
	if (looks_typed(s))
		scalar(y, s, 0, YAML_DOUBLE_QUOTED_SCALAR_STYLE);
	else
		scalar(y, s, 1, YAML_ANY_SCALAR_STYLE);
}

void dyaml_lit(struct dyaml *y, const char *s)
{
	scalar(y, s, 0, YAML_LITERAL_SCALAR_STYLE);
}

void dyaml_int(struct dyaml *y, long v)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%ld", v);
	scalar(y, buf, 1, YAML_PLAIN_SCALAR_STYLE);
}

void dyaml_bool(struct dyaml *y, int v)
{
	scalar(y, v ? "true" : "false", 1, YAML_PLAIN_SCALAR_STYLE);
}

void dyaml_kv(struct dyaml *y, const char *key, const char *v)
{
	dyaml_str(y, key);
	dyaml_str(y, v);
}

void dyaml_ki(struct dyaml *y, const char *key, long v)
{
	dyaml_str(y, key);
	dyaml_int(y, v);
}

void dyaml_k8s_head(struct dyaml *y, const char *api_version, const char *kind, const char *name)
{
	dyaml_map(y, 0);
	dyaml_kv(y, "apiVersion", api_version);
	dyaml_kv(y, "kind", kind);
	dyaml_str(y, "metadata");
	dyaml_map(y, 0);
	dyaml_kv(y, "name", name);
}

int dyaml_finish(struct dyaml *y, char **text, size_t *len)
{
	yaml_event_t ev;

	emit(y, &ev, yaml_document_end_event_initialize(&ev, 1));
	emit(y, &ev, yaml_stream_end_event_initialize(&ev));
	if (!y->failed && !yaml_emitter_flush(&y->em))
		y->failed = 1;
	yaml_emitter_delete(&y->em);
	if (y->failed) {
		sb_release(&y->out);
		*text = NULL;
		*len = 0;
		return -1;
	}
	*len = y->out.len;
	*text = sb_detach(&y->out);
	return 0;
}

void dyaml_scalar(struct dyaml *y, const char *s, int quoted)
{
	if (quoted)
		scalar(y, s, 0, YAML_DOUBLE_QUOTED_SCALAR_STYLE);
	else
		scalar(y, s, 1, YAML_ANY_SCALAR_STYLE);
}

void dyaml_next_doc(struct dyaml *y)
{
	yaml_event_t ev;
	emit(y, &ev, yaml_document_end_event_initialize(&ev, 1));
	emit(y, &ev, yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 0));
}

const char *dyaml_num_text(char *buf, size_t size, double v)
{
	int p;

	if (!buf || !size)	/* never: GCC 12 -O3 with UBSan warns of a null buf without it */
		return "";
	for (p = 0; p <= 17 && fabs(v) < 1e15; p++) {	/* the fewest decimals that read back as v */
		snprintf(buf, size, "%.*f", p, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, size, "%.17g", v);
	return buf;
}

void dyaml_num(struct dyaml *y, double v)
{
	char buf[400];
	scalar(y, dyaml_num_text(buf, sizeof(buf), v), 1, YAML_PLAIN_SCALAR_STYLE);
}
