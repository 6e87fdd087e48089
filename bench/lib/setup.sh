# shellcheck shell=bash
# bench/lib/setup.sh - bench_setup, sourced by bench/run.sh: installs or finds what
# the benchmark runs.  /usr/bin/time (wall time, peak RSS) and glpsol (GLPK's
# version, the openb bound) are Debian packages installed with apt-get when
# missing; CBC is Debian's coinor-cbc; HiGHS is the npm package `highs` (HiGHS
# compiled to WebAssembly), installed with npm into $npm_dir (build/npm, not
# committed) when missing, as .ci/setup installs its npm packages there.
# Reads and may clear $cbc and $highs (1 = run that solver); sets $cbc_version and
# $highs_version (", CBC 2.10.8" and the like; empty when not run).

# bench_apt PACKAGE...: apt-get install, as root or through sudo, quietly.
bench_apt() {
	local sudo=""
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	{ $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@"; } >/dev/null 2>&1
}

bench_setup() {
	local need=()
	[ -x /usr/bin/time ] || need+=(time)
	command -v glpsol >/dev/null 2>&1 || need+=(glpk-utils)
	[ $highs -eq 0 ] || command -v node >/dev/null 2>&1 || need+=(nodejs npm)
	[ ${#need[@]} -eq 0 ] || bench_apt "${need[@]}"
	[ -x /usr/bin/time ] || { echo "bench/run.sh: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }
	command -v glpsol >/dev/null 2>&1 ||
		echo "bench/run.sh: glpsol missing (apt-get install glpk-utils): no GLPK version, no openb bound" >&2
	cbc_version="" highs_version=""
	if [ $cbc -eq 1 ] && ! command -v cbc >/dev/null 2>&1; then
		echo "bench/run.sh: cbc not on PATH (apt-get install coinor-cbc); no CBC rows" >&2
		cbc=0
	fi
	[ $cbc -eq 0 ] || cbc_version=", CBC $(cbc -quit </dev/null 2>/dev/null | sed -n 's/^Version: *\([^ ]*\).*/\1/p' | head -1)"
	[ $highs -eq 1 ] || return 0
	# highs 1.15.3 embeds HiGHS 1.15.1, the version the project's notes measured
	if [ ! -d "$npm_dir/node_modules/highs" ] && command -v npm >/dev/null 2>&1; then
		mkdir -p "$npm_dir" &&
			npm install --prefix "$npm_dir" --no-audit --no-fund --silent highs@1.15.3 >/dev/null 2>&1
	fi
	highs_version=$(NODE_PATH=$npm_dir/node_modules node "$here/lib/highs.js" --version 2>/dev/null)
	if [ -z "$highs_version" ]; then
		echo "bench/run.sh: HiGHS (npm highs) not installed in $npm_dir and npm could not install it; no HiGHS rows" >&2
		highs=0
	else
		highs_version=", $highs_version"
	fi
}
