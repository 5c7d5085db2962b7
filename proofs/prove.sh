#!/bin/bash
# make prove: Frama-C/WP with -wp-rte over every source file.
#
# One Frama-C run per source file (src/<module>/<file>.c), with proofs/common.opts plus
# proofs/<module>.opts when present (one option per line). Files run NSM_PROVE_JOBS at a time
# (default 2: WP's goal generation is sequential), the largest files first so that the pool
# ends together. ACSL lemmas are proved once per module (a run of their own), not once per file.
#
# Prover results are cached (WP's -wp-cache, keyed by a hash of the goal as sent to the prover
# and of the prover): a goal whose text is unchanged is not sent to the prover again; any
# change to code, contract or options changes the hash and the goal is proved afresh. The
# cache is kept packed in proofs/wp-cache.tar.xz and unpacked into build/wp-cache/ by
# proofs/cache.sh (NSM_WP_CACHE_DIR names another directory, used as it is). NSM_WP_CACHE
# selects the mode (default update: use the cache, prove misses, store their results);
# `make prove-full` sets none (every goal proved by the provers). A run over every module
# that proves every goal leaves build/proofs/complete, which `proofs/cache.sh pack` requires.
#
# In update mode each unit runs in two passes. Pass 1 reads the cache only (WP's offline mode:
# no prover is started) with NSM_WP_PAR_CACHED (default 32) goals in flight: WP's task server
# sleeps 50 ms between polls of its goal slots, so with the slots of common.opts (-wp-par=2)
# a run whose answers all come from the cache spends about two thirds of its wall time asleep
# (measured: impact_rates.c 34 s wall for 10 s of CPU; 12 s with 32 slots). A unit with a goal
# the cache cannot answer runs again, pass 2, in update mode with common.opts' slots, so that
# provers never run more than -wp-par at a time per unit. A pass-1 verdict is a cached prover
# answer to the identical goal text. Pass 2 runs only the functions holding the goals pass 1
# left unanswered (-wp-fct), or the whole unit when pass 1 failed otherwise (a warning, a
# missing report). Some goals are answered
# from the cache in update mode but not in offline mode (six smoke goals of hull.c's
# orient_exact, whatever the slot count): each such function costs a pass 2 of that function,
# never a wrong verdict (docs/proofs.md).
#
# Frama-C is an OCaml program whose WP time is mostly Qed's hash-consing and the garbage
# collector (perf, impact.c: weak-table lookups 18 %, minor and major collection about 15 %).
# A larger minor heap and a lazier major collector (OCAMLRUNPARAM s=16M,o=150: 128 MB of
# minor heap per Frama-C process) cut the CPU time of a run by 10-15 % (impact_policy.c and
# lq.c, offline from the cache: 161 s -> 129-135 s summed over the pair, 2026-12-05). The
# setting changes no goal and no verdict; a caller's own OCAMLRUNPARAM is kept.
#
# Prints a table per module (goals, proved, seconds summed over its files, slowest file) and
# exits non-zero if any goal is unproved, if Frama-C warns, or if a report is missing.
set -u
cd "$(dirname "$0")/.." || exit 2
out=build/proofs
cache_mode=${NSM_WP_CACHE:-update}
mkdir -p "$out"
rm -f "$out/complete"
if [ -n "${NSM_WP_CACHE_DIR:-}" ]; then
    cache_dir=$NSM_WP_CACHE_DIR
    [ "$cache_mode" = none ] || mkdir -p "$cache_dir"
else
    cache_dir=$PWD/build/wp-cache
    [ "$cache_mode" = none ] || sh proofs/cache.sh unpack || exit 2
fi

default_modules() {
    ls -d src/*/ | xargs -n1 basename
}
modules=${NSM_PROVE_MODULES:-$(default_modules)}
jobs=${NSM_PROVE_JOBS:-2}
par_cached=${NSM_WP_PAR_CACHED:-32}
export OCAMLRUNPARAM=${OCAMLRUNPARAM:-s=16M,o=150}

read_opts() {
    # One option per line; blank lines and '#' comments ignored.
    grep -v -e '^[[:space:]]*#' -e '^[[:space:]]*$' "$1"
}

# Counts and function lists from WP's JSON reports: proofs/wpjson.py (one loader for all).
json_count() {
    python3 proofs/wpjson.py count "$1" "$2" 2>/dev/null || echo 0
}

# Runs one job: a module's lemmas (unit "<module>/lemmas") or one file's functions (unit
# "<module>/<file>"). Leaves "<goals> <valid> <seconds> <rc>" in build/proofs/<id>.result.
prove_unit() {
    local mod=$1 unit=$2 mode=${3:-$cache_mode} fcts=${4:-}
    local id="$mod.$unit"
    local log="$out/$id.log" json="$out/$id.json"
    local files sel
    if [ "$unit" = lemmas ]; then
        files=$(ls src/"$mod"/*.c)
        sel=(-wp-prop=@lemma -wp-no-smoke-tests)   # smoke tests belong to the file units
    else
        files=src/$mod/$unit.c
        sel=(-wp-prop=-@lemma)
    fi
    # A function-limited pass 2 leaves the calls outside those functions unproved, so the
    # consolidated status of a callee's precondition is unknown there: unknown statuses are not
    # errors in that run (pass 1 classified the whole file; every goal pass 1 left must be
    # proved by pass 2, which the counts check), warnings still are.
    local unknown=ERROR
    if [ -n "$fcts" ]; then
        sel+=("-wp-fct=$fcts")
        unknown=REVIEW
    fi
    rm -f "$json" "$out/$id.result"
    local args=()
    while IFS= read -r o; do [ -n "$o" ] && args+=("$o"); done < <(
        read_opts proofs/common.opts
        if [ -f proofs/"$mod".opts ]; then read_opts proofs/"$mod".opts; fi)
    if [ "$mode" != none ]; then
        args+=(-wp-cache "$mode" -wp-cache-dir "$cache_dir")
    fi
    if [ "$mode" = offline ]; then
        args+=("-wp-par=$par_cached")
    fi
    local start rc secs goals=0 valid=0
    start=$(date +%s)
    # shellcheck disable=SC2086
    frama-c -report-classify -report-unclassified-unknown "$unknown" \
        -report-unclassified-warning ERROR -report-output "$out/$id.classify.json" \
        "${args[@]}" "${sel[@]}" -wp-report-json "$json" $files -then -report-classify \
        > "$log" 2>&1
    rc=$?
    secs=$(( $(date +%s) - start ))
    if [ -f "$json" ]; then
        goals=$(json_count "$json" total)
        valid=$(json_count "$json" valid)
    elif [ "$rc" -eq 0 ] && grep -q 'No proof obligations' "$log"; then
        : # a unit with nothing to prove (e.g. a module without lemmas)
    fi
    echo "$goals $valid $secs $rc" > "$out/$id.result"
}

# Functions of a WP JSON report with a goal that is not valid (comma-separated), and the
# number of goals of a second report, restricted to those functions, that are valid there and
# were not in the first: the two halves of a pass 2 limited to the functions that need it.
unproved_fcts() {
    python3 proofs/wpjson.py unproved "$1" 2>/dev/null
}
recovered() {
    python3 proofs/wpjson.py recovered "$1" "$2" 2>/dev/null || echo 0
}

# 0 if every entry of a report-classify output is an unknown property status (goals the cache
# could not answer), none a warning or another error.
only_unknowns() {
    python3 proofs/wpjson.py only-unknowns "$1" 2>/dev/null
}

# Runs one unit: from the cache alone first when the mode is update (see the header), again
# with the provers if a goal is left unproved or the run failed. When pass 1 ran cleanly and
# only some goals were not answered, pass 2 runs the functions holding those goals only
# (-wp-fct) and the unit's counts are pass 1's with the goals pass 2 proved; when pass 1 failed
# otherwise (a warning, or an error other than unanswered goals), pass 2 runs the whole unit
# and its log and result replace pass 1's.
# The seconds include both passes.
prove_unit_cached() {
    local mod=$1 unit=$2 id="$1.$2" goals valid secs rc first fcts
    if [ "$cache_mode" != update ]; then
        prove_unit "$mod" "$unit"
        return
    fi
    prove_unit "$mod" "$unit" offline
    read -r goals valid secs rc < "$out/$id.result"
    if [ "$rc" -eq 0 ] && [ "$goals" -eq "$valid" ]; then
        return
    fi
    first=$secs
    local missed=$((goals - valid)) rc1=$rc goals1=$goals valid1=$valid
    mv "$out/$id.log" "$out/$id.offline.log"
    fcts=""
    if { [ "$rc1" -eq 0 ] || only_unknowns "$out/$id.classify.json"; } &&
       [ "$unit" != lemmas ] && [ -f "$out/$id.json" ]; then
        cp "$out/$id.json" "$out/$id.offline.json"
        fcts=$(unproved_fcts "$out/$id.offline.json")
    fi
    if [ -n "$fcts" ]; then
        prove_unit "$mod" "$unit" update "$fcts"
        read -r goals valid secs rc < "$out/$id.result"
        local got=0
        [ -f "$out/$id.json" ] && got=$(recovered "$out/$id.offline.json" "$out/$id.json")
        echo "$goals1 $((valid1 + got)) $((secs + first)) $rc" > "$out/$id.result"
        echo "$id: pass 2 for $fcts ($missed goals not answered from the cache in pass 1)" \
            > "$out/$id.pass2"
        return
    fi
    prove_unit "$mod" "$unit" update
    read -r goals valid secs rc < "$out/$id.result"
    echo "$goals $valid $((secs + first)) $rc" > "$out/$id.result"
    echo "$id: pass 2 (pass 1 exited with $rc1: a warning or an error, see $id.offline.log)" \
        > "$out/$id.pass2"
}

# The job list, largest file first (size is a good proxy for proof time).
units=()
for mod in $modules; do
    ls src/"$mod"/*.c > /dev/null 2>&1 || continue
    units+=("0 $mod lemmas")
    for f in src/"$mod"/*.c; do
        units+=("$(wc -c < "$f") $mod $(basename "$f" .c)")
    done
done
for mod in $modules; do
    rm -f "$out/$mod".*.result "$out/$mod".*.pass2 "$out/$mod".*.offline.log "$out/$mod".*.offline.json
done
start_all=$(date +%s)
running=0
while read -r _ mod unit; do
    if [ "$running" -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
    prove_unit_cached "$mod" "$unit" &
    running=$((running + 1))
done < <(printf '%s\n' "${units[@]}" | sort -rn)
wait
wall=$(( $(date +%s) - start_all ))

fail=0
total_goals=0
total_valid=0
printf '%-12s %7s %7s %8s  %-28s %s\n' module goals proved seconds "slowest file (s)" status \
    > "$out/table.txt"
for mod in $modules; do
    ls src/"$mod"/*.c > /dev/null 2>&1 || continue
    mg=0; mv=0; ms=0; status=ok; slow=""; slow_s=-1
    for r in "$out/$mod".*.result; do
        unit=$(basename "$r" .result); unit=${unit#"$mod".}
        goals=0; valid=0; secs=0; rc=1
        [ -f "$r" ] && read -r goals valid secs rc < "$r"
        if [ "$rc" -ne 0 ] || [ "$goals" -ne "$valid" ] ||
           { [ "$goals" -eq 0 ] && [ "$unit" != lemmas ]; }; then
            status="FAILED (see $out/$mod.$unit.log)"
            fail=1
        fi
        mg=$((mg + goals)); mv=$((mv + valid)); ms=$((ms + secs))
        if [ "$secs" -gt "$slow_s" ] && [ "$unit" != lemmas ]; then slow_s=$secs; slow="$unit.c ($secs)"; fi
    done
    n_units=$(ls "$out/$mod".*.result 2>/dev/null | wc -l)
    if [ "$n_units" -ne $(( $(ls src/"$mod"/*.c | wc -l) + 1 )) ]; then
        status="FAILED (a report is missing)"; fail=1
    fi
    total_goals=$((total_goals + mg)); total_valid=$((total_valid + mv))
    printf '%-12s %7s %7s %8s  %-28s %s\n' "$mod" "$mg" "$mv" "$ms" "$slow" "$status" \
        >> "$out/table.txt"
done
n_pass2=0
for mod in $modules; do
    n_pass2=$((n_pass2 + $(ls "$out/$mod".*.pass2 2>/dev/null | wc -l)))
done
printf '%-12s %7s %7s %8s  (wall %s s, %s jobs, cache %s, units run twice: %s)\n' \
    total "$total_goals" "$total_valid" "" "$wall" "$jobs" "$cache_mode" "$n_pass2" \
    >> "$out/table.txt"
cat "$out/table.txt"
for mod in $modules; do cat "$out/$mod".*.pass2 2>/dev/null; done
if [ "$fail" -ne 0 ]; then
    echo "prove: unproved goals or warnings; first lines of interest:" >&2
    ls "$out"/*.log | grep -v '\.offline\.log$' | xargs grep -h -E '\[(Failed|Unknown|Timeout)\]|Warning|Error' | head -40 >&2
    exit 1
fi
if [ -z "${NSM_PROVE_MODULES:-}" ] && [ "$cache_mode" != none ]; then
    touch "$out/complete"
fi
echo "prove: all $total_goals goals proved"
