/*
 * reportdiff_format.c - rd_diff_format: a comparison rendered in the form
 * asked (reportdiff_text.c for text and Markdown, reportdiff_json.c for
 * JSON).  A file of its own so that the renderers depend on the
 * comparison (reportdiff.c) and not the other way round.
 */
#include "reportdiff.h"
#include "html_pages.h"
#include "reportdiff_json.h"
#include "reportdiff_text.h"
#include "banned.h"

char *rd_diff_format(const struct rd_diff *df, enum rd_format fmt, const char *command)
{
	if (fmt == RD_HTML)
		return html_check_page(df, command);
	if (fmt == RD_JSON)
		return rd_json_format(df, command);
	return rd_text_format(df, fmt == RD_MARKDOWN, command);
}
