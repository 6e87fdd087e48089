#!/usr/bin/env python3
"""Upper bound on the GPU allocation rate of the openb trace, all pods at once.

usage: bench/openb_bound.py NODES.csv PODS.csv

The bound relaxes everything but the GPU sharing itself: any GPU may take
any pod (no gpu_spec, no CPU or RAM, multi-GPU pods need not share a node),
and each pod class may be placed in part.  What it keeps: a GPU holds
either whole-GPU demand or fractional pods whose gpu_milli sum to at most
1000, at most 20 of them (1000 / the smallest share, 50).  The LP over all
fill patterns of the fractional sizes (Gilmore-Gomory) then maximises the
placed GPU demand; no placement can exceed its optimum.

Needs python3 and glpsol (Debian package glpk-utils); not part of the build
or of the tests.
"""
import collections
import csv
import os
import subprocess
import sys
import tempfile


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2])
    nodes, pods = sys.argv[1], sys.argv[2]
    cap = sum(int(r["gpu"]) for r in csv.DictReader(open(nodes)))
    frac = collections.Counter()
    whole = 0
    for r in csv.DictReader(open(pods)):
        n, m = int(r["num_gpu"]), int(r["gpu_milli"])
        if n == 0:
            continue
        if n == 1 and m < 1000:
            frac[m] += 1
        else:
            whole += n
    sizes = sorted(frac)
    kmax = 1000 // sizes[0] if sizes else 1
    pats = []

    def rec(i, room, slots, cur):
        if i == len(sizes):
            if cur:
                pats.append(dict(cur))
            return
        s = sizes[i]
        for k in range(min(room // s, slots), -1, -1):
            if k:
                cur[s] = k
            rec(i + 1, room - k * s, slots - k, cur)
            cur.pop(s, None)

    rec(0, 1000, kmax, {})
    asked = whole + sum(s * c for s, c in frac.items()) / 1000
    with tempfile.TemporaryDirectory() as tmp:
        lp, sol = os.path.join(tmp, "bound.lp"), os.path.join(tmp, "bound.sol")
        with open(lp, "w") as f:
            f.write("Maximize\n obj: w")
            for s in sizes:
                f.write(" + %.6f x%d" % (s * frac[s] / 1000, s))
            f.write("\nSubject To\n cap: w")
            for i in range(len(pats)):
                f.write(" + p%d" % i)
            f.write(" <= %d\n" % cap)
            for s in sizes:
                f.write(" d%d: - %d x%d" % (s, frac[s], s))
                for i, p in enumerate(pats):
                    if s in p:
                        f.write(" + %d p%d" % (p[s], i))
                f.write(" >= 0\n")
            f.write("Bounds\n w <= %d\n" % whole)
            for s in sizes:
                f.write(" x%d <= 1\n" % s)
            f.write("End\n")
        subprocess.run(["glpsol", "--lp", lp, "-w", sol], check=True, stdout=subprocess.DEVNULL)
        with open(sol) as f:
            for line in f:
                if line.startswith("s "):
                    obj = float(line.split()[-1])
                    break
    print("openb bound: %d GPUs, asked %.2f (%.2f%%), %d fill patterns of %d shares; "
          "at most %.2f placed: allocation rate <= %.2f%%"
          % (cap, asked, 100 * asked / cap, len(pats), len(sizes), obj, 100 * obj / cap))


if __name__ == "__main__":
    main()
