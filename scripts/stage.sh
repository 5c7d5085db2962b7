#!/bin/sh
# One stage of make check: runs the command and appends "<name> <wall seconds>" to
# build/results/stages.txt (printed by run-tests.sh summary). Exits with the command's status.
set -u
name=$1; shift
mkdir -p build/results
start=$(date +%s)
"$@"
rc=$?
echo "$name $(( $(date +%s) - start ))" >> build/results/stages.txt
exit $rc
