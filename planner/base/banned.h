/*
 * banned.h - functions the planner must not use; include it last.
 *
 * Unbounded copies, locale-dependent number parsing without error
 * reporting and non-reentrant time conversion are compile errors here.
 */
#ifndef PLANNER_BANNED_H
#define PLANNER_BANNED_H

#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef atoi
#define atoi(x) BANNED(atoi)
#undef atof
#define atof(x) BANNED(atof)
#undef localtime
#define localtime(x) BANNED(localtime)
#undef gmtime
#define gmtime(x) BANNED(gmtime)

#endif
