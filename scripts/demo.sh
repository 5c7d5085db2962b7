#!/bin/sh
# make demo: run every example program; each writes CSV and a gnuplot script (*.gp) into
# build/demo/ and prints lines starting with 'DEMO ' (example, status, key numbers).
# This script renders every *.gp to PNG with gnuplot and prints the summary table.
set -u
out=build/demo
mkdir -p "$out"
rm -f "$out"/*.png
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
