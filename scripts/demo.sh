#!/bin/sh
# make demo: run every example program; each writes CSV and a gnuplot script (*.gp) into
# build/demo/ and prints lines starting with 'DEMO ' (example, status, key numbers).
# This script renders every *.gp to PNG with gnuplot and prints the summary table.
set -u
out=build/demo
mkdir -p "$out"
rm -f "$out"/*.png "$out"/*.gp "$out"/*.csv "$out"/*.json "$out"/*.out
summary="$out/summary.txt"
: > "$summary"
fail=0
for ex in "$@"; do
    name=$(basename "$ex")
    echo "== example $name"
    if ! "$ex" "$out" > "$out/$name.out" 2>&1; then
        echo "example $name failed:" >&2
        cat "$out/$name.out" >&2
        fail=1
    fi
    grep -v '^DEMO ' "$out/$name.out"
    grep '^DEMO ' "$out/$name.out" | sed 's/^DEMO //' >> "$summary"
done
# The shipped problem files, through the nsm program.
if [ -x build/nsm ] && ls examples/problems/*.json > /dev/null 2>&1; then
    echo "== nsm on examples/problems/*.json"
    if ! python3 scripts/demo_problems.py build/nsm "$out" examples/problems/*.json \
            > "$out/problems.out" 2>&1; then
        fail=1
    fi
    grep -v '^DEMO ' "$out/problems.out"
    grep '^DEMO ' "$out/problems.out" | sed 's/^DEMO //' >> "$summary"
fi
for gp in "$out"/*.gp; do
    [ -f "$gp" ] || continue
    (cd "$out" && gnuplot "$(basename "$gp")") || { echo "gnuplot failed on $gp" >&2; fail=1; }
done
echo
echo "Summary (example | status | key numbers | plot):"
cat "$summary"
echo
echo "Plots:"
ls -1 "$out"/*.png 2>/dev/null || echo "(none)"
exit $fail
