#!/usr/bin/env bash
# tests/fuzz/run.sh [SECONDS] [HARNESS...] - builds the libFuzzer harnesses
# with clang (ASan+UBSan) and runs each for SECONDS (default 60) on 2 jobs.
#
#   tests/fuzz/run.sh 600            every harness for 10 minutes
#   tests/fuzz/run.sh 60 csv yaml    two of them
#   tests/fuzz/run.sh 3600 inventory one for an hour
#   tests/fuzz/run.sh --runs N [HARNESS...]
#                                    N inputs each, seed 1, one process: the
#                                    same inputs on any machine (ctest's fuzz-ci/*)
#   tests/fuzz/run.sh --build        only build (the core once, into core.a)
#
# Installs clang and libclang-rt-14-dev with apt-get when missing (sudo
# when not root).  The growing corpus lives in build-fuzz/corpus/NAME
# (seeded from tests/fuzz/corpus/NAME); a crash, leak or timeout is copied
# to tests/fuzz/crashes/NAME/, which ctest replays from then on (fuzz/NAME
# tests).  Exits 1 when any harness found something.
set -euo pipefail
cd "$(dirname "$0")/../.."
src=$PWD
runs=
build_only=
case ${1:-} in
--runs) runs=$2; shift 2 ;;
--build) build_only=1; shift ;;
esac
secs=${1:-60}
[ -n "$runs$build_only" ] || shift || true
harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
	for f in "$src"/tests/fuzz/fuzz_*.c; do
		f=${f##*/fuzz_}
		harnesses+=("${f%.c}")
	done
fi
out=${GPUPLAN_FUZZ_DIR:-$src/build-fuzz}
jobs=${GPUPLAN_FUZZ_JOBS:-2}

need=()
command -v clang >/dev/null || need+=(clang)
fuzzlib=$(ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a 2>/dev/null | head -1 || true)
[ -n "$fuzzlib" ] || need+=(libclang-rt-14-dev)
for p in libyaml-dev libcsv-dev libcjson-dev libglpk-dev; do
	dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
	sudo=
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update -q
	$sudo apt-get install -y -q "${need[@]}"
fi

mkdir -p "$out"
core=()
incs=()
for d in "$src"/planner/*/; do
	case $(basename "$d") in cli | cmake) continue ;; esac
	incs+=(-I"$d")
	core+=("$d"*.c)
done
flags=(-g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L
	"-DGPUPLAN_MODELS_DIR=\"$src/models\"" "-DFUZZ_MODELS_DIR=\"$src/models\"" -DGPUPLAN_VERSION=\"fuzz\"
	"${incs[@]}" -I/usr/include/cjson
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
libs=(-lyaml -lcjson -lglpk -lcsv -lm)

# The core, compiled once per change of planner/ (objects in parallel).
lib=$out/core.a
if [ ! -f "$lib" ] || [ -n "$(find "$src/planner" -newer "$lib" \( -name '*.c' -o -name '*.h' \) -print -quit)" ]; then
	echo "== building the core with clang"
	rm -rf "$out/obj" && mkdir -p "$out/obj"
	export FUZZ_FLAGS="${flags[*]}"
	printf '%s\n' "${core[@]}" | xargs -P "$jobs" -I{} sh -c \
		'o=$1; n=$(echo "$o" | tr / _); clang $FUZZ_FLAGS -fsanitize=fuzzer-no-link -c "$o" -o "$2/${n%.c}.o"' _ {} "$out/obj"
	rm -f "$lib" && ar rcs "$lib" "$out"/obj/*.o
fi

found=0
for h in "${harnesses[@]}"; do
	echo "== fuzz_$h: building"
	clang "${flags[@]}" "$src/tests/fuzz/fuzz_$h.c" -I"$src/tests/fuzz" "$lib" "${libs[@]}" -o "$out/fuzz_$h"
	[ -z "$build_only" ] || continue
	mkdir -p "$out/corpus/$h" "$out/artifacts/$h"
	dict=()
	[ -f "$src/tests/fuzz/$h.dict" ] && dict=(-dict="$src/tests/fuzz/$h.dict")
	if [ -n "$runs" ]; then
		# deterministic: the seed corpus only (nothing grown), seed 1, N inputs
		echo "== fuzz_$h: $runs inputs, seed 1"
		rm -rf "$out/ci-corpus/$h" && mkdir -p "$out/ci-corpus/$h" # new inputs go here, not into the tree
		set +e
		(cd "$out/artifacts/$h" && "$out/fuzz_$h" "$out/ci-corpus/$h" "$src/tests/fuzz/corpus/$h" "${dict[@]}" -runs="$runs" \
			-seed=1 -max_len=65536 -timeout=60 -rss_limit_mb=2048 -print_final_stats=1 \
			-artifact_prefix="$out/artifacts/$h/" >"$out/fuzz_$h.log" 2>&1)
		rc=$?
		set -e
		grep -h "stat::number_of_executed_units\|stat::new_units_added\|DONE" "$out/fuzz_$h.log" || true
	else
		echo "== fuzz_$h: ${secs}s on $jobs jobs"
		set +e
		(cd "$out/artifacts/$h" &&
			"$out/fuzz_$h" "$out/corpus/$h" "$src/tests/fuzz/corpus/$h" "${dict[@]}" \
				-max_total_time="$secs" -jobs="$jobs" -workers="$jobs" -max_len=65536 -timeout=10 \
				-rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$out/artifacts/$h/" \
				>"$out/fuzz_$h.log" 2>&1)
		rc=$?
		set -e
		grep -h "stat::number_of_executed_units\|cov:" "$out/artifacts/$h"/fuzz-*.log 2>/dev/null | tail -2 || true
	fi
	shopt -s nullglob
	arts=("$out/artifacts/$h"/crash-* "$out/artifacts/$h"/leak-* "$out/artifacts/$h"/timeout-* "$out/artifacts/$h"/oom-*)
	shopt -u nullglob
	if [ ${#arts[@]} -gt 0 ] || [ $rc -ne 0 ]; then
		found=1
		mkdir -p "$src/tests/fuzz/crashes/$h"
		for a in "${arts[@]}"; do
			cp "$a" "$src/tests/fuzz/crashes/$h/"
			echo "FOUND: $a (copied to tests/fuzz/crashes/$h/)"
		done
		echo "fuzz_$h exited $rc; see $out/fuzz_$h.log"
		[ -z "$runs" ] || tail -40 "$out/fuzz_$h.log"
	else
		echo "fuzz_$h: clean"
	fi
done
exit $found
