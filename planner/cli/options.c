/*
 * options.c - the command table (options.h): every command's synopsis,
 * description and options, and the --help text built from them.
 *
 * Help layout: "usage: gpuplan NAME FORM" per synopsis form (wrapped
 * before a " [" at 100 columns, continuation lines aligned under the
 * first word after the name), the description indented by two, then one
 * line per option: its label ("-o, --output DIR") in a column as wide as
 * the command's longest label, and its help.
 */
#include <stdio.h>
#include <string.h>

#include "options.h"
#include "banned.h"

#define HELP_WIDTH 100	/* synopsis lines wrap before this column */

const struct cli_exit_doc cli_exit_docs[] = {
	{ EXIT_OK, "done" },
	{ EXIT_CHECK, "check or diff over a threshold, a replica unplaced under --require-all, or sweep cases missing or failed" },
	{ EXIT_USAGE, "bad command line" },
	{ EXIT_INPUT, "bad input file: one \"gpuplan: FILE:LINE[:COL]: ...\" line" },
	{ EXIT_SOLVER, "the solver found no plan within its limits" },
	{ EXIT_INTERNAL, "I/O error, or a plan that failed verification (a bug)" },
	{ 130, "interrupted by SIGINT (143 for SIGTERM): 128 + the signal" },
	{ 0, NULL },
};

const char *const cli_environment[] = {
	"GPUPLAN_MODELS", "the models directory, when neither --models nor the scenario's models: names one",
	"GPUPLAN_TODAY", "the date (YYYY-MM-DD) that validate and models check measure the age of prices from,\n"
	"instead of the clock's (reports never depend on it)",
	NULL,
};

const struct cli_option cli_help_option = { "help", OPT_HELP, NULL, "print this help and exit" };

static const struct cli_option global_opts[] = {
	{ "models", OPT_MODELS, "DIR", "read the models (gpus.yaml, licenses.yaml, clouds.yaml) from DIR" },
	{ "verbose", OPT_VERBOSE, NULL, "report the solver's progress and the problem's configurations on stderr" },
	{ "version", OPT_VERSION, NULL, "print the version and exit" },
	{ NULL, 0, NULL, NULL },
};

const struct cli_command cli_global = {
	NULL, "plan GPU clusters and price NVIDIA licensing",
	"[--models DIR] [--verbose] COMMAND [ARGS]\n--version | --help", NULL, global_opts,
};

static const struct cli_option plan_opts[] = {
	{ "output", OPT_OUTPUT, "DIR", "write the reports into DIR (default ./gpuplan-out);\n- writes plan.json to stdout and the summary to stderr" },
	{ "format", OPT_FORMAT, "csv|json|both|html|all", "the reports' format (default both; html: report.html)" },
	{ "time-limit", OPT_TIME_LIMIT, "S", "solver time limit in seconds (default: the scenario's, else 30)" },
	{ "gap", OPT_GAP, "PCT", "stop when proven within PCT percent of optimal (default: the scenario's, else 0.01)" },
	{ "node-limit", OPT_NODE_LIMIT, "N",
	  "stop after N branch-and-bound nodes: a limit that gives the same plan on any machine" },
	{ "threads", OPT_THREADS, "N", "solver threads (default: one per processor); the plan is the same on any number" },
	{ "export-model", OPT_EXPORT_MODEL, "FILE", "write the ILP (with the node key CPU/RAM rows), as free MPS (.mps) or CPLEX LP (.lp)" },
	{ "start", OPT_START, "FILE", "start from another solver's plan of that model: CBC's solution file or\nHiGHS's "
	  "(made concrete and kept when no plan found is cheaper)" },
	{ "require-all", OPT_REQUIRE_ALL, NULL, "exit 1 when some replica stays unplaced" },
	{ "greedy", OPT_GREEDY, NULL, "skip the ILP: report the greedy first-fit-decreasing plan (a baseline)" },
	{ "progress", OPT_PROGRESS, NULL, "print one progress line per phase on stderr (for CI logs)" },
	{ "quiet", OPT_QUIET, NULL, "no progress line (default on a terminal: one line updated in place)" },
	{ "deploy", OPT_DEPLOY, "DIR",
	  "also write the NVIDIA GPU Operator's inputs into DIR: mig-parted\nand device-plugin configs, "
	  "node labels, resource requests,\nVMs and vGPU profiles, apply.sh" },
	{ "deploy-namespace", OPT_DEPLOY_NAMESPACE, "NS",
	  "the GPU Operator's namespace the deploy files name (default gpu-operator;\nOpenShift: nvidia-gpu-operator)" },
	{ NULL, 0, NULL, NULL },
};

static const struct cli_option compare_opts[] = {
	{ "output", OPT_OUTPUT, "DIR", "write compare.csv and compare.json into DIR (default ./gpuplan-out);\n- writes compare.json to stdout and the table to stderr" },
	{ "format", OPT_FORMAT, "csv|json|both|html|all", "the reports' format (default both; html: report.html)" },
	{ "time-limit", OPT_TIME_LIMIT, "S", "solver time limit per scenario (default: each scenario's own)" },
	{ "gap", OPT_GAP, "PCT", "stop when proven within PCT percent of optimal (default: each scenario's own)" },
	{ "node-limit", OPT_NODE_LIMIT, "N", "branch-and-bound node limit per scenario (reproducible on any machine)" },
	{ "threads", OPT_THREADS, "N", "solver threads (default: one per processor)" },
	{ "greedy", OPT_GREEDY, NULL, "skip the ILP: compare the greedy plans" },
	{ "progress", OPT_PROGRESS, NULL, "print one progress line per phase on stderr (for CI logs)" },
	{ "quiet", OPT_QUIET, NULL, "no progress line (default on a terminal: one line updated in place)" },
	{ NULL, 0, NULL, NULL },
};

static const struct cli_option check_opts[] = {
	{ "baseline", OPT_BASELINE, "FILE", "the plan.json to compare with (gpuplan plan --format json)" },
	{ "max-cost-increase", OPT_MAX_COST, "PCT", "most the total cost may rise, in percent (default 0.5)" },
	{ "max-cost-increase-abs", OPT_MAX_COST_ABS, "USD",
	  "most the total cost may rise, in USD (either cost option drops the 0.5 %)" },
	{ "max-unplaced-increase", OPT_MAX_UNPLACED, "N",
	  "most replicas that may be unplaced beyond the baseline's (default 0)" },
	{ "max-util-drop", OPT_MAX_UTIL_DROP, "PTS",
	  "most memory or compute utilisation may fall, in points (default: not checked)" },
	{ "max-weighted-unplaced-increase", OPT_MAX_WEIGHTED, "N",
	  "most the sum of priority x unplaced replicas may rise (default 0)" },
	{ "fail-unplaced-priority", OPT_FAIL_PRIORITY, "P",
	  "fail when a workload of priority P or above has more unplaced replicas" },
	{ "fail-unplaced", OPT_FAIL_UNPLACED, "WORKLOAD",
	  "fail when this workload has more unplaced replicas (repeatable)" },
	{ "format", OPT_FORMAT, "text|markdown|json|html", "text (default), markdown (a pull-request comment), json or html (a page)" },
	{ "output", OPT_OUTPUT, "DIR", "also write the new plan's reports into DIR, as gpuplan plan does;\n- writes plan.json to stdout and the comparison to stderr" },
	{ "time-limit", OPT_TIME_LIMIT, "S", "solver time limit in seconds, as for gpuplan plan" },
	{ "gap", OPT_GAP, "PCT", "stop within PCT percent of optimal, as for gpuplan plan" },
	{ "node-limit", OPT_NODE_LIMIT, "N", "branch-and-bound node limit, as for gpuplan plan" },
	{ "threads", OPT_THREADS, "N", "solver threads, as for gpuplan plan" },
	{ "greedy", OPT_GREEDY, NULL, "skip the ILP: check the greedy plan, as for gpuplan plan" },
	{ "progress", OPT_PROGRESS, NULL, "print one progress line per phase on stderr (for CI logs)" },
	{ "quiet", OPT_QUIET, NULL, "no progress line (default on a terminal: one line updated in place)" },
	{ NULL, 0, NULL, NULL },
};

static const struct cli_option diff_opts[] = {
	{ "max-cost-increase", OPT_MAX_COST, "PCT", "most the total cost may rise, in percent" },
	{ "max-cost-increase-abs", OPT_MAX_COST_ABS, "USD", "most the total cost may rise, in USD" },
	{ "max-unplaced-increase", OPT_MAX_UNPLACED, "N", "most replicas that may be unplaced beyond the baseline's" },
	{ "max-util-drop", OPT_MAX_UTIL_DROP, "PTS", "most memory or compute utilisation may fall, in points" },
	{ "max-weighted-unplaced-increase", OPT_MAX_WEIGHTED, "N",
	  "most the sum of priority x unplaced replicas may rise (priority 1 without a scenario)" },
	{ "fail-unplaced-priority", OPT_FAIL_PRIORITY, "P",
	  "fail when a workload of priority P or above has more unplaced replicas" },
	{ "fail-unplaced", OPT_FAIL_UNPLACED, "WORKLOAD",
	  "fail when this workload has more unplaced replicas (repeatable)" },
	{ "format", OPT_FORMAT, "text|markdown|json|html", "text (default), markdown (a pull-request comment), json or html (a page)" },
	{ NULL, 0, NULL, NULL },
};

static const struct cli_option simulate_opts[] = {
	{ "trace", OPT_TRACE, "FILE",
	  "demand trace CSV: timestamp (ISO 8601 UTC or hours from the start), workload, replicas" },
	{ "generate", OPT_GENERATE, "SPEC",
	  "a generated trace: flat[:growth=G,hours=N] or\n"
	  "daily[:hours_per_day=H,start_hour=S,base=B,weekend=W,workloads=A|B,growth=G,hours=N]" },
	{ "output", OPT_OUTPUT, "DIR", "write the reports into DIR (default ./gpuplan-out)" },
	{ "format", OPT_FORMAT, "both|html|all", "both: the CSV and JSON reports (default); html: report.html; all: both and report.html" },
	{ "hours", OPT_HOURS, "N",
	  "simulate N hourly steps, repeating the trace (default: the longer of the trace\n"
	  "and the scenario's horizon)" },
	{ "lease-hours", OPT_LEASE_HOURS, "H",
	  "a seat stays leased H hours after its last use (default: licensing.lease_hours, else 0)" },
	{ "verify", OPT_VERIFY, NULL, "check every step's plan with the verifier (slower)" },
	{ "progress", OPT_PROGRESS, NULL, "print one progress line per phase on stderr (for CI logs)" },
	{ "quiet", OPT_QUIET, NULL, "no progress line (default on a terminal: one line updated in place)" },
	{ NULL, 0, NULL, NULL },
};

static const struct cli_option no_opts[] = {
	{ NULL, 0, NULL, NULL },
};

static const struct cli_option profiles_opts[] = {
	{ "mig-geometries", OPT_MIG_GEOMETRIES, NULL, "every valid maximal MIG geometry of GPU, one per line" },
	{ "vgpu", OPT_VGPU, NULL, "the GPU's vGPU C-series and MIG-backed vGPU profiles" },
	{ "gpus", OPT_GPUS, "FILE", "also load GPU types from FILE (gpus.yaml format; repeatable)" },
	{ "format", OPT_FORMAT, "table|csv|json", "table (default), csv or json" },
	{ NULL, 0, NULL, NULL },
};

static const struct cli_option bench_opts[] = {
	{ "size", OPT_SIZE, "S|M|L|XL",
	  "S 100 GPUs / 500 replicas, M 1,000 / 5,000,\n"
	  "L 8,000 GPUs in 40 node classes / 20,000 replicas in 200 workloads,\n"
	  "XL 20,000 / 100,000" },
	{ "seed", OPT_SEED, "N", "the random seed, 0..2^63-1 (default 1)" },
	{ "load", OPT_LOAD, "X", "asked GPU-equivalents per GPU, in (0, 2] (default: the size's, see docs/benchmarks.md)" },
	{ "output", OPT_OUTPUT, "DIR", "write inventory.csv, workloads.csv and scenario.yaml into DIR" },
	{ NULL, 0, NULL, NULL },
};

static const struct cli_option import_opts[] = {
	{ "output", OPT_OUTPUT, "DIR", "write the scenario files into DIR (all or nothing)" },
	{ "gpu-id", OPT_GPU_ID, "ID", "nvidia-smi: the id of the GPU type written (e.g. H100-SXM5-80GB)" },
	{ "cpu-cores", OPT_CPU_CORES, "N", "nvidia-smi: CPU cores of each host (nvidia-smi reports none)" },
	{ "ram-gib", OPT_RAM_GIB, "N", "nvidia-smi: RAM of each host in GiB (nvidia-smi reports none)" },
	{ "node", OPT_NODE, "NAME", "nvidia-smi: the node name of one HOST.csv whose hostname is [N/A] or absent\n"
				    "(default: its file name, made a valid node name)" },
	{ "region", OPT_REGION, "REGION", "skypilot: only offers in REGION (e.g. us-east-1)" },
	{ "accelerator", OPT_ACCELERATOR, "NAME", "skypilot: only offers of accelerator NAME (e.g. H100)" },
	{ "as-of", OPT_AS_OF, "DATE", "skypilot: the catalog's date, YYYY-MM-DD (default: the file's modification day, UTC)" },
	{ NULL, 0, NULL, NULL },
};

static const struct cli_option models_opts[] = {
	{ "models", OPT_MODELS, "DIR", "check the models in DIR (default: as gpuplan --models finds them)" },
	{ NULL, 0, NULL, NULL },
};

static const struct cli_option help_opts[] = {
	{ NULL, 0, NULL, NULL },
};

static const struct cli_option sweep_opts[] = {
	{ "output", OPT_OUTPUT, "DIR",
	  "the sweep's directory (default ./sweep-out): run writes DIR/results/CASE.json,\n"
	  "merge reads them and writes its reports into DIR, expand writes DIR/expand.csv and\n"
	  "DIR/cases/CASE/ (the derived scenarios)" },
	{ "shard", OPT_SHARD, "I/K", "run: only the cases i with i mod K = I (0 <= I < K)" },
	{ "shards", OPT_SHARDS, "K",
	  "run: K shards, this one from $JOB_COMPLETION_INDEX (a Kubernetes Indexed Job);\n"
	  "submit: the number of tasks or ranks (default 8)" },
	{ "jobs", OPT_JOBS, "N", "run: N worker processes (default: one per processor, or 1 in a shard)" },
	{ "format", OPT_FORMAT, "csv|json|both|html|all",
	  "merge: the reports' format (default both; html: report.html with the charts)" },
	{ "count", OPT_COUNT, NULL, "expand: only print the number of cases (write nothing)" },
	{ "slurm", OPT_SLURM, NULL, "submit: write DIR/sweep.sbatch, a job array of --shards K tasks, and sbatch it\n"
	  "when sbatch is on PATH" },
	{ "mpi", OPT_MPI, NULL, "submit: print the mpirun line that runs --shards K ranks" },
	{ "k8s", OPT_K8S, NULL, "submit: write DIR/sweep-k8s.yaml, a ConfigMap of the inputs and an Indexed Job\n"
	  "of --shards K pods (kubectl apply -f it)" },
	{ "image", OPT_IMAGE, "IMAGE", "--k8s: the pods' image, with gpuplan installed (default gpuplan:latest)" },
	{ "parallelism", OPT_PARALLELISM, "N", "--k8s: pods at once (default: K, at most 4)" },
	{ "claim", OPT_CLAIM, "NAME",
	  "--k8s: the ReadWriteMany volume claim of the results (default gpuplan-sweep-out)" },
	{ NULL, 0, NULL, NULL },
};

const struct cli_command cli_commands[CMD_COUNT] = {
	[CMD_PLAN] = { "plan", "plan a scenario: modes, partitions, placements, cost",
		       "SCENARIO [-o DIR] [--format csv|json|both|html|all] [--time-limit S] [--gap PCT] [--node-limit N] "
		       "[--threads N] [--export-model FILE.mps|FILE.lp] [--start FILE] [--require-all] [--greedy] "
		       "[--progress | --quiet] [--deploy DIR] [--deploy-namespace NS]",
		       NULL, plan_opts },
	[CMD_COMPARE] = { "compare", "plan several scenarios and line them up (cloud vs on-prem)",
			  "SCENARIO... [-o DIR] [--format csv|json|both|html|all] [--time-limit S] [--gap PCT] "
			  "[--node-limit N] [--threads N] [--greedy] [--progress | --quiet]",
			  "plans every scenario and prints them side by side: cost over the horizon and per year, by\n"
			  "category, per provisioned and per used GPU-hour, utilisation, licences, unplaced replicas and\n"
			  "the mode mix; then ranks them by unplaced demand (by priority), then cost, and gives a verdict",
			  compare_opts },
	[CMD_CHECK] = { "check", "plan a scenario and check it against a baseline plan.json (CI gate)",
			"SCENARIO --baseline FILE.json [--max-cost-increase PCT] [--max-cost-increase-abs USD] "
			"[--max-unplaced-increase N] [--max-util-drop PTS] [--max-weighted-unplaced-increase N] "
			"[--fail-unplaced-priority P] [--fail-unplaced WORKLOAD] [--format text|markdown|json|html] [-o DIR] "
			"[--time-limit S] [--gap PCT] [--node-limit N] [--threads N] [--greedy] [--progress | --quiet]",
			"plans SCENARIO, compares the plan with the baseline plan.json (cost in total and by category,\n"
			"licences, nodes, mode mix, replicas, utilisation, unplaced workloads) and exits 1 when a\n"
			"threshold is exceeded",
			check_opts },
	[CMD_DIFF] = { "diff", "compare two plan.json reports: cost, licences, mode mix, utilisation",
		       "BASELINE.json CURRENT.json [--max-cost-increase PCT] [--max-cost-increase-abs USD] "
		       "[--max-unplaced-increase N] [--max-util-drop PTS] [--max-weighted-unplaced-increase N] "
		       "[--fail-unplaced-priority P] [--fail-unplaced WORKLOAD] [--format text|markdown|json|html]",
		       "compares two plan.json reports as gpuplan check does; checks only the thresholds given\n"
		       "(exit 1 when one is exceeded) and without any only reports",
		       diff_opts },
	[CMD_SIMULATE] = { "simulate", "price ways of buying licences over an hourly demand trace",
			   "SCENARIO (--trace FILE | --generate SPEC) [-o DIR] [--format both|html|all] [--hours N] "
			   "[--lease-hours H] [--verify] [--progress | --quiet]",
			   NULL, simulate_opts },
	[CMD_VALIDATE] = { "validate", "load a scenario and report what it holds", "SCENARIO",
			   "loads SCENARIO and the files it names, checks every field and that each workload fits\n"
			   "some node of the inventory, and prints a summary; exit 0 when valid, 3 on the first\n"
			   "error (one 'gpuplan: FILE:LINE[:COL]: ...' line)",
			   no_opts },
	[CMD_PROFILES] = { "profiles", "list GPU types, MIG profiles and geometries, vGPU profiles",
			   "[--gpus FILE]... [--format table|csv|json]\n"
			   "[--gpus FILE]... [--format table|csv|json] GPU [--mig-geometries | --vgpu]",
			   "without GPU, lists the GPU types; with GPU, the GPU's MIG GPU-instance profiles and\n"
			   "their placements (or, with an option below, its MIG geometries or vGPU profiles)",
			   profiles_opts },
	[CMD_BENCH] = { "bench", "generate synthetic benchmark scenarios (bench/run.sh runs the benchmark)",
			"gen --size S|M|L|XL [--seed N] [--load X] -o DIR",
			"gen writes a synthetic scenario of the given size: inventory.csv, workloads.csv and\n"
			"scenario.yaml; the benchmark itself is bench/run.sh (docs/benchmarks.md)",
			bench_opts },
	[CMD_IMPORT] = { "import", "turn what exists (a cluster, a public trace) into a scenario",
			 "openb NODES.csv PODS.csv -o DIR\nkubectl NODES.json [PODS.json] -o DIR\n"
			 "nvidia-smi LGIP.txt [LGIPP.txt] --gpu-id ID -o DIR\n"
			 "nvidia-smi HOST.csv... --cpu-cores N --ram-gib N [--node NAME] -o DIR\n"
			 "skypilot VMS.csv [--region R] [--accelerator A] [--as-of DATE] -o DIR",
			 "openb: NODES.csv  openb_node_list_gpu_node.csv (sn,cpu_milli,memory_mib,gpu,model)\n"
			 "       PODS.csv   openb_pod_list_*.csv (name,cpu_milli,memory_mib,num_gpu,gpu_milli,...)\n"
			 "       writes inventory.csv, workloads.csv, gpus-openb.yaml, scenario.yaml\n"
			 "kubectl: NODES.json  kubectl get nodes -o json;  PODS.json  kubectl get pods -A -o json\n"
			 "       writes inventory.csv and, with the pods, workloads.csv, scenario.yaml (planned),\n"
			 "       workloads-as-is.csv, as-is.yaml (today's modes): gpuplan compare as-is.yaml scenario.yaml\n"
			 "nvidia-smi: LGIP.txt  nvidia-smi mig -lgip;  LGIPP.txt  nvidia-smi mig -lgipp (one GPU model;\n"
			 "       without it, the placements of the catalog's GPUs with the same profiles)\n"
			 "       writes gpus-ID.yaml, a models/gpus.yaml entry (MIG profiles, usable memory, placements)\n"
			 "nvidia-smi: HOST.csv  nvidia-smi --query-gpu=name,memory.total --format=csv, one file per host\n"
			 "       writes inventory.csv (hosts alike in GPU type and count are one class)\n"
			 "skypilot: VMS.csv  skypilot-catalog catalogs/v7/<cloud>/vms.csv\n"
			 "       writes clouds-skypilot.yaml, offers in models/clouds.yaml's format",
			 import_opts },
	[CMD_MODELS] = { "models", "check the model tables and show the age of their prices",
			 "check [--models DIR]",
			 "check loads gpus.yaml, licenses.yaml and clouds.yaml with every check the planner makes,\n"
			 "checks each GPU's MIG and vGPU tables as a whole, and prints per price table its number of\n"
			 "prices, the oldest and newest as_of, how many are assumed and how many are older than 12\n"
			 "months (from today, or $GPUPLAN_TODAY); exit 0 when consistent, 3 on the first error",
			 models_opts },
	[CMD_SWEEP] = { "sweep", "plan scenarios under changed inputs: sensitivity and Monte Carlo",
			"expand SPEC [-o DIR | --count]\n"
			"run SPEC [-o DIR] [--shard I/K | --shards K] [-j N]\n"
			"merge SPEC [-o DIR] [--format csv|json|both|html|all]\n"
			"submit SPEC (--slurm | --mpi | --k8s [--image I] [--parallelism N] [--claim C]) [--shards K] [-o DIR]",
			"SPEC (gpuplan-sweep/1) names the options (scenarios) and the parameters to vary; expand lists\n"
			"the cases, run plans the cases of one shard (from --shard, else $SLURM_ARRAY_TASK_ID,\n"
			"$SLURM_PROCID, $OMPI_COMM_WORLD_RANK, $PMI_RANK or $JOB_COMPLETION_INDEX; else all, on -j\n"
			"workers) and skips those done, merge writes the report: cost percentiles, the chance each\n"
			"option is best, sensitivity and break-even per parameter; submit writes a Slurm array job,\n"
			"the mpirun line or a Kubernetes Indexed Job (docs/sweep.md)",
			sweep_opts },
	[CMD_HELP] = { "help", "print gpuplan's help, or a command's (as COMMAND --help)", "[COMMAND]", NULL,
		       help_opts },
};

const struct cli_command *cli_command_find(const char *name)
{
	size_t k;
	for (k = 0; k < CMD_COUNT; k++)
		if (!strcmp(cli_commands[k].name, name))
			return &cli_commands[k];
	return NULL;
}

void cli_option_label(char *buf, size_t n, const struct cli_option *o)
{
	const char *sep = o->arg ? " " : "";
	const char *arg = o->arg ? o->arg : "";
	if (o->id < 256)
		snprintf(buf, n, "-%c, --%s%s%s", o->id, o->name, sep, arg);
	else
		snprintf(buf, n, "    --%s%s%s", o->name, sep, arg);
}

/* One synopsis form after prefix, wrapped before " [" at HELP_WIDTH. */
static void write_form(FILE *f, const char *prefix, const char *form, size_t len, size_t indent)
{
	size_t col = strlen(prefix), i = 0;

	fputs(prefix, f);
	while (i < len) {
		const char *next = strstr(form + i + 1, " [");
		size_t end = next && (size_t)(next - form) < len ? (size_t)(next - form) : len;
		if (i && col + (end - i) > HELP_WIDTH) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
			i++;	/* the space */
		}
		fwrite(form + i, 1, end - i, f);
		col += end - i;
		i = end;
	}
	fputc('\n', f);
}

static void write_synopsis(FILE *f, const struct cli_command *c)
{
	const char *s = c->synopsis;
	char prefix[64];
	int first = 1;

	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		snprintf(prefix, sizeof(prefix), "%sgpuplan%s%s ", first ? "usage: " : "       ", c->name ? " " : "",
			 c->name ? c->name : "");
		write_form(f, prefix, s, len, strlen(prefix));
		first = 0;
		s += len + (nl != NULL);
	}
}

/* text with every line indented by indent (after the first when skip_first). */
static void write_indented(FILE *f, const char *text, int indent, int skip_first)
{
	int first = 1;
	for (; *text; text++) {
		if (first && !skip_first)
			fprintf(f, "%*s", indent, "");
		first = 0;
		fputc(*text, f);
		if (*text == '\n')
			fprintf(f, "%*s", indent, "");
	}
	fputc('\n', f);
}

static void write_options(FILE *f, const struct cli_command *c)
{
	const struct cli_option *o;
	char label[128];
	int width = (int)strlen("-h, --help");

	for (o = c->options; o->name; o++) {
		cli_option_label(label, sizeof(label), o);
		if ((int)strlen(label) > width)
			width = (int)strlen(label);
	}
	for (o = c->options;; o++) {
		const struct cli_option *x = o->name ? o : &cli_help_option;
		cli_option_label(label, sizeof(label), x);
		fprintf(f, "  %-*s  ", width, label);
		write_indented(f, x->help, width + 4, 1);
		if (!o->name)
			break;
	}
}

void cli_help_write(FILE *f, const struct cli_command *c)
{
	size_t k;

	write_synopsis(f, c);
	if (c->description) {
		fputc('\n', f);
		write_indented(f, c->description, 2, 0);
	}
	fputc('\n', f);
	write_options(f, c);
	if (c->name)
		return;
	fputs("\ncommands:\n", f);
	for (k = 0; k < CMD_COUNT; k++)
		fprintf(f, "  %-10s %s\n", cli_commands[k].name, cli_commands[k].summary);
	fputs("\nRun 'gpuplan COMMAND --help' for a command's options.\n", f);
}
