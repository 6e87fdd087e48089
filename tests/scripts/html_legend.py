#!/usr/bin/env python3
"""html_legend.py - the workload legend of a plan's report.html against its workloads file.

usage: html_legend.py WORKLOADS_CSV PROBE_FILE

PROBE_FILE holds what test_html_browser.sh's probe saw, among it one
"legend-name NAME" line per legend entry (NAME URI-encoded, so that markup,
quotes and non-ASCII survive --dump-dom).  Every legend name must be a
workload's name exactly as the workloads file writes it (the full name,
escaped as text, not cut), and none may appear twice.  Prints the number of
legend entries, and one "FAIL: ..." line per fault; exits 1 on any.
"""
import csv
import sys
import urllib.parse


def workload_names(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = csv.reader(line for line in f if not line.startswith("#"))
        head = next(rows)
        col = head.index("name")
        return {row[col] for row in rows if row}


def main():
    names = workload_names(sys.argv[1])
    seen, faults = [], 0
    with open(sys.argv[2], encoding="utf-8") as f:
        for line in f:
            if line.startswith("legend-name "):
                seen.append(urllib.parse.unquote(line[len("legend-name "):].rstrip("\n")))
    for n in seen:
        if n not in names:
            print(f"FAIL: legend entry {n!r} is not a workload's full name")
            faults += 1
    if len(set(seen)) != len(seen):
        print("FAIL: a workload is twice in the legend")
        faults += 1
    print(len(seen))
    return 1 if faults else 0


sys.exit(main())
