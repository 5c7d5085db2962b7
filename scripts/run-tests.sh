#!/bin/sh
# Run CUnit test programs and keep their counts; 'summary' prints the closing line of make check.
#   run-tests.sh plain|sanitized BIN...   run each program, stop at the first failing one
#   run-tests.sh summary                  stage times, then "check: N passed, M failed" over
#                                         both runs
set -u
results=build/results
mode=$1; shift
mkdir -p "$results"

if [ "$mode" = summary ]; then
    # Stage wall times of make check (scripts/stage.sh), one "stage <name> <seconds>" line each.
    if [ -f "$results/stages.txt" ]; then
        awk '{ printf "stage %s %d\n", $1, $2; t += $2 } END { printf "stage total %d\n", t }' \
            "$results/stages.txt"
    fi
    cat "$results"/plain.txt "$results"/sanitized.txt 2>/dev/null |
        awk '{ run += $3; failed += $4 }
             END { printf "check: %d passed, %d failed\n", run - failed, failed;
                   exit (failed > 0 || run == 0) }'
    exit $?
fi

: > "$results/$mode.txt"
status=0
for bin in "$@"; do
    name=$(basename "$bin")
    echo "== $mode: $name"
    out=$(mktemp)
    "$bin" > "$out" 2>&1
    rc=$?
    cat "$out"
    # The harness prints one line 'NSM-TESTS <name> <run> <failed>' after CUnit's summary.
    line=$(grep '^NSM-TESTS ' "$out" | tail -n 1)
    rm -f "$out"
    if [ -z "$line" ]; then
        echo "$mode: $name crashed or printed no summary (exit $rc)" >&2
        echo "NSM-TESTS $name 1 1" >> "$results/$mode.txt"
        status=1
        continue
    fi
    echo "$line" >> "$results/$mode.txt"
    [ "$rc" -eq 0 ] || status=1
done
awk -v m="$mode" '{ run += $3; failed += $4 }
     END { printf "%s tests: %d passed, %d failed\n", m, run - failed, failed }' "$results/$mode.txt"
exit $status
