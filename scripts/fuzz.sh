#!/bin/sh
# One libFuzzer harness for a bounded time (make fuzz, make check):
#   sh scripts/fuzz.sh NAME SECONDS [LIBFUZZER OPTIONS...]
# runs build/fuzz/NAME on build/fuzz/corpus/NAME (the seeds of tests/fuzz/corpus/NAME copied
# in; inputs found by earlier runs are kept there), writes its output to
# build/fuzz/NAME.log and any crashing, leaking or slow input to build/fuzz/findings/NAME/,
# and prints one line
#   fuzz NAME executions E findings F
# Exit status 0 only when the harness ran and found nothing.
set -u
name=$1
secs=$2
shift 2
bin=build/fuzz/$name
corpus=build/fuzz/corpus/$name
findings=build/fuzz/findings/$name
log=build/fuzz/$name.log
mkdir -p "$corpus" "$findings"
cp tests/fuzz/corpus/"$name"/* "$corpus"/
before=$(ls "$findings" | wc -l)
OPENBLAS_NUM_THREADS=1 UBSAN_OPTIONS=print_stacktrace=1 "$bin" -max_total_time="$secs" \
    -timeout=10 -print_final_stats=1 -artifact_prefix="$findings"/ "$@" "$corpus" > "$log" 2>&1
rc=$?
after=$(ls "$findings" | wc -l)
# executions: the final statistics, or the last progress line when the run stopped early
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
if [ -z "$execs" ]; then
    execs=$(sed -n 's/^#\([0-9][0-9]*\).*/\1/p' "$log" | tail -n 1)
fi
found=$((after - before))
if [ "$rc" -ne 0 ] && [ "$found" -eq 0 ]; then
    found=1 # stopped on an error that wrote no input (see the log)
fi
echo "fuzz $name executions ${execs:-0} findings $found"
if [ "$found" -ne 0 ]; then
    grep -h -E 'ERROR|assertion failed|runtime error|SUMMARY' "$log" | head -5 >&2
    echo "fuzz: $name: see $log and $findings/" >&2
    exit 1
fi
exit 0
