#!/bin/sh
# make prove: Frama-C/WP with -wp-rte over every source file, one run per module (src/<module>).
# Options: proofs/common.opts, plus proofs/<module>.opts when present (one option per line).
# Prints a table (module, goals, proved, seconds) and exits non-zero if any goal is unproved,
# if WP warns, or if a module's report is missing.
set -u
cd "$(dirname "$0")/.." || exit 2
out=build/proofs
mkdir -p "$out"
modules=${NSM_PROVE_MODULES:-$(ls -d src/*/ | xargs -n1 basename)}

read_opts() {
    # One option per line; blank lines and '#' comments ignored.
    grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$1"
}

fail=0
total_goals=0
total_valid=0
printf '%-12s %7s %7s %8s  %s\n' module goals proved seconds status > "$out/table.txt"
for mod in $modules; do
    files=$(ls src/"$mod"/*.c 2>/dev/null)
    [ -n "$files" ] || continue
    log="$out/$mod.log"
    json="$out/$mod.json"
    rm -f "$json"
    set --
    read_opts proofs/common.opts > "$out/$mod.opts"
    [ -f proofs/"$mod".opts ] && read_opts proofs/"$mod".opts >> "$out/$mod.opts"
    while IFS= read -r o; do [ -n "$o" ] && set -- "$@" "$o"; done < "$out/$mod.opts"
    start=$(date +%s)
    # shellcheck disable=SC2086
    frama-c -report-classify -report-unclassified-unknown ERROR \
        -report-unclassified-warning ERROR -report-output "$out/$mod.classify.json" \
        "$@" -wp-report-json "$json" $files -then -report-classify > "$log" 2>&1
    rc=$?
    secs=$(( $(date +%s) - start ))
    goals=0; valid=0
    if [ -f "$json" ]; then
        goals=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
def walk(x):
    if isinstance(x, dict):
        if "wp:main" in x and isinstance(x["wp:main"], dict):
            yield x["wp:main"]
        for v in x.values():
            yield from walk(v)
    elif isinstance(x, list):
        for v in x: yield from walk(v)
print(d.get("wp:global",{}).get("wp:main",{}).get("total",0))' "$json" 2>/dev/null || echo 0)
        valid=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
print(d.get("wp:global",{}).get("wp:main",{}).get("valid",0))' "$json" 2>/dev/null || echo 0)
    fi
    status=ok
    if [ "$rc" -ne 0 ] || [ "$goals" -eq 0 ] || [ "$goals" -ne "$valid" ]; then
        status="FAILED (see $log)"
        fail=1
    fi
    total_goals=$((total_goals + goals)); total_valid=$((total_valid + valid))
    printf '%-12s %7s %7s %8s  %s\n' "$mod" "$goals" "$valid" "$secs" "$status" >> "$out/table.txt"
done
printf '%-12s %7s %7s\n' total "$total_goals" "$total_valid" >> "$out/table.txt"
cat "$out/table.txt"
if [ "$fail" -ne 0 ]; then
    echo "prove: unproved goals or warnings; unproved goals:" >&2
    grep -h -E 'Goal .*: (Unknown|Timeout|Failed)|\[wp\] .*(Unknown|Timeout)|warning' \
        build/proofs/*.log | head -40 >&2
    exit 1
fi
echo "prove: all $total_goals goals proved"
