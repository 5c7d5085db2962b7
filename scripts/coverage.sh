#!/bin/sh
# make coverage, after the covered tests ran: gcovr over src/ only (the .gcda files of the
# library objects in DIR/obj), an HTML report DIR/index.html (one page per file), a table per
# module, and the closing line 'coverage lines X% branches Y%'.
#   sh scripts/coverage.sh DIR
set -eu
dir=$1
gcovr --root . --filter 'src/' --object-directory "$dir/obj" \
    --exclude-unreachable-branches \
    --html-details "$dir/index.html" --html-title "nsmech coverage (src/)" \
    --json-summary "$dir/summary.json" --json-summary-pretty > /dev/null
python3 - "$dir/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
mods = {}
for f in s["files"]:
    parts = f["filename"].split("/")
    m = parts[1] if len(parts) > 2 else "(top)"
    a = mods.setdefault(m, [0, 0, 0, 0])
    a[0] += f["line_covered"]; a[1] += f["line_total"]
    a[2] += f["branch_covered"]; a[3] += f["branch_total"]
def pct(c, t):
    return 100.0 * c / t if t else 100.0
print("%-12s %16s %18s" % ("module", "lines", "branches"))
for m in sorted(mods):
    a = mods[m]
    print("%-12s %6.1f%% %4d/%-4d %6.1f%% %5d/%-5d" % (m, pct(a[0], a[1]), a[0], a[1],
                                                     pct(a[2], a[3]), a[2], a[3]))
print("%-12s %16s %18s" % ("file", "lines", "branches"))
for f in s["files"]:
    print("%-28s %6.1f%% %6.1f%%" % (f["filename"], pct(f["line_covered"], f["line_total"]),
                                     pct(f["branch_covered"], f["branch_total"])))
print("report: %s" % sys.argv[1].replace("summary.json", "index.html"))
print("coverage lines %.1f%% branches %.1f%%" % (s["line_percent"], s["branch_percent"]))
PY
