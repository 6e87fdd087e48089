#!/bin/bash
# test_html_browser.sh - report.html opened in a real browser (Debian's
# headless chromium), offline: the pages of plan, compare, simulate,
# check and sweep merge (one-at-a-time and Monte Carlo) and the plan with markup in its names render with no console
# message, load nothing (no resource besides the page itself), have the
# expected sections and charts (each chart's title and marks), no
# horizontal scroll at 1280 px, names with <, & and quotes as text, and a
# screenshot of the plan page that is not blank.
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
(cd "$cases/compare-html" && "$exe" compare bm.yaml cloud.yaml -o "$work/compare" --format html >/dev/null) || bad "compare failed"
"$exe" simulate "$scenario" --trace "$src/data/example/trace.csv" --hours 720 -o sim --format html >/dev/null \
	|| bad "simulate failed"
(cd "$cases/check-html" && "$exe" check scenario.yaml --baseline "$src/reports/baseline/example.json" \
	--format html >"$work/check.html" 2>/dev/null)
(cd "$cases/plan-html-hostile" && "$exe" plan scenario.yaml -o "$work/hostile" --format html >/dev/null 2>&1) \
	|| bad "hostile plan failed"
for spec in oat mc; do
	{ "$exe" sweep run "$src/tests/sweep/$spec.yaml" -o "sw-$spec" && "$exe" sweep merge "$src/tests/sweep/$spec.yaml" \
		-o "sw-$spec" --format html; } >/dev/null || bad "sweep $spec failed"
done

# The probe: scroll width, resources loaded, scripts, sections, and per chart its title and marks.
probe='<script>
(function () {
  var d = document.documentElement, out = [];
  out.push("scroll " + (d.scrollWidth > d.clientWidth ? "yes" : "no"));
  out.push("resources " + performance.getEntriesByType("resource").length);
  out.push("scripts " + document.scripts.length);
  document.querySelectorAll("section").forEach(function (s) { out.push("section " + s.id); });
  document.querySelectorAll("figure svg").forEach(function (s) {
    out.push("chart " + s.querySelectorAll("rect, polyline").length + " " + s.querySelector("title").textContent);
  });
  out.push("layouts " + document.querySelectorAll(".layout svg").length);
  out.push("h1 " + document.querySelector("h1").textContent);
  var pre = document.createElement("pre"); pre.id = "probe"; pre.textContent = "\n" + out.join("\n") + "\n";
  document.body.appendChild(pre);
})();
</script>'

look() { # look NAME PAGE: probe.NAME (the probe's lines) and console.NAME (console messages)
	local name=$1 page=$2
	{ sed '/^<\/body>$/,$d' "$page"; printf '%s\n</body>\n</html>\n' "$probe"; } >"probe-$name.html"
	chrome --enable-logging=stderr --v=0 --dump-dom "file://$work/probe-$name.html" >"dom.$name" 2>"err.$name"
	sed -n '/<pre id="probe">/,/<\/pre>/p' "dom.$name" | sed '1d;$d' >"probe.$name"
	grep 'CONSOLE' "err.$name" >"console.$name"
	[ -s "probe.$name" ] && ok || { bad "$name: the browser showed nothing ($(tail -2 "err.$name"))"; return 1; }
	[ ! -s "console.$name" ] && ok || bad "$name: console messages: $(head -3 "console.$name")"
	grep -qx 'scroll no' "probe.$name" && ok || bad "$name: scrolls horizontally at 1280 px"
	grep -qx 'resources 0' "probe.$name" && ok || bad "$name: loaded $(grep resources "probe.$name")"
	grep -qx 'scripts 1' "probe.$name" && ok || bad "$name: has a script of its own"
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
		"section unplaced" "section assumptions" "h1 gpuplan plan: example-onprem" \
		"chart 6 Cost by year and category" "chart 2 Licences by product and term" \
		"chart 12 Mode mix: nodes and GPUs per mode" "layouts $nlay"
	[ "$(grep -c '^chart ' probe.plan)" = 6 ] && ok || bad "plan: $(grep -c '^chart ' probe.plan) charts, not 6"
fi
if look compare compare/report.html; then
	expect compare "section verdict" "section cost" "section use" "section figures" \
		"chart 6 Cost per GPU-hour, per option" "chart 8 GPUs per mode, per option"
fi
if look sim sim/report.html; then
	expect sim "section summary" "section timeline" "section cumulative" \
		"chart 5 Licence cost of each strategy over the run" "chart 8 Cumulative licence cost per strategy"
fi
if look check check.html; then
	expect check "section result" "section difference" "h1 gpuplan check: example-onprem"
fi
if look hostile hostile/report.html; then
	# the heading's text is the name as written (--dump-dom prints text with < and & escaped again)
	expect hostile "h1 gpuplan plan: &lt;script&gt;alert('scenario')&lt;/script&gt; &amp; \"co\""
	grep -qF '&lt;script&gt;alert(1)&lt;/script&gt;' dom.hostile && ok || bad "hostile: the workload's name is not text"
fi

if look oat sw-oat/report.html; then
	expect oat "section summary" "section best" "section tornado" "section distribution" "section breakeven" \
		"chart 3 Probability that each option is the cheapest" \
		"chart 10 Tornado: the cost of buy at each parameter's low and high value" \
		"chart 10 Tornado: the cost of rent at each parameter's low and high value"
fi
if look mc sw-mc/report.html; then
	expect mc "section tornado" "section distribution" "chart 24 Cost distribution per option, P5, P50 and P95 marked" \
		"chart 4 Cumulative distribution of the cost per option"
fi

# what a person sees: the plan page drawn, not blank (a blank 1280x800 PNG is a few kB)
chrome --screenshot="$work/plan.png" "file://$work/plan/report.html" >/dev/null 2>&1
size=$(wc -c <plan.png 2>/dev/null || echo 0)
[ "$size" -gt 40000 ] && ok || bad "the screenshot plan.png is $size bytes: blank or missing"
finish
