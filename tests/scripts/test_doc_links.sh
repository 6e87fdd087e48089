#!/usr/bin/env bash
# test_doc_links.sh - every relative link of README.md and docs/*.md reaches
# something: `[text](file.md)` a file that exists, `[text](file.md#anchor)`
# and `[text](#anchor)` a heading of that page, by GitHub's anchor rule
# (lower case; punctuation but `-` and `_` dropped; spaces to `-`; a
# repeated heading gets `-1`, `-2`).  Headings inside fenced code blocks are
# not headings.  Moving a section (to the benchmarks history page, say)
# breaks the links into it silently otherwise.  Also checks that it fails
# on a copy of the docs with a broken link planted.
# usage: bash test_doc_links.sh GPUPLAN_EXE SRC_DIR WORK_DIR
. "$(dirname "$0")/lib.sh"

# check DIR: prints FILE: -> TARGET#ANCHOR for each link that reaches nothing.
check() {
	python3 - "$1" <<'EOF'
import glob, os, re, sys
root = sys.argv[1]

def slug(text):
    text = re.sub(r'`', '', text.strip().lower())
    text = re.sub(r'[^\w\- ]', '', text)
    return text.replace(' ', '-')

def anchors(path):
    seen, out, fence = {}, set(), False
    for line in open(path, encoding='utf-8'):
        if line.startswith('```'):
            fence = not fence
            continue
        m = None if fence else re.match(r'^#{1,6}\s+(.*?)\s*#*\s*$', line)
        if m:
            s = slug(m.group(1))
            n = seen.get(s)
            seen[s] = 0 if n is None else n + 1
            out.add(s if n is None else '%s-%d' % (s, n + 1))
    return out

pages = sorted(glob.glob(os.path.join(root, 'docs', '*.md')) + [os.path.join(root, 'README.md')])
cache, bad = {}, 0
for page in pages:
    text = open(page, encoding='utf-8').read()
    text = re.sub(r'```.*?```', '', text, flags=re.S)
    for m in re.finditer(r'\]\(([^)\s#]*)(?:#([^)\s]+))?\)', text):
        target, anchor = m.group(1), m.group(2)
        if re.match(r'[a-z]+:', target) or (not target and not anchor):
            continue
        path = os.path.normpath(os.path.join(os.path.dirname(page), target)) if target else page
        if not os.path.exists(path):
            print('%s: -> %s: no such file' % (os.path.relpath(page, root), target))
            bad += 1
        elif anchor and path.endswith('.md'):
            if path not in cache:
                cache[path] = anchors(path)
            if anchor not in cache[path]:
                print('%s: -> %s#%s: no such heading' % (os.path.relpath(page, root), target, anchor))
                bad += 1
sys.exit(1 if bad else 0)
EOF
}

if out=$(check "$src"); then ok; else bad "links that reach nothing:"; echo "$out"; fi

# A planted broken link is named: the check can fail.
mkdir -p plant/docs && cp "$src"/README.md plant/ && cp "$src"/docs/*.md plant/docs/
printf '\nSee [the gone section](benchmarks.md#no-such-section-here).\n' >>plant/docs/formulation.md
out=$(check "$work/plant")
case $out in *"docs/formulation.md: -> benchmarks.md#no-such-section-here"*) ok ;; *) bad "planted broken link not named: $out" ;; esac
finish
