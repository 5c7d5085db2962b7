#!/bin/sh
# The library never allocates, checked at run time with the BLAS a default Debian install links
# (the threaded OpenBLAS, OPENBLAS_NUM_THREADS unset): examples/arm_cycle (6 000 control
# cycles of nsm_proj_projector and nsm_proj_dynamics, M̄ requested) under Valgrind, whose heap
# summary must stay below the program's own start-up and file allocations (ALLOC_MAX). A
# library call that allocated, once per cycle, would add thousands (OpenBLAS's threaded dsymm
# allocated 12 030 times in this run). Usage: alloc-check.sh ARM_CYCLE_BINARY
set -u
ALLOC_MAX=100
bin=$1
dir=$(mktemp -d) || exit 2
log=$dir/valgrind.log
env -u OPENBLAS_NUM_THREADS valgrind --log-file="$log" "$bin" "$dir" > /dev/null
rc=$?
n=$(sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' "$log" | tr -d ,)
rm -rf "$dir"
if [ "$rc" -ne 0 ] || [ -z "$n" ]; then
    echo "alloc: arm_cycle failed under valgrind (exit $rc)" >&2
    exit 1
fi
echo "alloc: arm_cycle, 6000 cycles, OPENBLAS_NUM_THREADS unset: $n heap allocations (at most $ALLOC_MAX)"
[ "$n" -le "$ALLOC_MAX" ]
