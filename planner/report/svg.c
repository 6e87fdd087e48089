/*
 * svg.c - the small SVG writer of report.html: escaped text, fixed
 * numbers, a few shapes.  Why our own and not a library: the charts need
 * rectangles, lines, polylines and text, about a hundred lines; the C
 * SVG libraries in Debian (cairo's SVG surface, librsvg) draw or read
 * SVG as pictures, with fonts and floating-point output that differs by
 * version, where the report needs plain markup with CSS classes and
 * byte-identical output (docs/decisions.md).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "banned.h"

void html_esc(struct sb *sb, const char *s)
{
	const char *run = s;

	for (; *s; s++) {
		const char *ent;
		switch (*s) {
		case '&':
			ent = "&amp;";
			break;
		case '<':
			ent = "&lt;";
			break;
		case '>':
			ent = "&gt;";
			break;
		case '"':
			ent = "&quot;";
			break;
		case '\'':
			ent = "&#39;";
			break;
		default:
			continue;
		}
		sb_addn(sb, run, (size_t)(s - run));
		sb_adds(sb, ent);
		run = s + 1;
	}
	sb_addn(sb, run, (size_t)(s - run));
}

void svg_num(struct sb *sb, double v)
{
	char b[64];
	sb_adds(sb, fmt_num_short(b, sizeof(b), round(v * 10) / 10, 1));
}

void svg_open(struct sb *sb, double w, double h, const char *title)
{
	sb_adds(sb, "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" viewBox=\"0 0 ");
	svg_num(sb, w);
	sb_adds(sb, " ");
	svg_num(sb, h);
	sb_adds(sb, "\" width=\"");
	svg_num(sb, w);
	sb_adds(sb, "\"><title>");
	html_esc(sb, title);
	sb_adds(sb, "</title>\n");
}

void svg_close(struct sb *sb)
{
	sb_adds(sb, "</svg>\n");
}

void svg_rect(struct sb *sb, const double box[4], const char *cls, const char *tip)
{
	sb_adds(sb, "<rect x=\"");
	svg_num(sb, box[0]);
	sb_adds(sb, "\" y=\"");
	svg_num(sb, box[1]);
	sb_adds(sb, "\" width=\"");
	svg_num(sb, fmax(0, box[2]));
	sb_adds(sb, "\" height=\"");
	svg_num(sb, fmax(0, box[3]));
	sb_addf(sb, "\" class=\"%s\"", cls);
	if (!tip) {
		sb_adds(sb, "/>\n");
		return;
	}
	sb_adds(sb, "><title>");
	html_esc(sb, tip);
	sb_adds(sb, "</title></rect>\n");
}

/* <text x y text-anchor class>, left open for its content. */
static void text_open(struct sb *sb, double x, double y, const char *anchor, const char *cls)
{
	sb_adds(sb, "<text x=\"");
	svg_num(sb, x);
	sb_adds(sb, "\" y=\"");
	svg_num(sb, y);
	sb_addf(sb, "\" text-anchor=\"%s\"", anchor);
	if (cls)
		sb_addf(sb, " class=\"%s\"", cls);
	sb_adds(sb, ">");
}

void svg_text(struct sb *sb, double x, double y, const char *anchor, const char *cls, const char *text)
{
	text_open(sb, x, y, anchor, cls);
	html_esc(sb, text);
	sb_adds(sb, "</text>\n");
}

void svg_text_fit(struct sb *sb, const double xy[2], const char *anchor, const char *cls, const char *text, size_t max)
{
	char *t = svg_fit(text, max);

	text_open(sb, xy[0], xy[1], anchor, cls);
	if (strcmp(t, text)) {
		/* the whole name on hover: a <title> inside the text is its tooltip */
		sb_adds(sb, "<title>");
		html_esc(sb, text);
		sb_adds(sb, "</title>");
	}
	html_esc(sb, t);
	sb_adds(sb, "</text>\n");
	free(t);
}

void svg_line(struct sb *sb, double x1, double y1, double x2, double y2, const char *cls)
{
	sb_adds(sb, "<line x1=\"");
	svg_num(sb, x1);
	sb_adds(sb, "\" y1=\"");
	svg_num(sb, y1);
	sb_adds(sb, "\" x2=\"");
	svg_num(sb, x2);
	sb_adds(sb, "\" y2=\"");
	svg_num(sb, y2);
	sb_addf(sb, "\" class=\"%s\"/>\n", cls);
}

void svg_polyline(struct sb *sb, const double *xy, size_t n, const char *cls)
{
	size_t i;

	sb_adds(sb, "<polyline points=\"");
	for (i = 0; i < n; i++) {
		if (i)
			sb_adds(sb, " ");
		svg_num(sb, xy[2 * i]);
		sb_adds(sb, ",");
		svg_num(sb, xy[2 * i + 1]);
	}
	sb_addf(sb, "\" class=\"%s\"/>\n", cls);
}

double svg_nice(double v)
{
	static const double steps[] = { 1, 2, 2.5, 5, 10 };
	double p;
	size_t i;

	if (!(v > 0))
		return 1;
	p = pow(10, floor(log10(v)));
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (steps[i] * p >= v * (1 - 1e-12))
			return steps[i] * p;
	return 10 * p;
}

char *svg_fit(const char *s, size_t max)
{
	size_t n = strlen(s);
	if (n <= max)
		return xstrdup(s);
	n = max > 3 ? max - 3 : 0;
	while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	return xasprintf("%.*s...", (int)n, s);
}
