/*
 * sim_common.h - the simulator's shared constants and number format, used by
 * the run, the strategy pricing and the output files alike.
 */
#ifndef PLANNER_SIM_COMMON_H
#define PLANNER_SIM_COMMON_H

#include "util.h"

#define SIM_EPS 1e-9

/* USD with 2 decimals, in a buffer that lives to the end of the enclosing block. */
#define SIM_MONEY(v) fmt_fixed((char[64]){ 0 }, 64, (v), 2)

#endif
