# shellcheck shell=bash
# bench/lib/busy.sh - a fixed oversubscription for bench/paired.sh: N busy-loop
# processes per core, started before the runs they load and stopped after them (and
# at the script's exit, however it ends: the caller traps EXIT, INT and TERM).
# Each loop is `sh -c 'while :; do :; done' TAG`, TAG naming the run, so `pgrep -f
# TAG` finds every loop one run started and none of another's.

busy_pids=""

# bench_busy_start N TAG: start N loops per core (nproc), named TAG.
bench_busy_start() {
	local n=$(($1 * $(nproc))) i
	for ((i = 0; i < n; i++)); do
		sh -c 'while :; do :; done' "$2" &
		busy_pids="$busy_pids $!"
	done
}

# bench_busy_stop: stop the loops bench_busy_start started, and wait for them.
bench_busy_stop() {
	[ -n "$busy_pids" ] || return 0
	# shellcheck disable=SC2086
	kill $busy_pids 2>/dev/null
	# shellcheck disable=SC2086
	wait $busy_pids 2>/dev/null
	busy_pids=""
}
