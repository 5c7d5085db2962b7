# nsmech — the one entry point: all, check, test, test-python, asan, valgrind, eacsl, fuzz,
# coverage, prove, proved-client, demo, bench, install, clean.
#
#   make            static and shared libraries in build/
#   make test-python  the Python package python/nsmech over build/libnsmech.so: struct layouts,
#                   results equal to nsm's on examples/problems, Hypothesis properties
#                   (tests/python/, docs/python.md)
#   make check      set-up, unit + property tests, the same under ASan/UBSan, under Valgrind
#                   memcheck and with E-ACSL's run-time contract checks, a short fuzzing run,
#                   then proofs and the proved client
#   make valgrind   every test program (and the nsm program test_cli runs) under memcheck,
#                   fewer property cases (NSM_PROP_CASES=$(VG_PROP_CASES))
#   make eacsl      the tests but test_cli against the library with its public contracts compiled
#                   into run-time checks by E-ACSL (exact arithmetic), fewer property cases
#                   (NSM_PROP_CASES=$(EACSL_PROP_CASES)); last line 'eacsl: N runs, 0 violations'
#   make fuzz       libFuzzer harnesses (tests/fuzz/), FUZZ_SECONDS each (default 60)
#   make coverage   gcc --coverage build, the tests, gcovr over src/: HTML report in
#                   build/coverage/, last line 'coverage lines X% branches Y%'
#   make demo       set-up, build and run the examples (CSV + PNG under build/demo/)
#   make bench      benchmarks (timings printed, nothing asserted)
#   make prove      Frama-C/WP over every source file; fails on any unproved goal (prover
#                   results cached in proofs/wp-cache.tar.xz; make prove-full ignores the
#                   cache; make prove-pack repacks the entries a complete run used)
#   make proved-client  a user's controller proved against the installed headers, built, run
#   make install    PREFIX=/usr/local: headers, libraries, nsmech.pc
#   make models     build/nsm-model (MuJoCo problem exporter, tools/nsm-model; the library does
#                   not link MuJoCo) and the shipped model problems regenerated in build/models/
#   make test-models  those problems checked against finite differences, nsm run on them
#                   (not part of make check); make models-ship copies them to examples/problems/
#   make test-peers Moreau's impulse on the 20 problems of tests/support/moreau_problems.c from
#                   the enumeration oracle against Siconos (python3-siconos; not part of make
#                   check): fails on a difference beyond 1e-9 relative
#
# CC=clang works as well as the default gcc.

CC      ?= gcc
PREFIX  ?= /usr/local
VERSION := 0.1.0

BUILD   := build
# Set-up stamps, one per profile of scripts/deps.sh: what a target needs and nothing more.
STAMP_BUILD := $(BUILD)/.deps-build
STAMP_DEMO  := $(BUILD)/.deps-demo
STAMP_BENCH := $(BUILD)/.deps-bench
STAMP_CHECK := $(BUILD)/.deps-check
STAMP_COV   := $(BUILD)/.deps-coverage
STAMP_MODELS := $(BUILD)/.deps-models
STAMP_PEERS := $(BUILD)/.deps-peers

WARN    := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wpointer-arith -Wcast-qual -Wvla -pedantic
OPT     ?= -O2
CFLAGS  ?=
NSM_CFLAGS := $(WARN) $(OPT) -fPIC -Iinclude $(CFLAGS)
BLAS_LIBS  := -lopenblas
MATH_LIBS  := -lm

LIB_SRC := $(sort $(wildcard src/*/*.c))
# Every header a library object may include (public, internal, per module).
LIB_HDR := $(wildcard include/*.h include/nsmech/*.h src/*.h src/*/*.h)
LIB_OBJ := $(patsubst src/%.c,$(BUILD)/obj/%.o,$(LIB_SRC))
LIB_A   := $(BUILD)/libnsmech.a
LIB_SO  := $(BUILD)/libnsmech.so

# Tests: every tests/test_*.c is one CUnit program; tests/support/*.c is linked into each.
TEST_SRC     := $(sort $(wildcard tests/test_*.c))
TEST_SUP     := $(sort $(wildcard tests/support/*.c))
TEST_BIN     := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))
ASAN_BIN     := $(patsubst tests/%.c,$(BUILD)/asan/%,$(TEST_SRC))
# cJSON: test_cli reads the program's JSON output, tests/support/problem_file.c the shipped
# problems.
TEST_LIBS    := -lcunit -llapacke -llapack -lcjson $(BLAS_LIBS) $(MATH_LIBS)
# Accuracy programs (tests/accuracy/*.c, CUnit like the tests): comparisons that need an
# oracle at millions of steps per case; they run once, plainly, each as two shards.
ACC_SRC      := $(sort $(wildcard tests/accuracy/*.c))
ACC_BIN      := $(patsubst tests/accuracy/%.c,$(BUILD)/accuracy/%,$(ACC_SRC))
# Tests that check contracts on doubles in exact rational arithmetic (tests/support/exact.h).
TEST_LIBS_test_setvalued := -lgmp
TEST_LIBS_test_contact := -lgmp
TEST_LIBS_test_impact := -lgmp
TEST_LIBS_test_impact_spatial := -lgmp
ASAN_FLAGS   := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g
# The library compiled once with the sanitizers and linked into each sanitized program.
ASAN_LIB     := $(BUILD)/asan/libnsmech.a
# Valgrind memcheck: plain -O1 -g builds; a memcheck error or leak fails the program (exit 1).
# Suppressions (system-library frames only, each explained) go in tests/valgrind.supp.
VG_BIN       := $(patsubst tests/%.c,$(BUILD)/valgrind/%,$(TEST_SRC))
VG_FLAGS     := -O1 -g
VG_LIB       := $(BUILD)/valgrind/libnsmech.a
VG_PROP_CASES ?= 3
VALGRIND     := valgrind --quiet --error-exitcode=1 --leak-check=full \
                --errors-for-leak-kinds=definite,indirect,possible \
                --suppressions=tests/valgrind.supp
# Coverage: gcc --coverage objects under build/coverage/ (library, tests, nsm), gcovr over src/.
COV_DIR      := $(BUILD)/coverage
COV_FLAGS    := -O0 -g --coverage
COV_BIN      := $(patsubst tests/%.c,$(COV_DIR)/tests/%,$(TEST_SRC))

TOOL_SRC     := $(sort $(wildcard tools/nsm/*.c))
NSM_BIN      := $(BUILD)/nsm

EXAMPLE_SRC  := $(sort $(wildcard examples/*.c))
EXAMPLE_BIN  := $(patsubst examples/%.c,$(BUILD)/examples/%,$(EXAMPLE_SRC))
BENCH_SRC    := $(sort $(wildcard bench/*.c))
BENCH_BIN    := $(patsubst bench/%.c,$(BUILD)/bench/%,$(BENCH_SRC))

# Compilers run at once by the stages of make check (one per core).
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

# Single-threaded BLAS: deterministic results and honest per-call timings.
export OPENBLAS_NUM_THREADS := 1

.PHONY: all deps check compile-clang tools test test-python accuracy asan valgrind eacsl fuzz coverage eva prove prove-full prove-pack \
        realtime \
        proved-client demo bench install uninstall clean examples models models-ship test-models \
        test-peers

all: $(LIB_A) $(LIB_SO) $(NSM_BIN)

# Set-up: install the Debian packages a target uses, once per machine and profile (stamps).
deps: $(STAMP_CHECK)
$(BUILD)/.deps-%: scripts/deps.sh
	@sh scripts/deps.sh $*
	@mkdir -p $(BUILD) && touch $@
.PRECIOUS: $(BUILD)/.deps-%

$(BUILD)/obj/%.o: src/%.c $(LIB_HDR) | $(STAMP_BUILD)
	@mkdir -p $(dir $@)
	$(CC) $(NSM_CFLAGS) -c $< -o $@

$(LIB_A): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(LIB_SO): $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,libnsmech.so.0 -o $@ $^ $(BLAS_LIBS) $(MATH_LIBS)

# --- tests --------------------------------------------------------------------------------
$(BUILD)/tests/%: tests/%.c $(TEST_SUP) $(wildcard tests/support/*.h) $(LIB_A) | $(STAMP_CHECK)
	@mkdir -p $(dir $@)
	$(CC) $(NSM_CFLAGS) -Itests/support $< $(TEST_SUP) $(LIB_A) $(TEST_LIBS) $(TEST_LIBS_$*) -o $@

$(BUILD)/accuracy/%: tests/accuracy/%.c $(TEST_SUP) $(wildcard tests/support/*.h) $(LIB_A) | $(STAMP_CHECK)
	@mkdir -p $(dir $@)
	$(CC) $(NSM_CFLAGS) -Itests/support $< $(TEST_SUP) $(LIB_A) $(TEST_LIBS) -o $@

$(BUILD)/asan/obj/%.o: src/%.c $(LIB_HDR) | $(STAMP_CHECK)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -O1 $(ASAN_FLAGS) -Iinclude -c $< -o $@

$(ASAN_LIB): $(patsubst src/%.c,$(BUILD)/asan/obj/%.o,$(LIB_SRC))
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/asan/%: tests/%.c $(TEST_SUP) $(wildcard tests/support/*.h) $(ASAN_LIB) | $(STAMP_CHECK)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -O1 $(ASAN_FLAGS) -Iinclude -Itests/support $< $(TEST_SUP) $(ASAN_LIB) \
	    $(TEST_LIBS) $(TEST_LIBS_$*) -o $@

$(BUILD)/valgrind/obj/%.o: src/%.c $(LIB_HDR) | $(STAMP_CHECK)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(VG_FLAGS) -Iinclude -c $< -o $@

$(VG_LIB): $(patsubst src/%.c,$(BUILD)/valgrind/obj/%.o,$(LIB_SRC))
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/valgrind/%: tests/%.c $(TEST_SUP) $(wildcard tests/support/*.h) $(VG_LIB) | $(STAMP_CHECK)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(VG_FLAGS) -Iinclude -Itests/support $< $(TEST_SUP) $(VG_LIB) \
	    $(TEST_LIBS) $(TEST_LIBS_$*) -o $@

# The library must build warning-free with clang as well as gcc.
compile-clang: | $(STAMP_CHECK)
	@mkdir -p $(BUILD)/clang
	@for f in $(LIB_SRC); do \
	    clang $(WARN) $(OPT) -Iinclude -c $$f -o $(BUILD)/clang/$$(echo $$f | tr / _).o || exit 1; \
	done
	@echo "compile-clang: $(words $(LIB_SRC)) files build warning-free with clang"

# The README's real-time claim (tests/realtime/realtime_check.c): no allocation and no work
# for OpenBLAS's worker threads, with OPENBLAS_NUM_THREADS unset (Debian's default build).
RT_BIN := $(BUILD)/tests/realtime/realtime_check

test: $(TEST_BIN) $(RT_BIN)
	@sh scripts/run-tests.sh plain $(TEST_BIN)
	@env -u OPENBLAS_NUM_THREADS $(RT_BIN)

realtime: $(RT_BIN)
	@env -u OPENBLAS_NUM_THREADS $(RT_BIN)

# The Python package (python/nsmech) over the shared library, with Debian's python3 and its
# numpy and hypothesis (check profile), whatever python3 comes first in PATH.
PYTHON ?= /usr/bin/python3

test-python: $(LIB_SO) $(NSM_BIN) | $(STAMP_CHECK)
	@start=$$(date +%s); \
	PYTHONPATH=python NSMECH_LIB=$(CURDIR)/$(LIB_SO) NSM_BIN=$(CURDIR)/$(NSM_BIN) \
	    $(PYTHON) -m unittest discover -s tests/python -p 'test_*.py' || exit 1; \
	echo "test-python: passed in $$(( $$(date +%s) - start )) s"

accuracy: $(ACC_BIN)
	@sh scripts/run-tests.sh accuracy $(foreach b,$(ACC_BIN),$(b):0/2 $(b):1/2)

asan: $(ASAN_BIN)
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    NSM_BIN=$(BUILD)/asan/nsm sh scripts/run-tests.sh sanitized $(ASAN_BIN)

# test_cli runs nsm through NSM_BIN: a generated wrapper that runs build/valgrind/nsm under
# memcheck, its reports in build/valgrind/nsm-logs/ (run-tests.sh fails on any non-empty one).
# test_cli is most of the stage under memcheck (every nsm run it makes is a memcheck run:
# about 90 s, the other programs 35 s together); it runs as four shards of its tests, first.
VG_CLI_SHARDS := $(foreach i,0 1 2 3,$(BUILD)/valgrind/test_cli:$(i)/4)

valgrind: $(VG_BIN) $(BUILD)/valgrind/nsm-memcheck $(BUILD)/examples/arm_cycle
	@sh scripts/alloc-check.sh $(BUILD)/examples/arm_cycle
	@rm -rf $(BUILD)/valgrind/nsm-logs && mkdir -p $(BUILD)/valgrind/nsm-logs
	@NSM_PROP_CASES=$(VG_PROP_CASES) NSM_TEST_RUNNER="$(VALGRIND)" \
	    NSM_VG_LOGS=$(BUILD)/valgrind/nsm-logs NSM_BIN=$(BUILD)/valgrind/nsm-memcheck \
	    sh scripts/run-tests.sh valgrind $(VG_CLI_SHARDS) $(filter-out %/test_cli,$(VG_BIN))

# E-ACSL (docs/proofs.md, scripts/eacsl.sh): Frama-C's E-ACSL translates the contracts of the
# public functions into C checks (GMP integers and rationals), the library is built from that
# code (build/eacsl/libnsmech-eacsl.a) and every test program but test_cli runs against it
# with E-ACSL's runtime and tests/eacsl/eacsl_rt.c's handler; fails on any violation. gcc only
# (the generated code and the runtime are built as E-ACSL's own wrapper builds them).
EACSL_PROP_CASES ?= 3

eacsl: | $(STAMP_CHECK)
	@NSM_PROP_CASES=$(EACSL_PROP_CASES) CC=gcc sh scripts/eacsl.sh

$(BUILD)/valgrind/nsm-memcheck: Makefile $(BUILD)/valgrind/nsm
	@printf '#!/bin/sh\n# generated by make: nsm under Valgrind memcheck for test_cli\nexec %s --log-file=%s/nsm-logs/nsm.%%p.log %s "$$@"\n' \
	    '$(VALGRIND)' '$(BUILD)/valgrind' '$(BUILD)/valgrind/nsm' > $@
	@chmod +x $@

# Coverage (not part of make check): the library, the tests and nsm built with --coverage
# from their sources, the tests run (test_cli drives the covered nsm), gcovr over src/ only.
$(COV_DIR)/obj/%.o: src/%.c $(LIB_HDR) | $(STAMP_COV)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(COV_FLAGS) -Iinclude -c $< -o $@

$(COV_DIR)/libnsmech.a: $(patsubst src/%.c,$(COV_DIR)/obj/%.o,$(LIB_SRC))
	@rm -f $@
	ar rcs $@ $^

$(COV_DIR)/tests/%: tests/%.c $(TEST_SUP) $(wildcard tests/support/*.h) $(COV_DIR)/libnsmech.a \
                    | $(STAMP_COV)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(COV_FLAGS) -Iinclude -Itests/support $< $(TEST_SUP) $(COV_DIR)/libnsmech.a \
	    $(TEST_LIBS) $(TEST_LIBS_$*) -o $@

$(COV_DIR)/nsm: $(TOOL_SRC) tools/nsm/cli.h $(COV_DIR)/libnsmech.a | $(STAMP_COV)
	$(CC) $(WARN) $(COV_FLAGS) -Iinclude -DNSM_VERSION='"$(VERSION)"' $(TOOL_SRC) \
	    $(COV_DIR)/libnsmech.a -lcjson $(BLAS_LIBS) $(MATH_LIBS) -o $@

$(COV_DIR)/tests/test_cli: $(COV_DIR)/nsm

coverage: $(COV_BIN) $(COV_DIR)/nsm
	@find $(COV_DIR) -name '*.gcda' -delete
	@NSM_BIN=$(COV_DIR)/nsm sh scripts/run-tests.sh coverage $(COV_BIN)
	@sh scripts/coverage.sh $(COV_DIR)

# Frama-C/Eva: no float run-time error in the closed-form kernels over the input ranges their
# headers state (proofs/eva.sh, drivers in proofs/eva/).
eva: | $(STAMP_CHECK)
	@bash proofs/eva.sh

prove: | $(STAMP_CHECK)
	@bash proofs/prove.sh

# The same proofs without the prover cache: every goal goes to the provers.
prove-full: | $(STAMP_CHECK)
	@NSM_WP_CACHE=none bash proofs/prove.sh

# After a complete `make prove`: rewrite proofs/wp-cache.tar.xz with exactly the cache entries
# that run read or wrote (proofs/cache.sh).
prove-pack:
	@sh proofs/cache.sh pack

# A user's controller proved against the INSTALLED headers and ACSL logic only
# (docs/proving-clients.md): install into build/stage, prove examples/proved_client/client.c
# with WP (RTE and every nsmech precondition; fails on any unproved goal or warning), then
# build it with -Werror against the same headers and run it.
PC_DIR   := examples/proved_client
PC_OUT   := $(BUILD)/proved-client
PC_STAGE := $(CURDIR)/$(BUILD)/stage

proved-client: | $(STAMP_CHECK)
	@mkdir -p $(PC_OUT) && rm -f $(PC_OUT)/wp.json
	@$(MAKE) --no-print-directory install PREFIX=$(PC_STAGE) DESTDIR= > $(PC_OUT)/install.log \
	    2>&1 || { cat $(PC_OUT)/install.log >&2; exit 1; }
	@start=$$(date +%s); \
	frama-c -wp -wp-rte -wp-model=real -wp-prover=cvc4,z3 -wp-timeout=60 -pp-annot \
	    -cpp-extra-args="-I$(PC_STAGE)/include" -kernel-warn-key=parser:decimal-float=inactive \
	    -wp-no-let -wp-report-json $(PC_OUT)/wp.json $(PC_DIR)/client.c > $(PC_OUT)/wp.log 2>&1; \
	rc=$$?; secs=$$(( $$(date +%s) - start )); \
	set -- $$(python3 -c 'import json,sys; g = json.load(open(sys.argv[1]))["wp:global"]["wp:main"]; \
	    print(g.get("total", 0), g.get("valid", 0))' $(PC_OUT)/wp.json 2>/dev/null || echo 0 0); \
	echo "proved-client: $$2/$$1 goals ($$secs s, log $(PC_OUT)/wp.log)"; \
	if [ $$rc -ne 0 ] || [ $$1 -eq 0 ] || [ $$1 -ne $$2 ] || grep -q Warning $(PC_OUT)/wp.log; then \
	    grep -h -E '\[(Failed|Unknown|Timeout)\]|Warning|Error' $(PC_OUT)/wp.log | head -20 >&2; \
	    echo "proved-client: unproved goals or warnings" >&2; exit 1; \
	fi
	$(CC) $(WARN) $(OPT) -I$(PC_STAGE)/include $(PC_DIR)/client.c $(LIB_A) $(BLAS_LIBS) \
	    $(MATH_LIBS) -o $(PC_OUT)/client
	@$(PC_OUT)/client

# The build, test, asan and valgrind stages compile with JOBS compilers at once; the test
# programs of a stage run one per core (scripts/run-tests.sh, NSM_TEST_JOBS), and so do the
# fuzzing harnesses.
check: $(STAMP_CHECK)
	@rm -f $(BUILD)/results/stages.txt
	@sh scripts/stage.sh build $(MAKE) --no-print-directory -j$(JOBS) all
	@sh scripts/stage.sh clang $(MAKE) --no-print-directory compile-clang
	@sh scripts/stage.sh lint sh scripts/lint.sh
	@sh scripts/stage.sh test $(MAKE) --no-print-directory -j$(JOBS) test
	@sh scripts/stage.sh python $(MAKE) --no-print-directory test-python
	@sh scripts/stage.sh accuracy $(MAKE) --no-print-directory -j$(JOBS) accuracy
	@sh scripts/stage.sh asan $(MAKE) --no-print-directory -j$(JOBS) asan
	@sh scripts/stage.sh valgrind $(MAKE) --no-print-directory -j$(JOBS) valgrind
	@sh scripts/stage.sh eacsl $(MAKE) --no-print-directory eacsl
	@sh scripts/stage.sh fuzz $(MAKE) --no-print-directory -k -j$(JOBS) fuzz FUZZ_SECONDS=60 \
	    FUZZ_EXTRA="-seed=1 -runs=200000"
	@sh scripts/stage.sh eva $(MAKE) --no-print-directory eva
	@sh scripts/stage.sh prove $(MAKE) --no-print-directory prove
	@sh scripts/stage.sh proved-client $(MAKE) --no-print-directory proved-client
	@sh scripts/run-tests.sh summary

# --- the nsm command-line program (links cJSON; the library itself stays JSON-free) -------
$(NSM_BIN): $(TOOL_SRC) tools/nsm/cli.h $(LIB_A)
	$(CC) $(NSM_CFLAGS) -DNSM_VERSION='"$(VERSION)"' $(TOOL_SRC) $(LIB_A) -lcjson \
	    $(BLAS_LIBS) $(MATH_LIBS) -o $@

# The same program with sanitizers, driven by the sanitized test_cli.
$(BUILD)/asan/nsm: $(TOOL_SRC) tools/nsm/cli.h $(ASAN_LIB) | $(STAMP_CHECK)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) -O1 $(ASAN_FLAGS) -Iinclude -DNSM_VERSION='"$(VERSION)"' $(TOOL_SRC) $(ASAN_LIB) \
	    -lcjson $(BLAS_LIBS) $(MATH_LIBS) -o $@

# test_cli runs the program as a separate process.
$(BUILD)/tests/test_cli: $(NSM_BIN)
$(BUILD)/asan/test_cli: $(BUILD)/asan/nsm
$(BUILD)/valgrind/test_cli: $(BUILD)/valgrind/nsm-memcheck

$(BUILD)/valgrind/nsm: $(TOOL_SRC) tools/nsm/cli.h $(VG_LIB) | $(STAMP_CHECK)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(VG_FLAGS) -Iinclude -DNSM_VERSION='"$(VERSION)"' $(TOOL_SRC) $(VG_LIB) \
	    -lcjson $(BLAS_LIBS) $(MATH_LIBS) -o $@

tools: $(NSM_BIN)

# --- fuzzing (libFuzzer with ASan/UBSan; clang 14, libclang-rt-14-dev) -----------------------
# Each harness tests/fuzz/<h>.c is linked with the library (and, for fuzz_cli, the nsm sources
# but main.c) compiled with the same sanitizers; scripts/fuzz.sh runs it FUZZ_SECONDS on a copy
# of tests/fuzz/corpus/<h> in build/fuzz/corpus/<h> and prints
# "fuzz <h> executions <E> findings <F>"; any finding fails the target.
# make check runs each harness with a fixed seed for a fixed number of inputs (FUZZ_EXTRA),
# the time limit only as a cap, so that a clean-clone run explores the same inputs each time.
FUZZ_SECONDS ?= 60
FUZZ_EXTRA   ?=
FUZZ_HARNESS := fuzz_cli fuzz_api
FUZZ_BIN     := $(patsubst %,$(BUILD)/fuzz/%,$(FUZZ_HARNESS))
FUZZ_FLAGS   := -std=c11 -Wall -Wextra -Werror -O1 -g -fsanitize=fuzzer,address,undefined \
                -fno-sanitize-recover=all -fno-omit-frame-pointer -Iinclude
FUZZ_OPTS_fuzz_cli := -max_len=4096 -dict=tests/fuzz/fuzz_cli.dict
FUZZ_OPTS_fuzz_api := -max_len=512
CLI_SRC      := $(filter-out tools/nsm/main.c,$(TOOL_SRC))

$(BUILD)/fuzz/fuzz_cli: tests/fuzz/fuzz_cli.c $(CLI_SRC) tools/nsm/cli.h $(LIB_SRC) $(LIB_HDR) \
                        | $(STAMP_CHECK)
	@mkdir -p $(dir $@)
	clang $(FUZZ_FLAGS) -Itools/nsm $< $(CLI_SRC) $(LIB_SRC) -lcjson $(BLAS_LIBS) $(MATH_LIBS) -o $@

$(BUILD)/fuzz/fuzz_api: tests/fuzz/fuzz_api.c $(LIB_SRC) $(LIB_HDR) | $(STAMP_CHECK)
	@mkdir -p $(dir $@)
	clang $(FUZZ_FLAGS) $< $(LIB_SRC) $(BLAS_LIBS) $(MATH_LIBS) -o $@

# One run target per harness, so that make -j runs the harnesses side by side (make check
# runs them on its JOBS cores); each is single-threaded.
FUZZ_RUN     := $(patsubst %,fuzz-run-%,$(FUZZ_HARNESS))
.PHONY: $(FUZZ_RUN)

fuzz: $(FUZZ_RUN)

$(FUZZ_RUN): fuzz-run-%: $(BUILD)/fuzz/%
	@sh scripts/fuzz.sh $* $(FUZZ_SECONDS) $(FUZZ_OPTS_$*) $(FUZZ_EXTRA)

# --- examples, demo, bench ----------------------------------------------------------------
$(BUILD)/examples/%: examples/%.c examples/impact_demo.h examples/compass_gait.h $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(NSM_CFLAGS) $< $(LIB_A) $(BLAS_LIBS) $(MATH_LIBS) -o $@

examples: $(EXAMPLE_BIN)

demo: $(STAMP_DEMO)
	@$(MAKE) --no-print-directory all examples
	@sh scripts/demo.sh $(EXAMPLE_BIN)
	@PYTHONPATH=python $(PYTHON) examples/python/outcome_set_plot.py $(BUILD)/demo/outcome_set_python.png

# Benchmarks may use the test oracles of tests/support/impact_oracle.c (coverage references)
# and moreau_oracle.c, moreau_problems.c (Moreau's impulse), problem_file.c (the shipped JSON
# problems), and the examples' problem data (examples/compass_gait.h).
BENCH_SUP := tests/support/impact_oracle.c tests/support/moreau_oracle.c \
             tests/support/moreau_problems.c tests/support/problem_file.c
$(BUILD)/bench/%: bench/%.c $(wildcard tests/support/*.h) examples/compass_gait.h $(BENCH_SUP) \
                  $(LIB_A) | $(STAMP_BENCH)
	@mkdir -p $(dir $@)
	$(CC) $(NSM_CFLAGS) -Ibench -Itests/support -Iexamples $< $(BENCH_SUP) $(LIB_A) -lcjson -llapacke -llapack $(BLAS_LIBS) $(MATH_LIBS) -o $@

bench: $(STAMP_BENCH)
	@$(MAKE) --no-print-directory all $(BENCH_BIN)
	@for b in $(BENCH_BIN); do echo "== $$b"; $$b || exit 1; done
	@for gp in $(BUILD)/bench/*.gp; do [ -f "$$gp" ] || continue; \
	    (cd $(BUILD)/bench && gnuplot "$$(basename "$$gp")") && echo "plot: $${gp%.gp}.png"; done

# --- models: problems exported from MuJoCo models (tools/nsm-model, docs/models.md) ---------
# nsm-model links MuJoCo and cJSON; it is a tool outside the library (no libnsmech inside).
# Each shipped problem examples/problems/<case>.json is regenerated as build/models/<case>.json
# from examples/models/<case>.state.json with MODEL_XML_<case> and MODEL_CMD_<case> (impact
# when unset). make models-ship copies the regenerated problems over the shipped ones.
MUJOCO_MODELS ?= /usr/share/mujoco/model
MODEL_SRC    := $(sort $(wildcard tools/nsm-model/*.c))
MODEL_BIN    := $(BUILD)/nsm-model
MODEL_CASES  := humanoid_land_one_foot humanoid_land_two_feet box_land_flat dynamics_humanoid_stand
MODEL_XML_humanoid_land_one_foot  := $(MUJOCO_MODELS)/humanoid/humanoid.xml
MODEL_XML_humanoid_land_two_feet  := $(MUJOCO_MODELS)/humanoid/humanoid.xml
MODEL_XML_dynamics_humanoid_stand := $(MUJOCO_MODELS)/humanoid/humanoid.xml
MODEL_CMD_dynamics_humanoid_stand := dynamics
MODEL_XML_box_land_flat           := examples/models/box.xml
MODEL_OUT    := $(patsubst %,$(BUILD)/models/%.json,$(MODEL_CASES))
MODEL_FLAGS  := $(WARN) $(OPT) $(CFLAGS)

$(MODEL_BIN): $(MODEL_SRC) | $(STAMP_MODELS)
	$(CC) $(MODEL_FLAGS) $(MODEL_SRC) -lmujoco -lcjson -lm -o $@

$(BUILD)/models/box_land_flat.json: examples/models/box.xml

$(BUILD)/models/%.json: examples/models/%.state.json $(MODEL_BIN)
	@mkdir -p $(dir $@)
	$(MODEL_BIN) $(or $(MODEL_CMD_$*),impact) $(MODEL_XML_$*) $< > $@.tmp && mv $@.tmp $@

models: $(MODEL_BIN) $(MODEL_OUT)

models-ship: models
	@for c in $(MODEL_CASES); do cp $(BUILD)/models/$$c.json examples/problems/$$c.json; done
	@echo "models-ship: $(words $(MODEL_CASES)) problems copied to examples/problems/"

# The independent finite-difference computations the tests compare nsm-model with.
$(BUILD)/models/fdcheck: tests/models/fdcheck.c | $(STAMP_MODELS)
	@mkdir -p $(dir $@)
	$(CC) $(MODEL_FLAGS) $< -lmujoco -lcjson -lm -o $@

# Debian's python3 (python3-numpy of the models profile), whatever python3 comes first in PATH.
MODELS_PYTHON ?= /usr/bin/python3

test-models: models $(NSM_BIN) $(BUILD)/models/fdcheck
	@MUJOCO_MODELS=$(MUJOCO_MODELS) $(MODELS_PYTHON) tests/models/run.py $(BUILD)

# --- peers: other implementations the tests compare with (not part of make check) ----------
# Siconos (Debian python3-siconos, test-only) computes Moreau's impulse on the problems that
# build/peers/moreau_dump writes with the enumeration oracle's solutions; the script exits 1
# when Siconos fails or its v+ differs from the oracle's by more than 1e-9 of max|v-|.
PEERS_PYTHON ?= /usr/bin/python3
PEERS_SUP    := tests/support/moreau_oracle.c tests/support/moreau_problems.c \
                tests/support/impact_oracle.c

$(BUILD)/peers/moreau_dump: tests/peers/moreau_dump.c $(PEERS_SUP) $(wildcard tests/support/*.h) \
                            $(LIB_A) | $(STAMP_PEERS)
	@mkdir -p $(dir $@)
	$(CC) $(NSM_CFLAGS) -Itests/support $< $(PEERS_SUP) $(LIB_A) -llapacke -llapack $(BLAS_LIBS) \
	    $(MATH_LIBS) -o $@

test-peers: $(BUILD)/peers/moreau_dump
	@$(BUILD)/peers/moreau_dump > $(BUILD)/peers/moreau_problems.json
	@$(PEERS_PYTHON) tests/peers/moreau_siconos.py --check $(BUILD)/peers/moreau_problems.json

# --- install ------------------------------------------------------------------------------
install: all
	install -d $(DESTDIR)$(PREFIX)/include/nsmech $(DESTDIR)$(PREFIX)/lib/pkgconfig \
	    $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(NSM_BIN) $(DESTDIR)$(PREFIX)/bin/nsm
	install -m 644 docs/nsm.1 $(DESTDIR)$(PREFIX)/share/man/man1/nsm.1
	install -m 644 include/nsmech.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 include/nsmech/*.h $(DESTDIR)$(PREFIX)/include/nsmech/
	# the ACSL logic the contracts use (included under __FRAMAC__ from the headers' folder)
	install -m 644 specs/*.acsl.h $(DESTDIR)$(PREFIX)/include/nsmech/
	install -m 644 $(LIB_A) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(LIB_SO) $(DESTDIR)$(PREFIX)/lib/libnsmech.so.$(VERSION)
	ln -sf libnsmech.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libnsmech.so.0
	ln -sf libnsmech.so.0 $(DESTDIR)$(PREFIX)/lib/libnsmech.so
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' scripts/nsmech.pc.in \
	    > $(DESTDIR)$(PREFIX)/lib/pkgconfig/nsmech.pc
	# the Python package (it finds the installed libnsmech.so.0)
	install -d $(DESTDIR)$(PREFIX)/lib/python3/dist-packages/nsmech
	install -m 644 python/nsmech/*.py $(DESTDIR)$(PREFIX)/lib/python3/dist-packages/nsmech/

uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/include/nsmech $(DESTDIR)$(PREFIX)/include/nsmech.h
	rm -f $(DESTDIR)$(PREFIX)/bin/nsm $(DESTDIR)$(PREFIX)/share/man/man1/nsm.1
	rm -f $(DESTDIR)$(PREFIX)/lib/libnsmech.* $(DESTDIR)$(PREFIX)/lib/pkgconfig/nsmech.pc
	rm -rf $(DESTDIR)$(PREFIX)/lib/python3/dist-packages/nsmech

clean:
	rm -rf $(BUILD)/obj $(BUILD)/tests $(BUILD)/asan $(BUILD)/valgrind $(COV_DIR) \
	       $(BUILD)/examples $(BUILD)/bench $(BUILD)/demo $(BUILD)/proofs $(BUILD)/clang \
	       $(NSM_BIN) $(BUILD)/*.a $(BUILD)/*.so $(BUILD)/results $(PC_OUT) $(BUILD)/stage \
	       $(BUILD)/fuzz $(BUILD)/models $(MODEL_BIN) $(BUILD)/peers $(BUILD)/eacsl
