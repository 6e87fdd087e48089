#!/usr/bin/env bash
# test_install.sh - an installed gpuplan is relocatable and finds its
# models: `cmake --install` into a temporary prefix, then the example
# scenario, copied elsewhere without a `models:` line, planned by the
# installed binary with GPUPLAN_MODELS unset, gives the same reports as
# the build tree's gpuplan on data/example (as the golden case
# plan-example runs it).  Also checks the installed man page and
# completion file.
# usage: bash test_install.sh GPUPLAN_EXE SRC_DIR WORK_DIR
. "$(dirname "$0")/lib.sh"

build=$(cd "$(dirname "$exe")/.." && pwd)
[ -f "$build/CMakeCache.txt" ] || { echo "SKIP: no build tree above $exe"; exit 0; }
unset GPUPLAN_MODELS
if cmake --install "$build" --prefix "$work/p" >install.log 2>&1; then ok; else bad "cmake --install failed: $(cat install.log)"; finish; fi
for f in bin/gpuplan share/gpuplan/models/gpus.yaml share/gpuplan/models/licenses.yaml \
	share/gpuplan/models/clouds.yaml share/man/man1/gpuplan.1 share/bash-completion/completions/gpuplan; do
	if [ -s "p/$f" ]; then ok; else bad "not installed: $f"; fi
done

# the example elsewhere, without models:, so only the installed models can serve
mkdir -p ex && cp "$src"/data/example/* ex/ && sed -i '/^models:/d' ex/scenario.yaml
if grep -q '^models:' ex/scenario.yaml; then bad "models: still in the copy"; else ok; fi
# moved after installing: the lookup is relative to the executable
mv p q
LC_ALL=C q/bin/gpuplan plan ex/scenario.yaml -o out-installed >installed.stdout 2>installed.err
rc=$?
if [ $rc -eq 0 ]; then ok; else bad "installed gpuplan exited $rc: $(cat installed.err)"; fi
LC_ALL=C "$exe" plan "$src/data/example/scenario.yaml" -o out-build >build.stdout 2>build.err
rc=$?
if [ $rc -eq 0 ]; then ok; else bad "build gpuplan exited $rc: $(cat build.err)"; fi
if diff -r out-build out-installed >reports.diff; then ok; else bad "reports differ:"; head -20 reports.diff; fi
# the summary names the scenario file and the output dir: compare the rest
sed 's/out-build/OUT/; s|[^ ]*data/example/scenario.yaml|SC|' build.stdout >a.txt
sed 's/out-installed/OUT/; s|ex/scenario.yaml|SC|' installed.stdout >b.txt
if cmp -s a.txt b.txt; then ok; else bad "summaries differ:"; diff a.txt b.txt; fi
# and it did read the installed models: a broken installed gpus.yaml is what it reports
echo 'gpus: [' >q/share/gpuplan/models/gpus.yaml
q/bin/gpuplan profiles >/dev/null 2>broken.err
rc=$?
if [ $rc -eq 3 ] && grep -q 'q/bin/../share/gpuplan/models/gpus.yaml' broken.err; then ok
else bad "installed gpuplan with a broken installed gpus.yaml: exit $rc, $(cat broken.err)"; fi
finish
