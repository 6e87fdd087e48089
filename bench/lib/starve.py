#!/usr/bin/env python3
# bench/lib/starve.py - a fixed CPU starvation that does not load the machine
# further: runs a command and lets it run only a share of every period, stopping
# its process group (SIGSTOP) for the rest and letting it go on (SIGCONT) at the
# next period.  A process that gets a fifth of every 10 ms sees a third to a fifth
# of a processor, whatever else the machine runs: what issue #58 calls a starved
# run.  The command's wall time and CPU time (user + sys, its children's too) go
# to stderr as one line, `starve: wall W s cpu C s`; the exit code is the command's.
#
#   bench/lib/starve.py [--share 0.2] [--period-ms 10] -- COMMAND [ARGS...]
import argparse
import os
import resource
import signal
import sys
import time


def main():
    ap = argparse.ArgumentParser(description="run COMMAND a share of every period")
    ap.add_argument("--share", type=float, default=0.2, help="share of each period it runs (0 < s <= 1)")
    ap.add_argument("--period-ms", type=float, default=10.0, help="the period, milliseconds")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not cmd or not 0 < a.share <= 1 or a.period_ms <= 0:
        ap.error("a command, 0 < --share <= 1 and --period-ms > 0 are needed")
    run_s = a.period_ms * a.share / 1000.0
    stop_s = a.period_ms * (1 - a.share) / 1000.0
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.setpgid(0, 0)
        try:
            os.execvp(cmd[0], cmd)
        finally:
            os._exit(127)
    try:
        os.setpgid(pid, pid)
    except OSError:
        pass  # the child set it first (or has already exited)

    def stop(signum, _frame):
        try:
            os.killpg(pid, signal.SIGCONT)
            os.killpg(pid, signum)
        except OSError:
            pass

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    status = None
    while status is None:
        time.sleep(run_s)
        if stop_s > 0:
            try:
                os.killpg(pid, signal.SIGSTOP)
            except OSError:
                pass
            time.sleep(stop_s)
            try:
                os.killpg(pid, signal.SIGCONT)
            except OSError:
                pass
        done, st = os.waitpid(pid, os.WNOHANG)
        if done:
            status = st
    wall = time.monotonic() - t0
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    print("starve: wall %.2f s cpu %.2f s" % (wall, ru.ru_utime + ru.ru_stime), file=sys.stderr)
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


if __name__ == "__main__":
    sys.exit(main())
