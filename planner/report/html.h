/*
 * html.h - the pieces of report.html: an escaping writer for HTML and
 * inline SVG (svg.c), the page frame, tables and the two chart kinds
 * (html.c), public so that a higher layer draws its own page with them
 * (the sweep's, sweep/html_sweep.c).  Everything goes into a struct sb;
 * nothing touches the network, the clock or the locale, so the same data
 * give the same bytes.  Every string from the user (names of scenarios,
 * node classes, workloads, tenants) goes through html_esc.
 */
#ifndef PLANNER_REPORT_HTML_H
#define PLANNER_REPORT_HTML_H

#include <stddef.h>

#include "util.h"

/* ================= escaping and SVG (svg.c) ================= */

/* s with & < > " ' written as entities (text and attribute values alike). */
void html_esc(struct sb *sb, const char *s);
struct cJSON;
/* A member of a JSON object (cJSON): its number (0 when not one), its string ("" when not one). */
double html_jnum(const struct cJSON *o, const char *key);
const char *html_jstr(const struct cJSON *o, const char *key);
/* A coordinate or length: fixed, one decimal, locale-independent ("12.5"). */
void svg_num(struct sb *sb, double v);
/*
 * <svg> of w x h user units, scaled to the page width, with a <title>
 * (escaped) and role="img"; svg_close ends it.
 */
void svg_open(struct sb *sb, double w, double h, const char *title);
void svg_close(struct sb *sb);
/* A rectangle of CSS class cls, with a tooltip (<title>, escaped) when tip is not NULL. */
void svg_rect(struct sb *sb, const double box[4], const char *cls, const char *tip);
/* Text at (x, y); anchor "start", "middle" or "end"; cls may be NULL. */
void svg_text(struct sb *sb, double x, double y, const char *anchor, const char *cls, const char *text);
/*
 * Text at xy cut to at most max bytes (svg_fit); when cut, the whole
 * text is its tooltip (a <title> inside the <text>), so no name is lost.
 */
void svg_text_fit(struct sb *sb, const double xy[2], const char *anchor, const char *cls, const char *text, size_t max);
/* A straight line of class cls. */
void svg_line(struct sb *sb, double x1, double y1, double x2, double y2, const char *cls);
/* A polyline through n points xy[2i], xy[2i+1]. */
void svg_polyline(struct sb *sb, const double *xy, size_t n, const char *cls);
/* At most max bytes of s, not cutting a UTF-8 character, "..." at the end when cut; caller frees. */
char *svg_fit(const char *s, size_t max);
/* The largest of 1, 2, 2.5, 5 x 10^k not below v (an axis end); 1 for v <= 0. */
double svg_nice(double v);

/* ================= the page (html.c) ================= */

/* Workload colours: classes wc0 .. wc15 of the style sheet, for boxes (fill) and swatches (background). */
#define HTML_WORKLOAD_COLOURS 16

/* <!DOCTYPE html> ... <body><h1>: the style sheet inline, no script, no outside reference. */
void html_begin(struct sb *sb, const char *title);
void html_end(struct sb *sb);
/* <section id=ID><h2>TEXT</h2>; html_section_end closes it. */
void html_section(struct sb *sb, const char *id, const char *text);
void html_section_end(struct sb *sb);
/* <p>TEXT</p>, escaped. */
void html_p(struct sb *sb, const char *text);
/* A definition list row of the summary: <tr><th>KEY</th><td>VAL</td></tr>, escaped. */
void html_kv(struct sb *sb, const char *key, const char *val);
/*
 * A table from rows of cells; row 0 is the header.  ncols cells per row,
 * cells[r * ncols + c] (NULL for empty), each escaped; a cell starting
 * with a digit, '-', '+' or '.' is right-aligned and kept on one line;
 * in other cells a long run without a space or hyphen (a name, a path)
 * gets places to break, so that the table fits the page (its <div
 * class="wide"> scrolls if even that is not enough).  A column whose
 * every body cell is empty is left out.  caption may be NULL.
 */
void html_table(struct sb *sb, const char *caption, const char *const *cells, size_t nrows, size_t ncols);

/*
 * A bar chart: one horizontal bar per label, its series stacked (stacked
 * 1) or side by side (0), an axis with ticks in unit, a legend, and the
 * numbers again as a table under <details> (the data fallback).  A
 * series that is zero on every bar is left out (legend and table); a
 * label longer than the space beside the bars is cut, the whole of it
 * its tooltip, as is every bar's.
 */
struct html_bars {
	const char *title;
	const char *unit;		/* the axis label, with its unit: "USD per year" */
	size_t nbars, nseries;
	const char *const *labels;	/* [nbars] */
	const char *const *series;	/* [nseries] */
	const double *v;		/* [bar * nseries + series] */
	int stacked;
	int decimals;			/* in the table */
	int counts;			/* the axis counts things (GPUs, nodes): whole-number ticks */
};
void html_bars(struct sb *sb, const struct html_bars *b);

/*
 * A line chart: nseries step lines over the same x values, axes with
 * units, an optional marker (a vertical line at marker_x with its label),
 * a legend and the data table under <details>.  A series that is zero at
 * every point is left out, as in html_bars.
 */
struct html_lines {
	const char *title;
	const char *xunit, *yunit;	/* axis labels with units */
	size_t npoints, nseries;
	const double *x;		/* [npoints], ascending */
	const char *const *series;	/* [nseries] */
	const double *y;		/* [series * npoints + point] */
	const char *marker;		/* NULL: none */
	double marker_x;
	int decimals;
	int ycounts;			/* the y axis counts things: whole-number ticks */
};
void html_lines(struct sb *sb, const struct html_lines *l);

#endif
