/*
 * strategies.h - pricing the buying strategies over a simulated run
 * (strategies.c; the strategies are described in simulate.h).
 */
#ifndef PLANNER_SIM_STRATEGIES_H
#define PLANNER_SIM_STRATEGIES_H

#include "simulate.h"

/*
 * Prices every strategy from r's licence counts (units, peaks, years),
 * ranks them (cheapest, runner_up) and adds the break-even rows; sets
 * the mix base of each year.  Reads r->sc's licence terms.
 */
void sim_price_strategies(struct sim_result *r);

#endif
