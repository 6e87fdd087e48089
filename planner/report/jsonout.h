/*
 * jsonout.h - a JSON document written as it is made (jsonout.c), in
 * exactly the bytes cJSON_Print gives for the whole tree: the top-level
 * object's members are printed one by one, and a big array's elements
 * one by one, so a report of a million placements never holds them all
 * (plan.json).  An element is either a small cJSON tree, printed by cJSON
 * and freed, or a flat object written member by member (jsonout_obj_*)
 * in cJSON's format without building a tree: the big arrays' rows are
 * written that way, as building and printing a tree per row took most of
 * the time of writing a large plan.
 */
#ifndef PLANNER_REPORT_JSONOUT_H
#define PLANNER_REPORT_JSONOUT_H

#include <cJSON.h>
#include <stdio.h>

struct jsonout {
	FILE *f;		/* where the document goes; NULL: nowhere (elements are only freed) */
	int members;		/* top-level members written so far */
	int depth;		/* 1 inside a top-level member holding an object (jsonout_object_begin), else 0 */
	int sub_members;	/* members of that object written so far */
	int elems;		/* elements of the open array written so far */
	char *buf;		/* scratch for printing one element */
	int cap;		/* its size */
	int obj_members;	/* members of the open flat object written so far */
	int obj_elems;		/* strings of its open array of strings written so far */
	char *out;		/* bytes not yet handed to f */
	size_t len;		/* how many */
	cJSON *num;		/* a number item reused to print non-integers as cJSON does */
};

/* Starts the document ("{") on f (NULL: writes nothing). */
void jsonout_begin(struct jsonout *jo, FILE *f);
/* Writes item (its key item->string, its value) as the next member. */
void jsonout_member(struct jsonout *jo, cJSON *item);
/*
 * Starts a top-level member key holding an object; until jsonout_object_end,
 * jsonout_member and jsonout_array_begin write that object's members (one
 * level of nesting, so that an object's big arrays stream too).
 */
void jsonout_object_begin(struct jsonout *jo, const char *key);
void jsonout_object_end(struct jsonout *jo);
/* Starts a member key holding an array; its elements follow (jsonout_elem). */
void jsonout_array_begin(struct jsonout *jo, const char *key);
/* Writes item as the open array's next element, and frees it. */
void jsonout_elem(struct jsonout *jo, cJSON *item);
void jsonout_array_end(struct jsonout *jo);
/*
 * A flat object as the open array's next element: jsonout_obj_begin, then
 * its members in order (a string, a number, or an array of strings), then
 * jsonout_obj_end; the bytes are those cJSON_Print gives for the same
 * object in the same place.
 */
void jsonout_obj_begin(struct jsonout *jo);
void jsonout_obj_str(struct jsonout *jo, const char *key, const char *value);
void jsonout_obj_num(struct jsonout *jo, const char *key, double value);
/* A member holding an array of strings: begin, each string, end. */
void jsonout_obj_strs_begin(struct jsonout *jo, const char *key);
void jsonout_obj_strs_add(struct jsonout *jo, const char *value);
void jsonout_obj_strs_end(struct jsonout *jo);
void jsonout_obj_end(struct jsonout *jo);
/* Ends the document ("}", no line break after it, as cJSON_Print) and frees the scratch. */
void jsonout_end(struct jsonout *jo);

#endif
