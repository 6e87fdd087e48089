/*
 * report_num.c - how every report rounds money and numbers (report_docs.h):
 * a leaf, so that the plan's summary, its failure analysis and compare
 * share it without calling each other.
 */
#include <math.h>
#include <stddef.h>

#include "report_docs.h"
#include "util.h"
#include "banned.h"

const char *report_money(char *buf, size_t n, double v)
{
	return fmt_fixed(buf, n, round(v * 100.0) / 100.0, 2);
}

double report_round(double v, int decimals)
{
	double f = pow(10, decimals);
	double r = round(v * f) / f;
	return r == 0 ? 0 : r;
}
