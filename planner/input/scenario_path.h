/*
 * scenario_path.h - the scenario readers' path helpers (private to input/;
 * scenario_path_resolve, built on them, is in scenario.h).
 */
#ifndef PLANNER_SCENARIO_PATH_H
#define PLANNER_SCENARIO_PATH_H

/* The directory part of path ("" when there is none; "/" for "/x"); caller frees. */
char *scenario_dir_of(const char *path);
/* name relative to dir, unless name is absolute or dir is empty; caller frees. */
char *scenario_path_join(const char *dir, const char *name);

#endif
