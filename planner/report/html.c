/*
 * html.c - the frame of report.html (inline style sheet, no script, no
 * outside reference), tables, and the bar and line charts, each with its
 * title, axis labels with units, a legend and its numbers as a table.
 */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "banned.h"

#define CHART_W 900.0	/* user units; the SVG scales to the page */
#define SERIES_COLOURS 8

static const char style[] =
	"body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;margin:0 auto;"
	"max-width:1100px;padding:1em 2em;color:#1c2430;background:#fff;line-height:1.4;overflow-wrap:break-word}\n"
	"h1{font-size:1.6em;border-bottom:3px solid #76b900;padding-bottom:.2em}\n"
	"h2{font-size:1.25em;margin-top:1.6em;border-bottom:1px solid #ccd}\n"
	"h3{font-size:1.05em;margin:1.2em 0 .4em}\n"
	"table{border-collapse:collapse;margin:.4em 0 1em;font-size:.9em}\n"
	"th,td{border:1px solid #d5d9e0;padding:.2em .6em;text-align:left;vertical-align:top}\n"
	"th{background:#f1f3f6}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	".wide{overflow-x:auto;max-width:100%}\n"
	"svg{max-width:100%;height:auto;display:block;margin:.4em 0}\n"
	"svg text{font-size:12px;fill:#1c2430}svg .t{font-size:14px;font-weight:bold}\n"
	"svg .small{font-size:10px}svg .ax{stroke:#1c2430;stroke-width:1}svg .grid{stroke:#d5d9e0;stroke-width:1}\n"
	"svg .mark{stroke:#c0392b;stroke-width:2;stroke-dasharray:6 4}\n"
	"svg .s0{fill:#4e79a7;stroke:#4e79a7}svg .s1{fill:#f28e2b;stroke:#f28e2b}svg .s2{fill:#59a14f;stroke:#59a14f}\n"
	"svg .s3{fill:#e15759;stroke:#e15759}svg .s4{fill:#76b7b2;stroke:#76b7b2}svg .s5{fill:#edc948;stroke:#edc948}\n"
	"svg .s6{fill:#b07aa1;stroke:#b07aa1}svg .s7{fill:#9c755f;stroke:#9c755f}\n"
	"svg polyline{fill:none!important;stroke-width:2}\n"
	"svg .slot{fill:#e8ecf1;stroke:#8a94a3}svg .used{stroke:#2f4b6b}svg .free{fill:#fff;stroke:#8a94a3;"
	"stroke-dasharray:3 2}svg .idle{fill:#f6f7f9;stroke:#c3c9d2}\n"
	/* a colour per workload (HTML_WORKLOAD_COLOURS, cycled), light so that dark text reads on each, the
	   closest hues far apart in the order */
	".wc0{fill:#8dd3c7;background:#8dd3c7}.wc1{fill:#fdb462;background:#fdb462}.wc2{fill:#bebada;background:#bebada}\n"
	".wc3{fill:#fb8072;background:#fb8072}.wc4{fill:#80b1d3;background:#80b1d3}.wc5{fill:#b3de69;background:#b3de69}\n"
	".wc6{fill:#fccde5;background:#fccde5}.wc7{fill:#ffed6f;background:#ffed6f}.wc8{fill:#c49c94;background:#c49c94}\n"
	".wc9{fill:#bc80bd;background:#bc80bd}.wc10{fill:#dbdb8d;background:#dbdb8d}.wc11{fill:#9edae5;background:#9edae5}\n"
	".wc12{fill:#98df8a;background:#98df8a}.wc13{fill:#f7b6d2;background:#f7b6d2}.wc14{fill:#ffbb78;background:#ffbb78}\n"
	".wc15{fill:#66c2a5;background:#66c2a5}\n"
	"ul.legend{list-style:none;padding:0;margin:.4em 0 1em;display:flex;flex-wrap:wrap;gap:.2em 1.2em}\n"
	"ul.legend li{overflow-wrap:anywhere}.sw{display:inline-block;width:.9em;height:.9em;margin-right:.35em;"
	"border:1px solid #2f4b6b;vertical-align:-.1em}\n"
	".layouts{display:flex;flex-wrap:wrap;gap:1em}.layout{border:1px solid #d5d9e0;padding:.4em .8em;"
	"border-radius:4px;max-width:100%}\n"
	".verdict{background:#f1f8e6;border-left:4px solid #76b900;padding:.5em 1em}\n"
	".bad{background:#fdecea;border-left:4px solid #c0392b;padding:.5em 1em}\n"
	"details{margin:.2em 0 1em}summary{cursor:pointer;color:#3b5b85}\n"
	"footer{margin-top:2em;font-size:.8em;color:#667}p.small{font-size:.85em;color:#556;margin:.2em 0}\n"
	"figure{margin:1em 0}\n";

void html_begin(struct sb *sb, const char *title)
{
	sb_adds(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
		    "<meta name=\"generator\" content=\"gpuplan\"/>\n<title>");
	html_esc(sb, title);
	sb_adds(sb, "</title>\n<style>\n");
	sb_adds(sb, style);
	sb_adds(sb, "</style>\n</head>\n<body>\n<h1>");
	html_esc(sb, title);
	sb_adds(sb, "</h1>\n");
}

void html_end(struct sb *sb)
{
	sb_adds(sb, "<footer>Written by gpuplan from the same data as the JSON report; "
		    "one self-contained file (no script, no outside reference).</footer>\n</body>\n</html>\n");
}

void html_section(struct sb *sb, const char *id, const char *text)
{
	sb_addf(sb, "<section id=\"%s\">\n<h2>", id);
	html_esc(sb, text);
	sb_adds(sb, "</h2>\n");
}

void html_section_end(struct sb *sb)
{
	sb_adds(sb, "</section>\n");
}

void html_p(struct sb *sb, const char *text)
{
	sb_adds(sb, "<p>");
	html_esc(sb, text);
	sb_adds(sb, "</p>\n");
}

void html_kv(struct sb *sb, const char *key, const char *val)
{
	sb_adds(sb, "<tr><th>");
	html_esc(sb, key);
	sb_adds(sb, "</th><td>");
	html_esc(sb, val);
	sb_adds(sb, "</td></tr>\n");
}

static int numeric(const char *s)
{
	return (*s >= '0' && *s <= '9') || ((*s == '-' || *s == '+' || *s == '.') && s[1] >= '0' && s[1] <= '9');
}

/*
 * s escaped, with a <wbr/> (a place to break the line) every CELL_RUN
 * bytes of a run without a space or hyphen: a long name or path in a
 * table cell then wraps instead of widening the table past the page,
 * while ordinary words stay whole.
 */
#define CELL_RUN 20

static void esc_breakable(struct sb *sb, const char *s)
{
	size_t run = 0, i, from = 0, n = strlen(s);

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == ' ' || c == '-' || c == '\n') {
			run = 0;
			continue;
		}
		if ((c & 0xC0) == 0x80 || ++run <= CELL_RUN)
			continue;
		{
			char *part = xasprintf("%.*s", (int)(i - from), s + from);
			html_esc(sb, part);
			free(part);
		}
		sb_adds(sb, "<wbr/>");
		from = i;
		run = 1;
	}
	html_esc(sb, s + from);
}

/* Column c holds something: a body cell that is not empty (or there is no body). */
static int column_used(const char *const *cells, size_t nrows, size_t ncols, size_t c)
{
	size_t r;

	if (nrows < 2)
		return 1;
	for (r = 1; r < nrows; r++)
		if (cells[r * ncols + c] && *cells[r * ncols + c])
			return 1;
	return 0;
}

void html_table(struct sb *sb, const char *caption, const char *const *cells, size_t nrows, size_t ncols)
{
	char *used = xcalloc(ncols + 1, 1);
	size_t r, c;

	for (c = 0; c < ncols; c++)
		used[c] = (char)column_used(cells, nrows, ncols, c);
	sb_adds(sb, "<div class=\"wide\"><table>\n");
	if (caption) {
		sb_adds(sb, "<caption>");
		html_esc(sb, caption);
		sb_adds(sb, "</caption>\n");
	}
	for (r = 0; r < nrows; r++) {
		sb_adds(sb, "<tr>");
		for (c = 0; c < ncols; c++) {
			const char *v = cells[r * ncols + c] ? cells[r * ncols + c] : "";
			if (!used[c])
				continue;
			sb_adds(sb, r == 0 ? "<th>" : numeric(v) ? "<td class=\"n\">" : "<td>");
			esc_breakable(sb, v);
			sb_adds(sb, r == 0 ? "</th>" : "</td>");
		}
		sb_adds(sb, "</tr>\n");
	}
	sb_adds(sb, "</table></div>\n");
	free(used);
}

/*
 * The legend: a swatch and a name per series, from (x, y), wrapping at
 * the chart's width; series s in colour col[s] (its place among the
 * series given, before any was left out, so a series keeps its colour).
 */
static double legend(struct sb *sb, const char *const *series, const size_t *col, size_t n, double x0, double y)
{
	double x = x0;
	size_t s;

	for (s = 0; s < n; s++) {
		double w = 30 + 6.8 * (double)strlen(series[s]);
		double box[4] = { 0, 0, 12, 12 };
		char cls[8];
		if (x + w > CHART_W && x > x0) {
			x = x0;
			y += 18;
		}
		box[0] = x;
		box[1] = y - 10;
		snprintf(cls, sizeof(cls), "s%zu", col[s] % SERIES_COLOURS);
		svg_rect(sb, box, cls, NULL);
		svg_text(sb, x + 16, y, "start", NULL, series[s]);
		x += w;
	}
	return y;
}

/*
 * The numbers of a chart as a table (the data fallback): t's labels down
 * (t->nbars rows), its series across, corner in the top left cell.
 */
static void data_table(struct sb *sb, const char *corner, const struct html_bars *t)
{
	const char *const *labels = t->labels, *const *series = t->series;
	const double *v = t->v;
	size_t nrows = t->nbars, nseries = t->nseries, ncols = nseries + 1, r, s;
	int decimals = t->decimals;
	char **cells = xcalloc((nrows + 1) * ncols, sizeof(*cells));
	char b[64];

	cells[0] = xstrdup(corner);
	for (s = 0; s < nseries; s++)
		cells[s + 1] = xstrdup(series[s]);
	for (r = 0; r < nrows; r++) {
		cells[(r + 1) * ncols] = xstrdup(labels[r]);
		for (s = 0; s < nseries; s++)
			cells[(r + 1) * ncols + s + 1] = xstrdup(fmt_fixed(b, sizeof(b), v[r * nseries + s], decimals));
	}
	sb_adds(sb, "<details><summary>the numbers (table)</summary>\n");
	html_table(sb, NULL, (const char *const *)cells, nrows + 1, ncols);
	sb_adds(sb, "</details>\n");
	for (r = 0; r < (nrows + 1) * ncols; r++)
		free(cells[r]);
	free(cells);
}

/* The numbers of a line chart as a table: one row per x value, one column per series. */
static void lines_table(struct sb *sb, const struct html_lines *l)
{
	char **labels = xcalloc(l->npoints + 1, sizeof(*labels));
	double *v = xcalloc(l->npoints * l->nseries + 1, sizeof(*v));
	struct html_bars t;
	char b[64];
	size_t i, s;

	for (i = 0; i < l->npoints; i++) {
		labels[i] = xstrdup(fmt_num_short(b, sizeof(b), l->x[i], 2));
		for (s = 0; s < l->nseries; s++)
			v[i * l->nseries + s] = l->y[s * l->npoints + i];
	}
	t = (struct html_bars){ .labels = (const char *const *)labels, .nbars = l->npoints,
				.series = l->series, .nseries = l->nseries, .v = v, .decimals = l->decimals };
	data_table(sb, l->xunit, &t);
	for (i = 0; i < l->npoints; i++)
		free(labels[i]);
	free(labels);
	free(v);
}

/*
 * An axis from 0 to at least max: its end, and in *nticks its number of
 * intervals.  Amounts take 4 intervals up to a round end; counts take
 * whole steps (a tick at 12.5 GPUs means nothing).
 */
static double axis_end(double max, int counts, int *nticks)
{
	double step;

	if (!counts) {
		*nticks = 4;
		return svg_nice(max);
	}
	step = ceil(svg_nice(max / 4));
	*nticks = (int)ceil(max / step - 1e-9);
	if (*nticks < 1)
		*nticks = 1;
	return step * *nticks;
}

/* Axis ticks along x over span (value 0 to vmax, n intervals), at y (chart bottom), grid lines up to top. */
static void x_ticks(struct sb *sb, const double span[2], double vmax, int n, const double tb[2])
{
	char b[64];
	int i;

	for (i = 0; i <= n; i++) {
		double x = span[0] + (span[1] - span[0]) * i / n;
		svg_line(sb, x, tb[0], x, tb[1], "grid");
		svg_text(sb, x, tb[1] + 14, "middle", "small tick xt", fmt_num_short(b, sizeof(b), vmax * i / n, 2));
	}
}

/*
 * The series of a chart that are not zero everywhere, with their values
 * (nvalues values per series, at v[at(point, series)]): a series that is
 * zero on every bar or point draws nothing, would fill its table column
 * with zeros and its legend with a name the chart does not show.  When
 * every series is zero they all stay.  keep[s] says which; returns how
 * many.
 */
static size_t nonzero_series(const double *v, size_t nvalues, size_t nseries, int by_series, char *keep)
{
	size_t s, i, n = 0;

	for (s = 0; s < nseries; s++) {
		keep[s] = 0;
		for (i = 0; i < nvalues && !keep[s]; i++)
			keep[s] = v[by_series ? s * nvalues + i : i * nseries + s] != 0;
		n += (size_t)keep[s];
	}
	if (!n) {
		memset(keep, 1, nseries);
		n = nseries;
	}
	return n;
}

/*
 * b's series that are not zero everywhere (see nonzero_series): *out,
 * with series, v and col (each series' colour) filled, b's sizes.
 */
static void bars_nonzero(const struct html_bars *b, struct html_bars *out, const char **series, double *v, size_t *col)
{
	char *keep = xcalloc(b->nseries + 1, 1);
	size_t n = nonzero_series(b->v, b->nbars, b->nseries, 0, keep), s, i, k = 0;

	for (s = 0; s < b->nseries; s++) {
		if (!keep[s])
			continue;
		series[k] = b->series[s];
		col[k] = s;
		for (i = 0; i < b->nbars; i++)
			v[i * n + k] = b->v[i * b->nseries + s];
		k++;
	}
	*out = *b;
	out->nseries = n;
	out->series = series;
	out->v = v;
	free(keep);
}

/*
 * Bar i of b, geo = { left, right, y, rowh, axis end }: a rectangle per
 * series (in colour col[series]) from x = left in its row, its tooltip
 * the whole label and figure.
 */
static void bar(struct sb *sb, const struct html_bars *b, const size_t *col, size_t i, const double geo[5])
{
	const double left = geo[0], right = geo[1], y = geo[2], rowh = geo[3], max = geo[4];
	double x = left;
	size_t s;

	for (s = 0; s < b->nseries; s++) {
		double v = fmax(0, b->v[i * b->nseries + s]), w = (right - left) * v / max;
		double box[4];
		char cls[8], num[64], *tip;
		if (v <= 0)
			continue;
		snprintf(cls, sizeof(cls), "s%zu", col[s] % SERIES_COLOURS);
		tip = xasprintf("%s, %s: %s", b->labels[i], b->series[s], fmt_fixed(num, sizeof(num), v, b->decimals));
		box[0] = b->stacked ? x : left;
		box[1] = b->stacked ? y + 3 : y + 5 + 10 * (double)s;
		box[2] = w;
		box[3] = b->stacked ? rowh - 6 : 9;
		svg_rect(sb, box, cls, tip);
		free(tip);
		x += w;
	}
}

void html_bars(struct sb *sb, const struct html_bars *in)
{
	const double left = 210, right = CHART_W - 30;
	struct html_bars nb, *b = &nb;
	double rowh, top, max = 0, end, h, y;
	double span[2] = { left, right };
	size_t i, s;
	int nticks;
	const char **series = xcalloc(in->nseries + 1, sizeof(*series));
	double *vals = xcalloc(in->nbars * in->nseries + 1, sizeof(*vals));
	size_t *col = xcalloc(in->nseries + 1, sizeof(*col));

	bars_nonzero(in, &nb, series, vals, col);
	rowh = b->stacked ? 24 : 10 * (double)b->nseries + 10;
	for (i = 0; i < b->nbars; i++) {
		double sum = 0;
		for (s = 0; s < b->nseries; s++) {
			double v = fmax(0, b->v[i * b->nseries + s]);
			sum = b->stacked ? sum + v : fmax(sum, v);
		}
		max = fmax(max, sum);
	}
	end = axis_end(max, b->counts, &nticks);
	sb_adds(sb, "<figure>\n");
	/* the legend may wrap: measure it on a scratch buffer first */
	{
		struct sb scratch;
		sb_init(&scratch);
		top = legend(&scratch, b->series, col, b->nseries, left, 44) + 14;
		sb_release(&scratch);
	}
	h = top + rowh * (double)b->nbars + 44;
	svg_open(sb, CHART_W, h, b->title);
	svg_text(sb, 10, 20, "start", "t", b->title);
	legend(sb, b->series, col, b->nseries, left, 44);
	x_ticks(sb, span, end, nticks, (double[2]){ top, top + rowh * (double)b->nbars });
	for (i = 0, y = top; i < b->nbars; i++, y += rowh) {
		svg_text_fit(sb, (double[2]){ left - 6, y + rowh / 2 + 4 }, "end", NULL, b->labels[i], 30);
		bar(sb, b, col, i, (double[5]){ left, right, y, rowh, end });
	}
	y = top + rowh * (double)b->nbars;
	svg_line(sb, left, top, left, y, "ax");
	svg_line(sb, left, y, right, y, "ax");
	svg_text(sb, (left + right) / 2, y + 34, "middle", "unit xu", b->unit);
	svg_close(sb);
	sb_adds(sb, "</figure>\n");
	data_table(sb, "", b);
	free(series);
	free(vals);
	free(col);
}

/* l's series that are not zero everywhere (see nonzero_series): *out, with series, y and col filled, l's sizes. */
static void lines_nonzero(const struct html_lines *l, struct html_lines *out, const char **series, double *y, size_t *col)
{
	char *keep = xcalloc(l->nseries + 1, 1);
	size_t n = nonzero_series(l->y, l->npoints, l->nseries, 1, keep), s, k = 0;

	for (s = 0; s < l->nseries; s++) {
		if (!keep[s])
			continue;
		series[k] = l->series[s];
		col[k] = s;
		memcpy(y + k * l->npoints, l->y + s * l->npoints, l->npoints * sizeof(*y));
		k++;
	}
	*out = *l;
	out->nseries = n;
	out->series = series;
	out->y = y;
	free(keep);
}

/* The y axis of a line chart from bottom to top: n intervals up to ymax, ticks, grid lines and the x ticks. */
static void line_axes(struct sb *sb, const struct html_lines *l, const double frame[4], double ymax, int n)
{
	const double left = frame[0], right = frame[1], top = frame[2], bottom = frame[3];
	double x0 = l->npoints ? l->x[0] : 0, x1 = l->npoints ? l->x[l->npoints - 1] : 1;
	char b[64];
	int i;

	if (x1 <= x0)
		x1 = x0 + 1;
	for (i = 0; i <= n; i++) {
		double y = bottom - (bottom - top) * (double)i / n;
		svg_line(sb, left, y, right, y, "grid");
		svg_text(sb, left - 6, y + 4, "end", "small tick yt", fmt_num_short(b, sizeof(b), ymax * (double)i / n, 2));
	}
	for (i = 0; i <= 4; i++)
		svg_text(sb, left + (right - left) * (double)i / 4, bottom + 14, "middle", "small tick xt",
			 fmt_num_short(b, sizeof(b), x0 + (x1 - x0) * (double)i / 4, x1 - x0 >= 40 ? 0 : 1));
}

void html_lines(struct sb *sb, const struct html_lines *in)
{
	const double left = 80, right = CHART_W - 30, bottom = 300;
	struct html_lines nl, *l = &nl;
	double top, ymax = 0, x0 = in->npoints ? in->x[0] : 0, x1 = in->npoints ? in->x[in->npoints - 1] : 1;
	double *xy = xmalloc((2 * in->npoints + 2) * sizeof(*xy) * 2);
	size_t i, s, n;
	int nticks;
	const char **series = xcalloc(in->nseries + 1, sizeof(*series));
	double *ys = xcalloc(in->npoints * in->nseries + 1, sizeof(*ys));
	size_t *col = xcalloc(in->nseries + 1, sizeof(*col));

	lines_nonzero(in, &nl, series, ys, col);
	for (i = 0; i < l->npoints * l->nseries; i++)
		ymax = fmax(ymax, l->y[i]);
	ymax = axis_end(ymax, l->ycounts, &nticks);
	if (x1 <= x0)
		x1 = x0 + 1;
	sb_adds(sb, "<figure>\n");
	svg_open(sb, CHART_W, bottom + 50, l->title);
	svg_text(sb, 10, 20, "start", "t", l->title);
	top = legend(sb, l->series, col, l->nseries, left, 44) + 16;
	line_axes(sb, l, (double[4]){ left, right, top, bottom }, ymax, nticks);
	for (s = 0; s < l->nseries; s++) {
		char cls[8];
		for (i = 0, n = 0; i < l->npoints; i++) {
			double y = bottom - (bottom - top) * l->y[s * l->npoints + i] / ymax;
			double xa = left + (right - left) * (l->x[i] - x0) / (x1 - x0);
			double xb = i + 1 < l->npoints ? left + (right - left) * (l->x[i + 1] - x0) / (x1 - x0) : xa;
			xy[2 * n] = xa;
			xy[2 * n++ + 1] = y;
			xy[2 * n] = xb;
			xy[2 * n++ + 1] = y;
		}
		snprintf(cls, sizeof(cls), "s%zu", col[s] % SERIES_COLOURS);
		svg_polyline(sb, xy, n, cls);
	}
	if (l->marker && l->marker_x >= x0 && l->marker_x <= x1) {
		double x = left + (right - left) * (l->marker_x - x0) / (x1 - x0);
		svg_line(sb, x, top, x, bottom, "mark");
		svg_text(sb, x + 4, top + 12, x > CHART_W / 2 ? "end" : "start", NULL, l->marker);
	}
	svg_line(sb, left, top, left, bottom, "ax");
	svg_line(sb, left, bottom, right, bottom, "ax");
	svg_text(sb, (left + right) / 2, bottom + 34, "middle", "unit xu", l->xunit);
	sb_adds(sb, "<text x=\"16\" y=\"");
	svg_num(sb, (top + bottom) / 2);
	sb_adds(sb, "\" text-anchor=\"middle\" class=\"unit yu\" transform=\"rotate(-90 16 ");
	svg_num(sb, (top + bottom) / 2);
	sb_adds(sb, ")\">");
	html_esc(sb, l->yunit);
	sb_adds(sb, "</text>\n");
	svg_close(sb);
	sb_adds(sb, "</figure>\n");
	free(xy);
	lines_table(sb, l);
	free(series);
	free(ys);
	free(col);
}

double html_jnum(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

const char *html_jstr(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : "";
}
