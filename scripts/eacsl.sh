#!/bin/sh
# make eacsl: the unit and property tests against a build of the library whose public
# contracts E-ACSL (Frama-C's runtime assertion checker, in frama-c-base) compiled into runtime
# checks, with exact arithmetic (GMP integers and rationals) for the clauses' integers and reals.
#
#  1. Frama-C parses every src/*/*.c with the cpp arguments of proofs/common.opts (specs/shadow
#     first: the trusted CBLAS and libm declarations) and E-ACSL translates the annotations of
#     the public functions (the nsm_* of include/nsmech/*.h, -e-acsl-functions): each becomes
#     a wrapper __gen_e_acsl_nsm_<f> checking its requires, its ensures (per behavior), and the
#     loop invariants and assertions in its body. Into build/eacsl/libnsmech-eacsl.a.
#  2. Each test program tests/test_*.c but test_cli (which runs the nsm program) is compiled with
#     build/eacsl/rename.h forced in (#define nsm_<f> __gen_e_acsl_nsm_<f>): its calls, and
#     those of tests/support/, go through the checks; calls inside the library do as well.
#  3. The programs run (NSM_PROP_CASES property cases) with E-ACSL's runtime and nsmech's
#     handler (tests/eacsl/eacsl_rt.c), which counts instead of aborting: each prints
#     'NSM-EACSL <prog> <verdicts> <violations> <untracked> <non-finite> <rounding>'. The
#     script sums them and ends with 'eacsl: N runs, V violations' (N: verdicts, one per clause
#     checked per call); it exits 1 on a violation, a failed test or a missing summary.
# The generated code is patched in two places (E-ACSL 25 faults, below); E-ACSL's runtime is
# built as its e-acsl-gcc.sh wrapper (not in Debian's frama-c-base) would: segment memory
# model, dlmalloc (libeacsl-dlmalloc.a), GMP.
# Clauses E-ACSL does not translate are listed by Frama-C in build/eacsl/frama-c.log and
# summarised in docs/proofs.md.
set -u
cd "$(dirname "$0")/.." || exit 2
out=build/eacsl
CC=${CC:-gcc}
share=$(frama-c -print-share-path)/e-acsl
rtlib=$(frama-c -print-lib-path)/e-acsl/libeacsl-dlmalloc.a
jobs=${NSM_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
mkdir -p "$out/obj"
start=$(date +%s)

# The public functions: every nsm_* declared at the start of a line in the public headers.
grep -hE '^[A-Za-z_][A-Za-z0-9_ ]*[ *]nsm_[a-z0-9_]+\(' include/nsmech/*.h |
    grep -oE 'nsm_[a-z0-9_]+\(' | tr -d '(' | sort -u > "$out/public.txt"
[ -s "$out/public.txt" ] || { echo "eacsl: no public function found" >&2; exit 2; }

# 1. Instrumentation.
if ! nice frama-c -pp-annot -cpp-extra-args="-Ispecs/shadow -Ispecs -Iinclude" \
        -kernel-warn-key=parser:decimal-float=inactive -warn-special-float=none src/*/*.c \
        -e-acsl -e-acsl-functions="$(paste -sd, "$out/public.txt")" \
        -then-last -print -ocode "$out/libnsmech-eacsl.c" > "$out/frama-c.log" 2>&1; then
    tail -20 "$out/frama-c.log" >&2
    echo "eacsl: E-ACSL instrumentation failed (log $out/frama-c.log)" >&2
    exit 1
fi
while read -r f; do
    grep -q "__gen_e_acsl_$f(" "$out/libnsmech-eacsl.c" ||
        echo "eacsl: note: $f has no contract wrapper (nothing translated)" >&2
done < "$out/public.txt"
sed 's/.*/#define & __gen_e_acsl_&/' "$out/public.txt" > "$out/rename.h"

# E-ACSL 25 saves each \old(*p) / \old(p->f) at entry whatever the behaviors' assumes, so a
# call with p == NULL (an error-path test) would read through NULL: guard those saves by p.
perl -i -pe 's/^(\s*)(__gen_e_acsl_at(?:_\d+)? = )(\*\(?([A-Za-z_]\w*)\b.*|([A-Za-z_]\w*)->.*);$/$1if ($4$5) $2$3;/' \
    "$out/libnsmech-eacsl.c"
# Likewise nsm_proj_control's bad_gains: \old(!(gains->kp > 0) || ...) is evaluated at entry
# even when gains == NULL (behavior null_arg): evaluate it only when gains != NULL.
perl -0 -i -pe 's/(\n(\s*)__e_acsl_assert_data_t (__gen_e_acsl_assert_data\w*) = \{\.values = \(void \*\)0\};\n\s*__e_acsl_assert_register_ptr\(& \3,"&gains->kp",.*?\n\s*__gen_e_acsl_at(?:_\d+)? = __gen_e_acsl_or\w*;)/\n$2if (gains) {$1\n$2}/s' \
    "$out/libnsmech-eacsl.c"
grep -q 'if (gains) {' "$out/libnsmech-eacsl.c" ||
    { echo "eacsl: the guard of nsm_proj_control's bad_gains no longer applies" >&2; exit 1; }

# The generated C is Frama-C's normalised code (no -Werror: it has unused temporaries).
nice "$CC" -std=gnu11 -O1 -g -w -fno-builtin -I"$share" -c "$out/libnsmech-eacsl.c" \
    -o "$out/obj/libnsmech-eacsl.o" &
nice "$CC" -std=gnu11 -O2 -g -w -DE_ACSL_SEGMENT_MMODEL -DE_ACSL_HEAP_SIZE=1024 -I"$share" \
    -c tests/eacsl/eacsl_rt.c -o "$out/obj/eacsl_rt.o" || exit 1
wait $! || { echo "eacsl: the instrumented library does not compile" >&2; exit 1; }
# Non-finite doubles in a clause: tests/eacsl/eacsl_rt.c's nsm_eacsl_mpq_set_d.
objcopy --redefine-sym __gmpq_set_d=nsm_eacsl_mpq_set_d "$out/obj/libnsmech-eacsl.o"
rm -f "$out/libnsmech-eacsl.a"
ar rcs "$out/libnsmech-eacsl.a" "$out/obj/libnsmech-eacsl.o"

# 2. The test programs (support code compiled once).
WARN="-std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes"
WARN="$WARN -Wpointer-arith -Wcast-qual -Wvla -pedantic"
sup=""
for s in tests/support/*.c; do sup="$sup $out/obj/support_$(basename "$s" .c).o"; done
tests=""
for t in tests/test_*.c; do
    [ "$t" = tests/test_cli.c ] || tests="$tests $out/$(basename "$t" .c)"
done
for s in tests/support/*.c; do echo "$s $out/obj/support_$(basename "$s" .c).o"; done |
    xargs -P "$jobs" -n 2 sh -c "nice $CC $WARN -O1 -g -Iinclude -Itests/support \
        -include $out/rename.h -c \$0 -o \$1" || exit 1
for b in $tests; do echo "tests/$(basename "$b").c $b"; done |
    xargs -P "$jobs" -n 2 sh -c "nice $CC $WARN -O1 -g -Iinclude -Itests/support \
        -include $out/rename.h \$0 $sup $out/libnsmech-eacsl.a $out/obj/eacsl_rt.o $rtlib \
        -lcunit -llapacke -llapack -lcjson -lopenblas -lgmp -lm -lpthread -o \$1" || exit 1
echo "eacsl: instrumented and built in $(( $(date +%s) - start )) s"

# 3. Run (scripts/run-tests.sh: one program per core, counts in build/results/eacsl.txt).
# shellcheck disable=SC2086
sh scripts/run-tests.sh eacsl $tests > "$out/run.log" 2>&1
rc=$?
cat "$out/run.log"
grep -h '^NSM-EACSL ' "$out/run.log" | awk -v progs="$(echo "$tests" | wc -w)" \
    -v secs="$(( $(date +%s) - start ))" -v rc="$rc" '
    { n++; checks += $3; viol += $4; unch += $5; nonfin += $6; round += $7 }
    END {
        if (n != progs)
            printf "eacsl: %d of %d programs printed no E-ACSL summary\n", progs - n, progs
        printf "eacsl: %d programs, %d s; not verdicts: %d memory checks on untracked memory,",
               n, secs, unch
        printf " %d clauses on non-finite doubles, %d rounding-only failures\n", nonfin, round
        printf "eacsl: %d runs, %d violations\n", checks, viol
        exit (viol > 0 || n != progs || rc != 0)
    }'
