/*
 * profiles.h - the views of `gpuplan profiles` as text: the GPU catalog,
 * one GPU's MIG profiles, its maximal MIG geometries, or its vGPU
 * profiles, each as an aligned table, CSV or JSON.
 *
 * Every view is built as data first (a grid of cells, or a cJSON tree)
 * and rendered in one place, so the three formats show the same rows in
 * the same order: catalog order for types and profiles, the order of
 * mig_geometries() for geometries.  Only integers and strings are
 * written, so the text does not depend on the locale.
 */
#ifndef PLANNER_PROFILES_H
#define PLANNER_PROFILES_H

#include "catalog.h"

enum profiles_format {
	PROFILES_TABLE,		/* aligned columns with an upper-case header (the default) */
	PROFILES_CSV,		/* RFC 4180, snake_case header */
	PROFILES_JSON,		/* one pretty-printed object */
};

enum profiles_view {
	PROFILES_TYPES,		/* every GPU type (no GPU given) */
	PROFILES_MIG,		/* the GPU's MIG GPU-instance profiles */
	PROFILES_GEOMETRIES,	/* the GPU's maximal MIG geometries */
	PROFILES_VGPU,		/* the GPU's vGPU profiles */
};

/*
 * The view v in format f, ending with a newline: of the whole catalog cat
 * for PROFILES_TYPES (gpu unused, may be NULL), else of gpu (cat unused).
 * A GPU without MIG or vGPU gets a one-line note in table format, an
 * empty list in CSV and null/false in JSON.  Returns a heap string the
 * caller frees, or NULL when the JSON cannot be formatted.
 */
char *profiles_render(const struct catalog *cat, const struct gpu_type *gpu, enum profiles_view v,
		      enum profiles_format f);

#endif
