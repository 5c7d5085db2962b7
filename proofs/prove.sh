#!/bin/bash
# make prove: Frama-C/WP with -wp-rte over every source file, one run per module (src/<module>).
# Options: proofs/common.opts, plus proofs/<module>.opts when present (one option per line).
# Modules run NSM_PROVE_JOBS at a time (default 2: WP's goal generation is sequential, so two
# modules keep both cores busy). Prints a table (module, goals, proved, seconds) and exits
# non-zero if any goal is unproved, if Frama-C warns, or if a module's report is missing.
set -u
cd "$(dirname "$0")/.." || exit 2
out=build/proofs
mkdir -p "$out"
# Default: every module, the longest proofs first so that the job pool ends together.
default_modules() {
    local m known="projection linalg contact check setvalued base"
    echo "$known"
    for m in $(ls -d src/*/ | xargs -n1 basename); do
        case " $known " in *" $m "*) ;; *) echo "$m" ;; esac
    done
}
modules=${NSM_PROVE_MODULES:-$(default_modules)}
jobs=${NSM_PROVE_JOBS:-2}

read_opts() {
    # One option per line; blank lines and '#' comments ignored.
    grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$1"
}

json_count() {
    python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
print(d.get("wp:global", {}).get("wp:main", {}).get(sys.argv[2], 0))' "$1" "$2" 2>/dev/null || echo 0
}

# Proves one module; leaves "<goals> <valid> <seconds> <rc>" in build/proofs/<module>.result.
prove_module() {
    local mod=$1 log="$out/$1.log" json="$out/$1.json"
    local files
    files=$(ls src/"$mod"/*.c 2>/dev/null)
    rm -f "$json" "$out/$mod.result"
    read_opts proofs/common.opts > "$out/$mod.opts"
    if [ -f proofs/"$mod".opts ]; then
        read_opts proofs/"$mod".opts >> "$out/$mod.opts"
    fi
    local args=()
    while IFS= read -r o; do [ -n "$o" ] && args+=("$o"); done < "$out/$mod.opts"
    local start rc secs goals=0 valid=0
    start=$(date +%s)
    # shellcheck disable=SC2086
    frama-c -report-classify -report-unclassified-unknown ERROR \
        -report-unclassified-warning ERROR -report-output "$out/$mod.classify.json" \
        "${args[@]}" -wp-report-json "$json" $files -then -report-classify > "$log" 2>&1
    rc=$?
    secs=$(( $(date +%s) - start ))
    if [ -f "$json" ]; then
        goals=$(json_count "$json" total)
        valid=$(json_count "$json" valid)
    fi
    echo "$goals $valid $secs $rc" > "$out/$mod.result"
}

running=0
for mod in $modules; do
    ls src/"$mod"/*.c > /dev/null 2>&1 || continue
    if [ "$running" -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
    prove_module "$mod" &
    running=$((running + 1))
done
wait

fail=0
total_goals=0
total_valid=0
printf '%-12s %7s %7s %8s  %s\n' module goals proved seconds status > "$out/table.txt"
for mod in $modules; do
    ls src/"$mod"/*.c > /dev/null 2>&1 || continue
    goals=0; valid=0; secs=0; rc=1
    if [ -f "$out/$mod.result" ]; then
        read -r goals valid secs rc < "$out/$mod.result"
    fi
    status=ok
    if [ "$rc" -ne 0 ] || [ "$goals" -eq 0 ] || [ "$goals" -ne "$valid" ]; then
        status="FAILED (see $out/$mod.log)"
        fail=1
    fi
    total_goals=$((total_goals + goals)); total_valid=$((total_valid + valid))
    printf '%-12s %7s %7s %8s  %s\n' "$mod" "$goals" "$valid" "$secs" "$status" >> "$out/table.txt"
done
printf '%-12s %7s %7s\n' total "$total_goals" "$total_valid" >> "$out/table.txt"
cat "$out/table.txt"
if [ "$fail" -ne 0 ]; then
    echo "prove: unproved goals or warnings; first lines of interest:" >&2
    grep -h -E '\[(Failed|Unknown|Timeout)\]|Warning|Error' "$out"/*.log | head -40 >&2
    exit 1
fi
echo "prove: all $total_goals goals proved"
