/*
 * fuzz_baseline.c - libFuzzer harness for the baseline reader of check
 * and diff (rd_report_parse, report/reportdiff_read.c): parse the input
 * as a plan.json, then compare it with itself and format the comparison
 * as text, Markdown and JSON.  Nothing may crash, leak or read out of
 * bounds; an error must carry a clean one-line message, and no formatted
 * line may hold a control character from the input (issue #34: a crafted
 * name cannot forge a line).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "reportdiff.h"

/* Every byte of text is printable, a tab or a line break. */
static void check_clean(const char *text)
{
	const unsigned char *p;

	for (p = (const unsigned char *)text; *p; p++)
		if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rd_report r;
	struct rd_diff df;
	struct rd_limits lim;
	struct diag d = DIAG_INIT;
	char *text = malloc(size + 1);
	int f;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	memset(&r, 0, sizeof(r));
	if (rd_report_parse(&r, "fuzz.json", text, size, "baseline", &d)) {
		fuzz_check_diag(&d);
	} else {
		rd_limits_check_defaults(&lim);
		rd_diff_compute(&df, &r, &r, &lim);
		for (f = RD_TEXT; f <= RD_MARKDOWN; f++) {
			char *out = rd_diff_format(&df, (enum rd_format)f, "diff");
			check_clean(out);
			free(out);
		}
		free(rd_diff_format(&df, RD_JSON, "diff"));
		rd_diff_release(&df);
	}
	rd_report_release(&r);
	diag_release(&d);
	free(text);
	return 0;
}
