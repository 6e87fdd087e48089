/*
 * date.c - calendar dates as day numbers (date.h).
 */
#include <stdio.h>
#include <time.h>

#include "date.h"
#include "banned.h"

long long date_from_civil(long long y, long long m, long long d)
{
	long long era, yoe, doy, doe;
	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

void date_to_civil(long long z, long long *y, long long *m, long long *d)
{
	long long era, doe, yoe, doy, mp;
	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = yoe + era * 400 + (*m <= 2);
}

int date_month_days(long long y, long long m)
{
	static const int mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
	if (m < 1 || m > 12)
		return 0;
	return mdays[m - 1] + (m == 2 && leap);
}

/* n decimal digits at s into *out: 0, or -1. */
static int digits(const char *s, int n, long long *out)
{
	long long v = 0;
	int i;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

int date_parse_prefix(const char *s, long long *days)
{
	long long y, m, d;
	if (digits(s, 4, &y) || s[4] != '-' || digits(s + 5, 2, &m) || s[7] != '-' || digits(s + 8, 2, &d))
		return -1;
	if (m < 1 || m > 12 || d < 1 || d > date_month_days(y, m))
		return -1;
	*days = date_from_civil(y, m, d);
	return 10;
}

int date_parse(const char *s, long long *days)
{
	long long v;
	if (date_parse_prefix(s, &v) != 10 || s[10])
		return -1;
	*days = v;
	return 0;
}

const char *date_format(char *buf, size_t size, long long days)
{
	long long y, m, d;
	date_to_civil(days, &y, &m, &d);
	snprintf(buf, size, "%04lld-%02lld-%02lld", y, m, d);
	return buf;
}

long long date_minus_months(long long days, int months)
{
	long long y, m, d, mi;
	date_to_civil(days, &y, &m, &d);
	mi = y * 12 + (m - 1) - months;
	y = mi >= 0 ? mi / 12 : -((-mi + 11) / 12);
	m = mi - y * 12 + 1;
	if (d > date_month_days(y, m))
		d = date_month_days(y, m);
	return date_from_civil(y, m, d);
}

long long date_today_utc(void)
{
	time_t t = time(NULL);
	long long s = (long long)t;
	return s >= 0 ? s / 86400 : -((-s + 86399) / 86400);
}
