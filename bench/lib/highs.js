// bench/lib/highs.js - solves an MPS file with HiGHS (npm `highs`: HiGHS compiled to
// WebAssembly, single-threaded) and prints one line bench/run.sh parses:
//   highs: status NAME objective X bound Y gap G time T
// X is the best plan's objective ("none" without one), Y HiGHS's proven lower bound
// (mip_dual_bound), G its relative gap, T HiGHS's own run time in seconds.
//
// usage: NODE_PATH=DIR/node_modules node bench/lib/highs.js MODEL.mps SECONDS [REL_GAP [SOLUTION]]
//        NODE_PATH=DIR/node_modules node bench/lib/highs.js --version
// SECONDS is HiGHS's `time_limit`, which HiGHS counts in wall-clock seconds
// (highs/util/HighsTimer.h: std::chrono::high_resolution_clock); REL_GAP is
// `mip_rel_gap` (default 1e-4, as CBC's `ratio` in bench/run.sh).  With SOLUTION, a
// plan found is written there as HiGHS's raw solution file (exportSolution(), the
// format of `highs --solution_file`), for `gpuplan plan --start`.
"use strict";
const fs = require("fs");
const path = require("path");
const loadHighs = require("highs");

const [file, limit, gap, solution] = process.argv.slice(2);
if (file === "--version") {
	const pkg = path.join(path.dirname(require.resolve("highs")), "..", "package.json");
	loadHighs().then((highs) => {
		console.log("HiGHS " + highs.version.string + " (WebAssembly, npm highs " +
			JSON.parse(fs.readFileSync(pkg, "utf8")).version + ")");
	});
	return;
}
if (!file || !limit) {
	console.error("usage: node highs.js MODEL.mps SECONDS [REL_GAP [SOLUTION]]");
	process.exit(2);
}
loadHighs().then((highs) => {
	const model = highs.createModel({ format: "mps", data: fs.readFileSync(file) });
	try {
		model.options.set({
			time_limit: Number(limit),
			mip_rel_gap: Number(gap || "1e-4"),
			output_flag: false,
		});
		const run = model.run();
		const names = highs.constants.modelStatus;
		let st = String(run.modelStatus);
		for (const k of Object.keys(names))
			if (names[k] === run.modelStatus) st = k;
		const info = (k) => {
			try { return Number(model.info.get(k)); } catch (e) { return NaN; }
		};
		const has = info("primal_solution_status") === 2;
		if (has && solution)
			fs.writeFileSync(solution, model.exportSolution(false));
		const num = (v) => (Number.isFinite(v) ? String(v) : "none");
		console.log("highs: status " + st +
			" objective " + (has ? num(info("objective_function_value")) : "none") +
			" bound " + num(info("mip_dual_bound")) +
			" gap " + num(info("mip_gap")) +
			" time " + model.getRunTime().toFixed(2));
	} finally {
		model.dispose();
	}
}).catch((e) => {
	console.error("highs: " + e.message);
	process.exit(1);
});
