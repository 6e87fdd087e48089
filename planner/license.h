/*
 * license.h - the licence model (models/licenses.yaml).
 *
 * For now the planner needs one number: the price per licensed GPU per
 * year of the default product and term.  license_default_price reads it.
 */
#ifndef PLANNER_LICENSE_H
#define PLANNER_LICENSE_H

#include "diag.h"

/*
 * Reads <models_dir>/licenses.yaml and returns the default term's price
 * per GPU per year in *usd and a description ("nvaie subscription-1y,
 * models/licenses.yaml:24") in *source (caller frees).
 */
int license_default_price(const char *models_dir, double *usd, char **source, struct diag *d);

#endif
