#!/bin/bash
# test_html.sh - report.html is one self-contained, well-formed file: the
# pages of plan, compare, simulate, check, roadmap and sweep merge parse as XML (xmllint, from
# Debian's libxml2-utils), hold no script, link, image, iframe or
# src/href attribute and no CSS @import or url(); names with markup in
# them stay text; the bytes are the same on every run (a sweep: -j 1 and -j 2) and in every
# locale; and a plan of bench size L stays a sane size (identical nodes
# are drawn once).
#
# usage: bash test_html.sh GPUPLAN_EXE SRC_DIR WORK_DIR
# Ends with "N passed, N failed" and exits 1 on any failure; without
# xmllint the parsing checks are skipped with a message.
. "$(dirname "$0")/lib.sh"
cases=$src/tests/cases

run() { # run NAME ARGS...: gpuplan ARGS > NAME.out 2> NAME.err, must exit 0 (check: 1)
	local name=$1
	shift
	"$exe" "$@" >"$name.out" 2>"$name.err"
}

run plan plan "$scenario" -o plan --format html && ok || bad "plan exited $?: $(cat plan.err)"
LC_ALL=de_DE.UTF-8 run plan2 plan "$scenario" -o plan2 --format all && ok || bad "plan (de_DE) exited $?"
(cd "$cases/compare-html" && "$exe" compare bm.yaml cloud.yaml -o "$work/compare" --format html >/dev/null) \
	&& ok || bad "compare exited $?"
run sim simulate "$scenario" --trace "$src/data/example/trace.csv" --hours 720 -o sim --format html \
	&& ok || bad "simulate exited $?"
run sim2 simulate "$scenario" --trace "$src/data/example/trace.csv" --hours 720 -o sim2 --format all \
	&& ok || bad "simulate (all) exited $?"
(cd "$cases/check-html" && "$exe" check scenario.yaml --baseline "$src/reports/baseline/example.json" \
	--format html >"$work/check.html" 2>/dev/null)
[ $? -eq 1 ] && ok || bad "check did not exit 1"
(cd "$cases/plan-html-hostile" && "$exe" plan scenario.yaml -o "$work/hostile" --format html >/dev/null 2>&1) \
	&& ok || bad "hostile plan exited $?"
run roadmap roadmap "$src/data/example/roadmap/scenario.yaml" -o roadmap && ok || bad "roadmap exited $?: $(cat roadmap.err)"
(cd "$cases/plan-resilience-html" && "$exe" plan scenario.yaml -o "$work/resil" --format html >/dev/null 2>&1) \
	&& ok || bad "resilience plan exited $?"
pages="plan/report.html compare/report.html sim/report.html check.html hostile/report.html roadmap/report.html"
pages="$pages resil/report.html"
# sweeps: one-at-a-time (tornado), grid and Monte Carlo (distributions), the same bytes from -j 1 and -j 2
for spec in oat grid mc; do
	"$exe" sweep run "$src/tests/sweep/$spec.yaml" -o "sw-$spec" -j 1 >/dev/null \
		&& LC_ALL=de_DE.UTF-8 "$exe" sweep merge "$src/tests/sweep/$spec.yaml" -o "sw-$spec" --format html >/dev/null \
		&& "$exe" sweep run "$src/tests/sweep/$spec.yaml" -o "sw2-$spec" -j 2 >/dev/null \
		&& "$exe" sweep merge "$src/tests/sweep/$spec.yaml" -o "sw2-$spec" --format all >/dev/null && ok || bad "sweep $spec failed"
	cmp -s "sw-$spec/report.html" "sw2-$spec/report.html" && ok || bad "sweep $spec report.html differs between runs"
	[ ! -e "sw-$spec/sweep.json" ] && [ -s "sw2-$spec/sweep.json" ] && ok || bad "sweep merge --format html/all wrote the wrong files"
	pages="$pages sw-$spec/report.html"
done

# the same bytes: run to run, locale to locale, --format html and all
cmp -s plan/report.html plan2/report.html && ok || bad "plan report.html differs between runs/locales"
cmp -s sim/report.html sim2/report.html && ok || bad "simulate report.html differs between runs"
[ -s plan2/plan.json ] && [ -s plan2/summary.csv ] && ok || bad "--format all did not write the CSV and JSON"
[ ! -e plan/plan.json ] && ok || bad "--format html wrote plan.json"
[ -s sim2/timeseries.csv ] && [ ! -e sim/timeseries.csv ] && ok || bad "simulate --format html/all wrote the wrong files"

for p in $pages; do
	head -c 15 "$p" | grep -q '^<!DOCTYPE html>' && ok || bad "$p does not start with <!DOCTYPE html>"
	# nothing from outside, checked on the raw text for what no page of ours writes at all
	if grep -Eio '@import|url\(|https?://[^" ]*' "$p" | grep -vqx 'http://www.w3.org/2000/svg'; then
		bad "$p refers to something outside"
	else
		ok
	fi
done

if ! command -v xmllint >/dev/null; then
	echo "SKIP: xmllint not installed (Debian package libxml2-utils); the parsing checks are skipped"
	finish
fi
for p in $pages; do
	if xmllint --noout "$p" 2>"$p.lint"; then ok; else bad "$p is not well-formed: $(head -3 "$p.lint")"; fi
	n=$(xmllint --xpath 'count(//@src|//@href|//*[local-name()="script" or local-name()="link" or local-name()="img" or local-name()="iframe" or local-name()="object" or local-name()="embed"])' "$p")
	[ "$n" = 0 ] && ok || bad "$p has $n script/link/img/iframe elements or src/href attributes"
	css=$(xmllint --xpath 'string(//*[local-name()="style"])' "$p")
	case $css in *url\(*|*@import*) bad "$p: the style sheet loads something" ;; *) ok ;; esac
	# every chart has a title, and a table of its numbers follows it
	charts=$(xmllint --xpath 'count(//*[local-name()="figure"])' "$p")
	titled=$(xmllint --xpath 'count(//*[local-name()="figure"]/*[local-name()="svg"]/*[local-name()="title"])' "$p")
	tables=$(xmllint --xpath 'count(//*[local-name()="figure"]/following-sibling::*[1][local-name()="details"])' "$p")
	[ "$charts" -gt 0 ] && [ "$charts" = "$titled" ] && [ "$charts" = "$tables" ] && ok \
		|| bad "$p: $charts charts, $titled with a title, $tables followed by their table"
done
# the hostile names are text: no element came from them, and the text reads as written
h=hostile/report.html
[ "$(xmllint --xpath 'count(//*[local-name()="b" or local-name()="i"])' $h)" = 0 ] && ok || bad "$h: a name became markup"
xmllint --xpath 'string(//*[local-name()="title"][1])' $h | grep -qF "<script>alert('scenario')</script> & \"co\"" \
	&& ok || bad "$h: the scenario's name does not read as written"
xmllint --xpath 'string(//*[local-name()="section"][@id="unplaced"])' $h | grep -qF 'too-big "</td>"' \
	&& ok || bad "$h: the unplaced workload's name does not read as written"
xmllint --xpath 'string(//*[local-name()="section"][@id="cost"])' $h | grep -qF "O'Neil & \"Co\" <b>" \
	&& ok || bad "$h: the tenant's name does not read as written"

# the headroom's cost sits in the Failures section (issue #62), the node names it gives as text
f=$(xmllint --xpath 'string(//*[local-name()="section"][@id="failures"])' resil/report.html)
grep -qF 'What the headroom costs' <<<"$f" && grep -qF '1752.00 USD per year' <<<"$f" && grep -qF '876.00 USD' <<<"$f" \
	&& ok || bad "resil: no headroom cost in the Failures section"
grep -qF '2 by the worst failure checked, <b>n</b>&amp;-000+' <<<"$f" && ok || bad "resil: the worst nodes do not read as written"
[ "$(xmllint --xpath 'count(//*[local-name()="b"])' resil/report.html)" = 0 ] && ok || bad "resil: a node name became markup"

# a large plan stays a page: bench L, greedy, at most 12 layouts drawn per node class
"$exe" bench gen --size L -o benchL >/dev/null && "$exe" plan benchL/scenario.yaml --greedy --format html -o benchL/out \
	>/dev/null && ok || bad "bench L plan failed"
size=$(wc -c <benchL/out/report.html)
[ "$size" -lt 3000000 ] && ok || bad "bench L report.html is $size bytes"
xmllint --noout benchL/out/report.html && ok || bad "bench L report.html is not well-formed"
finish
