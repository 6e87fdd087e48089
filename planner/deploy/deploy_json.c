/*
 * deploy_json.c - a JSON deploy file added to the outset: root printed by
 * cJSON and a newline (labels.json, vgpu.json, vms.json).
 */
#include <cJSON.h>

#include "deploy_plan.h"
#include "util.h"
#include "banned.h"

void deploy_add_json(struct outset *os, const char *name, cJSON *root)
{
	char *json = cJSON_Print(root);
	struct sb sb;

	cJSON_Delete(root);
	sb_init(&sb);
	sb_adds(&sb, json);
	sb_adds(&sb, "\n");
	cJSON_free(json);
	outset_add_sb(os, name, &sb);
}

