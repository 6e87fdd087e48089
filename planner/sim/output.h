/*
 * output.h - the simulator's timeseries.csv, one row per step, built
 * while the run steps (output.c; the other files are written from the
 * result by simulate_write).
 */
#ifndef PLANNER_SIM_OUTPUT_H
#define PLANNER_SIM_OUTPUT_H

#include <stddef.h>

#include "simulate.h"

/* One step's figures, as the timeseries shows them. */
struct sim_step_counts {
	size_t t;			/* the step */
	long demand, placed, unplaced;	/* replicas */
	int replanned;			/* the step was planned afresh */
	long nodes, gpus;		/* in use */
	long by_mode[MODE_COUNT];	/* GPUs in use per mode */
	long lic_gpus[LIC_COUNT];	/* GPUs carrying a per-GPU licence, per product */
	long seats[LIC_COUNT];		/* vGPU seats in use, per product */
	long held[LIC_COUNT];		/* seats held (in use + leased), per product */
	long licensed, seats_all, held_all;	/* the same summed over products */
	double hourly;			/* the step's licences at the hourly price */
};

/* Appends timeseries.csv's header line to sb. */
void sim_timeseries_header(struct sb *sb);

/* Appends step c->t's row to sb; r gives the trace's clock and the licences counted. */
void sim_timeseries_row(struct sb *sb, const struct sim_result *r, const struct sim_step_counts *c);

#endif
