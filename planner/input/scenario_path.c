/*
 * scenario_path.c - how a scenario (and a sweep spec, and the roadmap's
 * forecast) names the files it uses: joined to the naming file's folder,
 * unless absolute.  Apart from scenario.c so that the scenario's readers
 * (scenario.c, scenario_roadmap.c) share it without calling each other.
 */
#include <stdlib.h>
#include <string.h>

#include "scenario.h"
#include "scenario_path.h"
#include "util.h"
#include "banned.h"


/* The directory part of path ("" when there is none; "/" for "/x"). */
char *scenario_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup("");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/* name relative to dir, unless name is absolute or dir is empty. */
char *scenario_path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	if (name[0] == '/' || n == 0)
		return xstrdup(name);
	if (dir[n - 1] == '/')
		return xasprintf("%s%s", dir, name);
	return xasprintf("%s/%s", dir, name);
}

char *scenario_path_resolve(const char *file, const char *name)
{
	char *dir = scenario_dir_of(file);
	char *p = scenario_path_join(dir, name);
	free(dir);
	return p;
}
