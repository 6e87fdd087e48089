/*
 * jsonout.h - a JSON document written as it is made (jsonout.c), in
 * exactly the bytes cJSON_Print gives for the whole tree: the top-level
 * object's members are printed one by one, and a big array's elements
 * one by one, each a small cJSON tree printed by cJSON and freed, so a
 * report of a million placements never holds them all (plan.json).
 */
#ifndef PLANNER_REPORT_JSONOUT_H
#define PLANNER_REPORT_JSONOUT_H

#include <cJSON.h>
#include <stdio.h>

struct jsonout {
	FILE *f;		/* where the document goes; NULL: nowhere (elements are only freed) */
	int members;		/* top-level members written so far */
	int elems;		/* elements of the open array written so far */
	char *buf;		/* scratch for printing one element */
	int cap;		/* its size */
};

/* Starts the document ("{") on f (NULL: writes nothing). */
void jsonout_begin(struct jsonout *jo, FILE *f);
/* Writes item (its key item->string, its value) as the next top-level member. */
void jsonout_member(struct jsonout *jo, cJSON *item);
/* Starts a top-level member key holding an array; its elements follow (jsonout_elem). */
void jsonout_array_begin(struct jsonout *jo, const char *key);
/* Writes item as the open array's next element, and frees it. */
void jsonout_elem(struct jsonout *jo, cJSON *item);
void jsonout_array_end(struct jsonout *jo);
/* Ends the document ("}", no line break after it, as cJSON_Print) and frees the scratch. */
void jsonout_end(struct jsonout *jo);

#endif
