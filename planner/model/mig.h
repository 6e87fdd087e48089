/*
 * mig.h - MIG geometries: which GPU-instance profiles fit on one GPU
 * together, and where.
 *
 * The model (docs/formulation.md, "MIG geometry rules"): a GPU has C compute slices
 * and M memory slices (7 and 8 on A100/H100/H200/B200, 4 and 4 on A30, 4
 * and 12 on RTX PRO 6000 Blackwell).
 * An instance of profile P placed at start s occupies the memory slices
 * [s, s + P.memory_slices); s must be one of P.starts.  A set of
 * instances is valid when no two occupy the same memory slice, the sum
 * of their compute slices is at most C, there are at most
 * gpu->mig.max_instances of them, at most P.max_instances of each
 * profile P, and at most one media-extension (+me) instance.
 *
 * A geometry is the multiset of profiles of a valid set, with one
 * canonical placement.  Its instances are sorted largest first: compute
 * slices descending, then memory slices descending, then profile index
 * ascending.  The canonical placement places them in that order, each at
 * the lowest allowed start that lets the rest be placed (depth-first,
 * lowest start first), e.g. 4g.40gb+3g.40gb on a 7/8 GPU is 4g at 0 and
 * 3g at 4.
 *
 * Everything here works on the catalog's gpu_type and never prints.
 * Returned arrays and strings belong to the caller (free()).
 */
#ifndef PLANNER_MIG_H
#define PLANNER_MIG_H

#include <stddef.h>

#include "catalog.h"

#define MIG_MAX_INSTANCES 8

struct mig_geometry {
	int n;				/* instances */
	int profile[MIG_MAX_INSTANCES];	/* index into gpu->mig.profiles, largest first (see above) */
	int start[MIG_MAX_INSTANCES];	/* start memory slice of each instance (canonical placement) */
};

/*
 * Every valid MAXIMAL geometry of gpu, built from its non-+me profiles
 * only: a geometry to which no further instance of any non-+me profile
 * can be added in any placement (the whole multiset may be re-placed).
 * Distinct multisets only, each with its canonical placement.  The list
 * is sorted lexicographically on the instance lists, comparing instances
 * largest first (so "7g..." comes first and "1g.10gb*7" last; a proper
 * prefix sorts before the longer list).  Stores a new array in *out
 * (caller frees with free()) and its length in *n.  Returns 0, or -1
 * with *out = NULL and *n = 0 if gpu has no MIG.
 */
int mig_geometries(const struct gpu_type *gpu, struct mig_geometry **out, size_t *n);

/*
 * Every valid non-empty geometry of gpu, maximal or not (same rules, same
 * order, non-+me profiles only), for tests and the planner's dominance
 * checks.  Same ownership and return value as mig_geometries.
 */
int mig_geometries_all(const struct gpu_type *gpu, struct mig_geometry **out, size_t *n);

/*
 * The geometry's name: its profiles in the geometry's order joined by
 * '+', a run of the same profile written NAME*COUNT, e.g.
 * "4g.40gb+3g.40gb", "1g.10gb*7", "3g.40gb+2g.20gb+1g.10gb*2".  An empty
 * geometry is "".  Caller frees.
 */
char *mig_geometry_name(const struct gpu_type *gpu, const struct mig_geometry *g);

/*
 * Parses a geometry name as written by mig_geometry_name, in any order
 * ("1g.10gb+4g.40gb" is accepted and sorted).  Profile names are
 * case-sensitive as in the catalog; the longest profile name that matches
 * wins, so "1g.10gb+me" is the +me profile.  +me profiles are accepted
 * (at most one instance), unlike in the lists above.  On success fills
 * *out (sorted, canonical placement) and returns 0.  Otherwise returns -1
 * and, if why is not NULL, sets *why to a reason the caller frees: a
 * syntax error, an unknown profile (with a did-you-mean hint), a broken
 * limit ("3 x 3g.40gb > max 2", "compute slices 8 > 7") or no placement
 * on the memory slices.
 */
int mig_geometry_parse(const struct gpu_type *gpu, const char *name, struct mig_geometry *out,
		       char **why);

/*
 * Independent check of a concrete layout (for the plan verifier): n
 * instances, instance i of profile index profile[i] at memory slice
 * start[i], in any order.  +me profiles are allowed (at most one per
 * GPU).  Returns 0 if the layout is valid; otherwise -1 and, if why is
 * not NULL, sets *why (caller frees) to the first problem found, checked
 * in this order: no MIG, bad instance count or profile index, a start
 * not allowed ("start 1 not allowed for 3g.40gb (starts {0,4})"), an
 * overlap ("1g.10gb at slice 3 overlaps 4g.40gb at 0"), a per-profile
 * maximum ("3 x 3g.40gb > max 2"), "more than one +me instance", the
 * GPU's instance maximum ("8 instances > max 7"), the compute budget
 * ("compute slices 8 > 7").  An empty layout (n = 0) is valid.
 */
int mig_layout_check(const struct gpu_type *gpu, int n, const int *profile, const int *start,
		     char **why);

/*
 * The share of one whole GPU of gpu that an instance of profile p
 * computes with: p->sms / gpu->sms (the SMs nvidia-smi mig -lgip prints
 * for the profile over the GPU's full SM count outside MIG mode, so an
 * A100's 7g.40gb is 98/108) when both are known, else the slice fraction
 * p->compute_slices / gpu->mig.compute_slices (the nominal 1/7).
 */
double mig_profile_share(const struct gpu_type *gpu, const struct mig_profile *p);

/* True when mig_profile_share(gpu, p) comes from SM counts, false when it is the slice fraction. */
int mig_profile_share_from_sms(const struct gpu_type *gpu, const struct mig_profile *p);

#endif
