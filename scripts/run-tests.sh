#!/bin/sh
# Run CUnit test programs and keep their counts; 'summary' prints the closing line of make check.
#   run-tests.sh MODE BIN...   run each program (MODE plain, accuracy, sanitized, valgrind,
#                              eacsl, coverage) and keep its counts in build/results/MODE.txt
#   run-tests.sh summary       stage times, then "check: N passed, M failed" over the plain,
#                              accuracy, sanitized, valgrind and eacsl runs
# NSM_TEST_RUNNER, if set, is a command put before each program (make valgrind: memcheck);
# NSM_VG_LOGS, if set, is a folder of memcheck logs of the nsm program run by test_cli: each
# non-empty log there counts as one failure. NSM_TEST_JOBS programs run at once (default: one
# per core); each program's output is printed whole, in the order given.
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
    cat "$results"/plain.txt "$results"/accuracy.txt "$results"/sanitized.txt "$results"/valgrind.txt \
        "$results"/eacsl.txt 2>/dev/null |
        awk '{ run += $3; failed += $4 }
             END { printf "check: %d passed, %d failed\n", run - failed, failed;
                   exit (failed > 0 || run == 0) }'
    exit $?
fi

: > "$results/$mode.txt"
status=0
# The programs run NSM_TEST_JOBS at a time (default: one per core), each into its own output
# file; their outputs and counts are then read in the order given.
jobs=${NSM_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
outdir=$(mktemp -d)
trap 'rm -rf "$outdir"' EXIT INT TERM
# An argument PROGRAM:i/k runs shard i of k of the program's tests (NSM_TEST_SHARD, the
# harness): a long program listed as k shards runs on k cores.
printf '%s\n' "$@" | xargs -P "$jobs" -n 1 sh -c '
    bin=${1%%:*}
    shard=
    [ "$bin" = "$1" ] || shard=${1#*:}
    out=$0/$(basename "$bin")${shard:+-$(echo "$shard" | tr / _)}
    # shellcheck disable=SC2086
    NSM_TEST_SHARD=$shard ${NSM_TEST_RUNNER:-} "$bin" > "$out.out" 2>&1
    echo $? > "$out.rc"' "$outdir"
for arg in "$@"; do
    bin=${arg%%:*}
    shard=
    [ "$bin" = "$arg" ] || shard=${arg#*:}
    name=$(basename "$bin")${shard:+-$(echo "$shard" | tr / _)}
    echo "== $mode: $name"
    out=$outdir/$name.out
    rc=1
    [ -f "$outdir/$name.rc" ] && rc=$(cat "$outdir/$name.rc")
    cat "$out" 2>/dev/null
    # The harness prints one line 'NSM-TESTS <name> <run> <failed>' after CUnit's summary.
    line=$(grep '^NSM-TESTS ' "$out" 2>/dev/null | tail -n 1)
    if [ -z "$line" ]; then
        echo "$mode: $name crashed or printed no summary (exit $rc)" >&2
        echo "NSM-TESTS $name 1 1" >> "$results/$mode.txt"
        status=1
        continue
    fi
    # A non-zero exit with no failed test (a memcheck error, a leak) counts as one failure.
    if [ "$rc" -ne 0 ]; then
        line=$(echo "$line" | awk '{ if ($4 == 0) $4 = 1; print }')
    fi
    echo "$line" >> "$results/$mode.txt"
    [ "$rc" -eq 0 ] || status=1
done
rm -rf "$outdir"
# Memcheck logs of the nsm runs (test_cli): a non-empty one counts as one failure.
if [ -n "${NSM_VG_LOGS:-}" ]; then
    for log in "$NSM_VG_LOGS"/*.log; do
        if [ -s "$log" ]; then
            echo "$mode: memcheck errors in an nsm run ($log):" >&2
            cat "$log" >&2
            echo "NSM-TESTS nsm-memcheck-$(basename "$log" .log) 1 1" >> "$results/$mode.txt"
            status=1
        fi
    done
fi
awk -v m="$mode" '{ run += $3; failed += $4 }
     END { printf "%s tests: %d passed, %d failed\n", m, run - failed, failed }' "$results/$mode.txt"
exit $status
