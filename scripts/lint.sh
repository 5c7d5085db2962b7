#!/bin/sh
# Static rules of the library that the compiler does not enforce:
#  - no dynamic allocation in src/ (callers pass workspaces);
#  - no mutable file-scope state in src/ (every file-scope object must be const);
#  - libm only through src/nsm_math.h (Frama-C sees trusted contracts instead).
set -u
status=0
alloc=$(grep -n -E '\b(malloc|calloc|realloc|free|aligned_alloc)[[:space:]]*\(' src/*/*.c src/*.h 2>/dev/null)
if [ -n "$alloc" ]; then
    echo "lint: dynamic allocation in library code:" >&2
    echo "$alloc" >&2
    status=1
fi
# File-scope definitions start in column 0; 'static' objects that are not const are mutable.
state=$(grep -n -E '^(static[[:space:]]+)?(double|int|size_t|unsigned|long|char|float)[[:space:]]+[A-Za-z_][A-Za-z0-9_]*[[:space:]]*(\[[^]]*\])?[[:space:]]*(=|;)' src/*/*.c 2>/dev/null)
if [ -n "$state" ]; then
    echo "lint: mutable file-scope state in library code:" >&2
    echo "$state" >&2
    status=1
fi
mathinc=$(grep -n -E '#include[[:space:]]*<math.h>' src/*/*.c 2>/dev/null)
if [ -n "$mathinc" ]; then
    echo "lint: include \"../nsm_math.h\" instead of <math.h>:" >&2
    echo "$mathinc" >&2
    status=1
fi
# Build targets need only the build profile of deps.sh (not the proof toolchain), and library
# objects depend on the internal headers too.
plan=$(make -n -B all install PREFIX=build/lint-plan 2>/dev/null)
if echo "$plan" | grep -q -E 'deps\.sh (check|demo|bench)'; then
    echo "lint: make all/install would install more than the build profile of deps.sh" >&2
    status=1
fi
if ! make -p -n all 2>/dev/null | grep -E '^build/obj/%\.o:' | grep -q 'src/projection/internal.h'; then
    echo "lint: library objects do not depend on the internal headers" >&2
    status=1
fi
[ "$status" -eq 0 ] && echo "lint: no allocation, no mutable global state, libm through nsm_math.h," \
    "build needs only its own packages, objects depend on every header"
exit $status
