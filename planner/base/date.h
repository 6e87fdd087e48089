/*
 * date.h - calendar dates as day numbers, with integer civil-calendar
 * arithmetic (proleptic Gregorian, H. Hinnant's algorithms), never the C
 * library's time zone functions, so a date reads the same in any TZ and
 * locale.
 *
 * A day number counts days since 1970-01-01 (negative before it).
 */
#ifndef PLANNER_DATE_H
#define PLANNER_DATE_H

#include <stddef.h>

#define DATE_TEXT_SIZE 16	/* "YYYY-MM-DD" and its NUL, with room */

/* The day number of year y, month m (1..12), day d (1..31); no range check. */
long long date_from_civil(long long y, long long m, long long d);
/* The year, month and day of a day number. */
void date_to_civil(long long days, long long *y, long long *m, long long *d);
/* Days in month m (1..12) of year y. */
int date_month_days(long long y, long long m);
/*
 * A strict date "YYYY-MM-DD" at the start of s (four-digit year, two-digit
 * month and day, a day that exists in that month).  Returns the number of
 * characters read (10), or -1 when s does not start with one.
 */
int date_parse_prefix(const char *s, long long *days);
/* The whole of s is a date as above: 0, or -1. */
int date_parse(const char *s, long long *days);
/* Formats a day number as "YYYY-MM-DD" into buf (size >= DATE_TEXT_SIZE). */
const char *date_format(char *buf, size_t size, long long days);
/*
 * The same day `months` months earlier (months >= 0), clamped to the end
 * of a shorter month: March 31 minus one month is February 28 (or 29).
 */
long long date_minus_months(long long days, int months);
/* Today's date in UTC from the system clock (for warnings, never for reports). */
long long date_today_utc(void);

#endif
