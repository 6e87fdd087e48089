#!/bin/bash
# test_html_browser.sh - report.html opened in a real browser (Debian's
# headless chromium), offline: the pages of plan, compare, simulate,
# check and sweep merge (one-at-a-time, grid and Monte Carlo; each with the
# figures its design supports), a plan with a resilience: block (the
# headroom's cost) and the plan with markup in its names render with no console
# message, load nothing (no resource besides the page itself), have the
# expected sections and charts (each chart's title and marks), no
# horizontal scroll at 1280 px, names with <, & and quotes as text, and a
# screenshot of the plan page that is not blank.  On every page, as the
# browser lays it out at 1280 px: every table fits its container (none
# cut, none scrolled; the comparison is of options with 190-character
# names), no table has a column that is empty in every row (nor, under a
# chart, zero in every row), every axis that counts things has whole-number
# ticks, and every label cut to fit has its whole text as its tooltip.  On
# the plan pages: a legend entry per placed workload, each its full name
# (html_legend.py checks them against workloads.csv) with a colour of its
# own, and every workload box in the colour of its legend entry.
#
# usage: bash test_html_browser.sh GPUPLAN_EXE SRC_DIR WORK_DIR
# Each page is copied with a probe script appended (the reports have no
# script of their own) that writes what the browser sees into the DOM,
# which `chromium --dump-dom` prints.  The browser runs under `unshare -n`
# (no network at all) where that works.  Without chromium the test is
# skipped with a message (.ci/setup --tests installs it).  Ends with "N passed, N
# failed" and exits 1 on any failure.
. "$(dirname "$0")/lib.sh"

browser=$(command -v chromium || command -v chromium-browser)
if [ -z "$browser" ]; then
	echo "SKIP: chromium not installed (apt-get install chromium; .ci/setup --tests does): the browser test is skipped"
	finish
fi
net=""
unshare -n true 2>/dev/null && net="unshare -n"
chrome() { # chrome ARGS... URL: headless, offline, a fresh profile
	timeout 120 $net "$browser" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
		--disable-component-update --disable-sync --disable-dev-shm-usage --user-data-dir="$(mktemp -d -p "$work")" \
		--window-size=1280,800 "$@"
}

cases=$src/tests/cases
"$exe" plan "$scenario" -o plan --format html >/dev/null && ok || bad "plan failed"
# compare's options get long names without a space (and long file names): the tables must still fit
long=with-a-name-of-many-words-joined-by-hyphens-and-then-one-long-run-$(printf 'x%.0s' {1..120})
mkdir -p cmp && cp "$cases/compare-html/"*.csv cmp/ || bad "copy compare-html failed"
for o in bm cloud; do
	sed "s/^name: $o\$/name: $o-$long/" "$cases/compare-html/$o.yaml" >"cmp/$o-$long.yaml"
done
(cd cmp && "$exe" compare "bm-$long.yaml" "cloud-$long.yaml" -o "$work/compare" --format html >/dev/null) \
	|| bad "compare failed"
grep -qF "cloud-$long" compare/report.html && ok || bad "compare: the long option names are not in the page"
"$exe" simulate "$scenario" --trace "$src/data/example/trace.csv" --hours 720 -o sim --format html >/dev/null \
	|| bad "simulate failed"
(cd "$cases/check-html" && "$exe" check scenario.yaml --baseline "$src/reports/baseline/example.json" \
	--format html >"$work/check.html" 2>/dev/null)
(cd "$cases/plan-html-hostile" && "$exe" plan scenario.yaml -o "$work/hostile" --format html >/dev/null 2>&1) \
	|| bad "hostile plan failed"
(cd "$cases/plan-resilience-html" && "$exe" plan scenario.yaml -o "$work/resil" --format html >/dev/null 2>&1) \
	|| bad "resilience plan failed"
for spec in oat grid mc; do
	{ "$exe" sweep run "$src/tests/sweep/$spec.yaml" -o "sw-$spec" && "$exe" sweep merge "$src/tests/sweep/$spec.yaml" \
		-o "sw-$spec" --format html; } >/dev/null || bad "sweep $spec failed"
done

# The probe: scroll width, resources loaded, scripts, sections, per chart its title and marks; then
# tables (fit, empty or zero columns), count axes (whole ticks), labels cut (full text reachable)
# and the workload legend against the boxes of the GPU layouts.
probe='<script>
(function () {
  var d = document.documentElement, out = [];
  function own(t) { var s = ""; t.childNodes.forEach(function (n) { if (n.nodeType === 3) s += n.data; }); return s; }
  function wc(e) { return Array.from(e.classList).filter(function (c) { return /^wc[0-9]+$/.test(c); })[0] || ""; }
  out.push("scroll " + (d.scrollWidth > d.clientWidth ? "yes" : "no"));
  out.push("resources " + performance.getEntriesByType("resource").length);
  out.push("scripts " + document.scripts.length);
  document.querySelectorAll("section").forEach(function (s) { out.push("section " + s.id); });
  document.querySelectorAll("figure svg").forEach(function (s) {
    out.push("chart " + s.querySelectorAll("rect, polyline").length + " " + s.querySelector("title").textContent);
  });
  out.push("layouts " + document.querySelectorAll(".layout svg").length);
  out.push("h1 " + document.querySelector("h1").textContent);
  var cut = 0, scrolled = 0, empty = 0, zero = 0;
  document.querySelectorAll("table").forEach(function (t) {
    var box = t.parentElement, rows = Array.from(t.rows), c;
    if (t.getBoundingClientRect().width > box.clientWidth + 0.5) {
      if (getComputedStyle(box).overflowX === "auto") scrolled++; else cut++;
    }
    for (c = 0; rows.length > 1 && c < rows[0].cells.length; c++) {
      var v = rows.slice(1).map(function (r) { return r.cells[c] ? r.cells[c].textContent.trim() : ""; });
      if (v.every(function (x) { return x === ""; })) empty++;
      else if (c > 0 && t.closest("details") && v.every(function (x) { return /^-?0(\.0+)?$/.test(x); })) zero++;
    }
  });
  out.push("tables cut " + cut + " scrolled " + scrolled);
  out.push("columns empty " + empty + " zero " + zero);
  var axes = 0, badticks = 0;
  document.querySelectorAll("svg").forEach(function (s) {
    ["x", "y"].forEach(function (a) {
      var u = s.querySelector("text.unit." + a + "u"), ticks = s.querySelectorAll("text.tick." + a + "t");
      if (!u || !/count/.test(u.textContent)) return;
      axes++;
      if (ticks.length < 2) badticks++;
      ticks.forEach(function (t) { if (!/^[0-9]+$/.test(t.textContent)) badticks++; });
    });
  });
  out.push("count axes " + axes + " bad ticks " + badticks);
  var labels = 0, lost = 0;
  document.querySelectorAll("svg text").forEach(function (t) {
    var shown = own(t), g = t.parentElement, ti, full;
    if (!/[.][.][.]$/.test(shown)) return;
    labels++;
    ti = t.querySelector("title") || (g.tagName === "g" ? g.querySelector(":scope > title") : null);
    full = ti ? ti.textContent : "";
    if (full.indexOf(shown.slice(0, -3)) < 0 || full.length <= shown.length - 3 || /[.][.][.]$/.test(full)) lost++;
  });
  out.push("cut labels " + labels + " without their full text " + lost);
  var names = {}, colours = {}, badtitle = 0, boxes = 0, odd = 0, seen = {};
  document.querySelectorAll("ul.legend li").forEach(function (li) {
    var c = wc(li.querySelector(".sw") || li);
    if (li.getAttribute("title") !== li.textContent) badtitle++;
    (names[c] = names[c] || []).push(li.textContent);
    colours[c] = 1;
    out.push("legend-name " + encodeURIComponent(li.textContent));
  });
  out.push("legend " + document.querySelectorAll("ul.legend li").length + " colours " + Object.keys(colours).length +
           " titles not the name " + badtitle);
  document.querySelectorAll(".layout svg rect.used").forEach(function (r) {
    var ti = r.parentElement.querySelector(":scope > title"), full = ti ? ti.textContent : "";
    boxes++;
    if (!(names[wc(r)] || []).some(function (n) { return full.endsWith(": " + n) && (seen[n] = 1); })) odd++;
  });
  out.push("workload boxes " + (boxes ? "some" : "none") + ", not their legend colour " + odd + ", workloads " +
           Object.keys(seen).length);
  var pre = document.createElement("pre"); pre.id = "probe"; pre.textContent = "\n" + out.join("\n") + "\n";
  document.body.appendChild(pre);
})();
</script>'

look() { # look NAME PAGE: probe.NAME (the probe's lines) and console.NAME (console messages)
	local name=$1 page=$2
	{ sed '/^<\/body>$/,$d' "$page"; printf '%s\n</body>\n</html>\n' "$probe"; } >"probe-$name.html"
	chrome --enable-logging=stderr --v=0 --dump-dom "file://$work/probe-$name.html" >"dom.$name" 2>"err.$name"
	sed -n '/<pre id="probe">/,/<\/pre>/p' "dom.$name" | sed '1d;$d' >"probe.$name"
	# the page's own messages; chromium's about its own chrome:// pages (a "slow network" note under load) are not ours
	grep 'CONSOLE' "err.$name" | grep -v 'source: chrome://' >"console.$name"
	[ -s "probe.$name" ] && ok || { bad "$name: the browser showed nothing ($(tail -2 "err.$name"))"; return 1; }
	[ ! -s "console.$name" ] && ok || bad "$name: console messages: $(head -3 "console.$name")"
	grep -qx 'scroll no' "probe.$name" && ok || bad "$name: scrolls horizontally at 1280 px"
	grep -qx 'resources 0' "probe.$name" && ok || bad "$name: loaded $(grep resources "probe.$name")"
	grep -qx 'scripts 1' "probe.$name" && ok || bad "$name: has a script of its own"
	expect "$name" "tables cut 0 scrolled 0" "columns empty 0 zero 0"
	grep -Eqx 'count axes [0-9]+ bad ticks 0' "probe.$name" && ok || bad "$name: $(grep 'count axes' "probe.$name")"
	grep -Eqx 'cut labels [0-9]+ without their full text 0' "probe.$name" && ok \
		|| bad "$name: $(grep 'cut labels' "probe.$name")"
}

legend() { # legend NAME WORKLOADS_CSV N: N legend entries, each a workload's full name, each its colour
	local name=$1 csv=$2 n=$3 got
	got=$(python3 "$src/tests/scripts/html_legend.py" "$csv" "probe.$name")
	[ $? -eq 0 ] && [ "$(tail -1 <<<"$got")" = "$n" ] && ok || bad "$name: legend: $got (expected $n entries)"
	expect "$name" "legend $n colours $n titles not the name 0" "workload boxes some, not their legend colour 0, workloads $n"
}

expect() { # expect NAME LINE...: each line is in the probe's output
	local name=$1 l
	shift
	for l in "$@"; do
		grep -qxF -- "$l" "probe.$name" && ok || bad "$name: no '$l' in: $(tr '\n' ';' <"probe.$name")"
	done
}

if look plan plan/report.html; then
	# every GPU layout the page holds is drawn (how many depends on the plan: 11 or 12 on the example)
	nlay=$(grep -o 'class="layout"' plan/report.html | wc -l)
	[ "$nlay" -ge 8 ] && ok || bad "plan: $nlay GPU layouts in the page, expected 8 or more"
	expect plan "section summary" "section modes" "section cost" "section layouts" "section utilisation" \
		"section failures" "section unplaced" "section assumptions" "h1 gpuplan plan: example-onprem" \
		"chart 6 Cost by year and category" "chart 2 Licences by product and term" \
		"chart 12 Mode mix: nodes and GPUs per mode" "layouts $nlay" "count axes 3 bad ticks 0"
	# the failure charts (issue #62): the example's plan strands replicas on some node and site losses
	for k in node site; do
		grep -Eqx "chart [1-9][0-9]* Replicas stranded by losing one $k, by priority" probe.plan && ok ||
			bad "plan: no failure chart for losing one $k"
	done
	[ "$(grep -c '^chart ' probe.plan)" = 8 ] && ok || bad "plan: $(grep -c '^chart ' probe.plan) charts, not 8"
	# every workload of the example is placed; some MIG slices are too narrow for their names
	legend plan "$src/data/example/workloads.csv" 14
	grep -Eqx 'cut labels [1-9][0-9]* without their full text 0' probe.plan && ok || bad "plan: no label is cut"
fi
if look compare compare/report.html; then
	expect compare "section verdict" "section cost" "section use" "section figures" \
		"chart 6 Cost per GPU-hour, per option" "chart 3 GPUs per mode, per option" "count axes 1 bad ticks 0"
	# the options' names are cut beside the bars, whole in their tooltips and in the tables
	grep -Eqx 'cut labels [1-9][0-9]* without their full text 0' probe.compare && ok || bad "compare: no label is cut"
	grep -qF "bm-$long" dom.compare && ok || bad "compare: the long name is not whole in the page"
fi
if look sim sim/report.html; then
	expect sim "section summary" "section timeline" "section cumulative" \
		"chart 5 Licence cost of each strategy over the run" "chart 8 Cumulative licence cost per strategy" \
		"count axes 2 bad ticks 0"
fi
if look check check.html; then
	expect check "section result" "section difference" "h1 gpuplan check: example-onprem" "count axes 1 bad ticks 0"
fi
if look hostile hostile/report.html; then
	# the heading's text is the name as written (--dump-dom prints text with < and & escaped again)
	expect hostile "h1 gpuplan plan: &lt;script&gt;alert('scenario')&lt;/script&gt; &amp; \"co\""
	grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' dom.hostile && ok || bad "hostile: the workload's name is not text"
	# one of its three workloads has replicas placed (the others wait for a node the plan advises)
	legend hostile "$cases/plan-html-hostile/workloads.csv" 1
fi

if look resil resil/report.html; then
	# the headroom's cost beside the failure charts (issue #62), the worst nodes' names as text
	expect resil "section failures" "h1 gpuplan plan: resilience-html"
	grep -qF 'What the headroom costs' dom.resil && grep -qF '1752.00 USD per year' dom.resil && ok \
		|| bad "resil: no headroom cost beside the failure charts"
	grep -qF '&lt;b&gt;n&lt;/b&gt;&amp;amp;-000+' dom.resil && ok || bad "resil: the node names are not text"
fi

# a sweep's figures follow its design (docs/sweep.md): one-at-a-time cases are chosen, so the
# page shows the base case and a tornado and no distribution; a grid's points are counted, not
# taken for chances; only Monte Carlo has percentiles and a probability of being cheapest
if look oat sw-oat/report.html; then
	expect oat "section summary" "section best" "section tornado" "section breakeven" \
		"chart 3 Cost of each option at the base case" \
		"chart 10 Tornado: the cost of buy at each parameter's low and high value" \
		"chart 10 Tornado: the cost of rent at each parameter's low and high value"
	! grep -qE '^section distribution$|P5|Probability' probe.oat && ! grep -qE 'P5|P\(cheapest\)' dom.oat && ok \
		|| bad "oat: percentiles or a distribution on a one-at-a-time page"
fi
if look grid sw-grid/report.html; then
	expect grid "section summary" "section best" "section tornado" "section distribution" \
		"chart 3 Share of the grid's points where each option is cheapest" \
		"chart 18 Cost over the grid's points per option, the median marked" \
		"chart 4 Cumulative share of the grid's points per option"
	! grep -qE 'P5|P\(cheapest\)|Probability' dom.grid && ok || bad "grid: percentiles or a probability on a grid page"
fi
if look mc sw-mc/report.html; then
	expect mc "section best" "section tornado" "section distribution" "chart 3 Probability that each option is the cheapest" \
		"chart 24 Cost distribution per option, P5, P50 and P95 marked" \
		"chart 4 Cumulative distribution of the cost per option"
	grep -qF '95% interval' dom.mc && grep -qF 'a sample of 24 cases' dom.mc && ok || bad "mc: no interval or sample size"
fi

# what a person sees: the plan page drawn, not blank (a blank 1280x800 PNG is a few kB)
chrome --screenshot="$work/plan.png" "file://$work/plan/report.html" >/dev/null 2>&1
size=$(wc -c <plan.png 2>/dev/null || echo 0)
[ "$size" -gt 40000 ] && ok || bad "the screenshot plan.png is $size bytes: blank or missing"
finish
