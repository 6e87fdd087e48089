# shellcheck shell=bash
# shellcheck disable=SC2154  # npm_dir and here: set by the script that sources this
# bench/lib/solve.sh - CBC and HiGHS on a model gpuplan exported, and their plans made
# concrete by gpuplan; sourced by bench/run.sh and bench/paired.sh.  Reads $npm_dir
# (where npm `highs` is) and $here (bench/).

# bench_solve cbc|highs MODEL LIMIT TAG: the solver on MODEL (an MPS file) with LIMIT
# wall-clock seconds and relative gap 1e-4, under /usr/bin/time (time-TAG); its log in
# TAG.log, its solution in TAG.sol; prints its result line (bench/lib/parse.sh), status
# "killed" when the watchdog stopped it.
bench_solve() {
	local solver=$1 model=$2 tl=$3 tag=$4 res
	local t=$((tl * 2 + 60))
	rm -f "$tag.sol"
	case $solver in
	cbc)
		# timeMode elapsed: `sec` counts wall-clock seconds (CBC's default counts CPU seconds)
		/usr/bin/time -f "%e %M" -o "time-$tag" timeout -k 30 $t cbc "$model" timeMode elapsed \
			ratio 1e-4 sec "$tl" solve solution "$tag.sol" >"$tag.log" 2>&1
		res=$(bench_cbc "$tag.log") ;;
	highs)
		/usr/bin/time -f "%e %M" -o "time-$tag" timeout -k 30 $t env NODE_PATH="$npm_dir/node_modules" \
			node "$here/lib/highs.js" "$model" "$tl" 1e-4 "$tag.sol" >"$tag.log" 2>&1
		res=$(bench_highs "$tag.log") ;;
	esac
	! grep -q -E 'status (124|137)$' "time-$tag" 2>/dev/null || res="killed ${res#* }"
	echo "$res"
}

# bench_concrete GPUPLAN SCENARIO TAG LIMIT: the solver's plan TAG.sol made concrete by
# GPUPLAN (`plan --start`: dealt over real nodes, not timed); prints its cost, "-" when
# there is no solution.
bench_concrete() {
	local exe=$1 scen=$2 tag=$3 tl=$4
	if [ -s "$tag.sol" ]; then
		"$exe" --verbose plan "$scen" --start "$tag.sol" -o "out-$tag" --format csv \
			--time-limit "$tl" >"start-$tag.log" 2>&1
		bench_start "start-$tag.log"
	else
		echo "-"
	fi
}
