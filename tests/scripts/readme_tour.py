#!/usr/bin/env python3
"""readme_tour.py - every `$ command` block of the README's tour against what it prints.

usage: readme_tour.py README BINDIR SRC_DIR WORK_DIR

Runs README command 1's plan first (the tour starts "after command 1"), then
every fenced block of README.md whose first line starts with "$ ", its
commands in order in one shell (so `echo $?` sees the command before), in
WORK_DIR, where data/, tests/ and reports/ are links into SRC_DIR and BINDIR
is first on PATH.  Each command's stdout is compared with the lines the
README shows under it, up to the next "$ " line:
  - a line that is only "..." stands for any number of lines (none too);
  - "..." inside a line stands for any text within that line;
  - every other line must be equal.
Prints one FAIL line per mismatch with a unified diff, and exits 1 on any.
"""
import difflib
import os
import re
import subprocess
import sys

MARK = "@@readme-tour-command@@"


def tour_blocks(readme):
    """The fenced blocks whose first line is a `$ ` command, as (line number, lines)."""
    blocks, cur, start, inside = [], None, 0, False
    with open(readme, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("```"):
                if inside and cur and cur[0].startswith("$ "):
                    blocks.append((start, cur))
                inside, cur, start = not inside, [], no + 1
            elif inside:
                cur.append(line)
    return blocks


def commands(block):
    """The block's (command, expected lines) pairs."""
    out = []
    for line in block:
        if line.startswith("$ "):
            out.append((line[2:], []))
        else:
            out[-1][1].append(line)
    return out


def line_matches(pattern, line):
    if "..." not in pattern:
        return pattern == line
    parts = [re.escape(p) for p in pattern.split("...")]
    return re.fullmatch(".*".join(parts), line, re.S) is not None


def matches(want, got):
    """Whether the lines got fit the pattern lines want ("..." alone: any lines)."""
    memo = {}

    def m(i, j):
        if (i, j) in memo:
            return memo[(i, j)]
        if i == len(want):
            r = j == len(got)
        elif want[i] == "...":
            r = any(m(i + 1, k) for k in range(j, len(got) + 1))
        else:
            r = j < len(got) and line_matches(want[i], got[j]) and m(i + 1, j + 1)
        memo[(i, j)] = r
        return r

    return m(0, 0)


def main():
    readme, bindir, src, work = sys.argv[1:5]
    for d in ("data", "tests", "reports"):
        os.symlink(os.path.join(src, d), os.path.join(work, d))
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"], LC_ALL="C")
    # each command sees the exit status of the one before it, not the marker's echo
    script = ["gpuplan plan data/example/scenario.yaml >/dev/null || exit 1", "status() { return $1; }"]
    pairs = []
    for no, block in tour_blocks(readme):
        for cmd, want in commands(block):
            pairs.append((no, cmd, want))
            script += ["rc=$?; echo '%s'; status $rc" % MARK, cmd]
    if len(pairs) < 2:
        print("FAIL: found %d tour commands in %s" % (len(pairs), readme))
        return 1
    run = subprocess.run(["bash", "-c", "\n".join(script)], cwd=work, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    outs = run.stdout.split(MARK + "\n")[1:]
    fails = 0
    if len(outs) != len(pairs):
        print("FAIL: the tour stopped after %d of %d commands: %s" % (len(outs), len(pairs), run.stderr))
        return 1
    for (no, cmd, want), out in zip(pairs, outs):
        got = out.split("\n")
        if got and got[-1] == "":
            got.pop()
        if matches(want, got):
            continue
        fails += 1
        print("FAIL: README.md:%d: `%s` prints other lines than the README shows:" % (no, cmd))
        sys.stdout.writelines(difflib.unified_diff([w + "\n" for w in want], [g + "\n" for g in got],
                                                   "README.md", "output"))
    print("%d commands checked, %d differ" % (len(pairs), fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
