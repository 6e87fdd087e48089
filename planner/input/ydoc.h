/*
 * ydoc.h - a YAML file read into a small tree that keeps positions.
 *
 * The loaders (catalog, scenario, licences) walk this tree instead of
 * libyaml's event stream, so that every error can name FILE:LINE:COL.
 * Accepted: one document of block or flow mappings, sequences and
 * scalars.  Rejected with a message: several documents, anchors and
 * aliases, tags, duplicate keys, non-scalar keys, nesting deeper than
 * YDOC_MAX_DEPTH, files larger than YDOC_MAX_BYTES, values longer than
 * YDOC_MAX_SCALAR, control characters but tab and newline in values,
 * UTF-16, an empty document.  A key with no value (null) is absent for an
 * optional field and "has no value" for a required one.
 *
 * Ownership: the ydoc owns every node and string; ydoc_release frees all.
 */
#ifndef PLANNER_YDOC_H
#define PLANNER_YDOC_H

#include <stddef.h>

#include "diag.h"
#include "util.h"

#define YDOC_MAX_DEPTH 64
#define YDOC_MAX_BYTES (16L * 1024 * 1024)
#define YDOC_MAX_SCALAR 4096	/* bytes in one value */

enum ynode_type { YN_SCALAR, YN_SEQ, YN_MAP };

struct ynode {
	enum ynode_type type;
	long line, col;		/* 1-based position of the node */
	char *scalar;		/* YN_SCALAR: the text */
	int quoted;		/* YN_SCALAR: written in quotes */
	size_t n;		/* YN_SEQ/YN_MAP: number of items */
	struct ynode **items;	/* YN_SEQ: items; YN_MAP: values */
	char **keys;		/* YN_MAP: keys */
	long *key_line, *key_col; /* YN_MAP: key positions */
};

struct ydoc {
	char *file;		/* path as given, used in messages */
	struct ynode *root;
};
#define YDOC_INIT { NULL, NULL }

/* Reads path; on failure fills d (DIAG_INPUT, or DIAG_IO if unreadable). */
int ydoc_load(struct ydoc *doc, const char *path, struct diag *d);
/* Parses a string (for tests); name is used in messages. */
int ydoc_parse(struct ydoc *doc, const char *name, const char *text, size_t len, struct diag *d);
void ydoc_release(struct ydoc *doc);

/*
 * Typed access with messages.  Every reader below returns 0 on success,
 * 1 when the key is absent and not required (out untouched), and -1 on
 * error with d filled; the checks return 0 or -1.  "what" names the mapping in messages, e.g.
 * "gpu 'A100'"; it may be NULL.
 */
const struct ynode *ymap_get(const struct ynode *map, const char *key);
/* Fails on a key not in the NULL-terminated allowed list (with a hint). */
int ymap_check_keys(const struct ydoc *doc, const struct ynode *map, const char *const *allowed,
		    const char *what, struct diag *d);
/* Fails unless node has the given type. */
int ynode_expect(const struct ydoc *doc, const struct ynode *node, enum ynode_type type,
		 const char *name, struct diag *d);
/*
 * Checks the root of a model or scenario file: a mapping (what names it in
 * messages) with only the allowed keys and a field 'schema' equal to
 * schema: "unsupported schema 'x' (this gpuplan reads gpuplan-gpus/1)".
 */
int ydoc_check_root(const struct ydoc *doc, const char *what, const char *const *allowed,
		    const char *schema, struct diag *d);

/*
 * A mapping being read field by field: what the typed readers below need
 * besides the key, in one place.
 */
struct yread {
	const struct ydoc *doc;
	const struct ynode *map;	/* the mapping read */
	struct diag *d;			/* filled on error */
};

int yread_str(const struct yread *y, const char *key, int required, const char **out);
/* A string that is not blank: "field 'name' is empty". */
int yread_nonblank(const struct yread *y, const char *key, int required, const char **out);
/*
 * A finite number in range (HUGE_VAL for no upper end).  Message:
 * "field 'pue': '0.9' must be in [1, 3]", "... must be greater than 0".
 */
int yread_num(const struct yread *y, const char *key, int required, struct num_range range, double *out);
/*
 * The relative optimality gap of a solver mapping, into *out as a
 * fraction: gap_pct, in percent as --gap PCT ([0, 100)), the one
 * documented unit; or mip_gap, a fraction ([0, 1), GLPK's unit), the
 * older key, still read as such.  Both given: "field 'mip_gap': give
 * gap_pct (percent) or mip_gap (a fraction), not both".  Keeps *out when
 * neither is there.
 */
int yread_gap(const struct yread *y, double *out);
/* An integer in [min, max] (LLONG_MAX: no upper end). */
int yread_int(const struct yread *y, const char *key, int required, long long min, long long max,
	      long long *out);
/* A calendar date YYYY-MM-DD that exists (date.h), as a day number. */
int yread_date(const struct yread *y, const char *key, int required, long long *days);
/*
 * The required field as_of of a price (a licence term, a cloud offer)
 * named name: "price 'p5' has no as_of date" when it is missing.
 */
int yread_price_date(const struct yread *y, const char *name, long long *days);
/* true/false (also yes/no). */
int yread_bool(const struct yread *y, const char *key, int required, int *out);
/* Error at a node's position. */
int ydoc_error(const struct ydoc *doc, const struct ynode *node, struct diag *d, const char *fmt,
	       ...) __attribute__((format(printf, 4, 5)));
/* Same, at the key of map entry i. */
int ydoc_key_error(const struct ydoc *doc, const struct ynode *map, size_t i, struct diag *d,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/*
 * "unknown WHAT 'S'" at node, with the hint str_hint (util.h) gives over
 * the NULL-terminated valid names: "unknown pricing 'spto' (did you mean
 * 'spot'?)".  Returns -1.
 */
int ydoc_unknown(const struct ydoc *doc, const struct ynode *node, struct diag *d, const char *what,
		 const char *s, const char *const *names);

#endif
