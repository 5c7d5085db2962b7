#!/bin/sh
# Install the Debian packages one make target needs (the C compiler aside), and for proofs
# configure Why3's provers. Idempotent: quiet when everything is already there. Needs root
# (or sudo) to install.
#
#   sh scripts/deps.sh build   make, make install: OpenBLAS (CBLAS), cJSON, pkg-config
#   sh scripts/deps.sh demo    build + gnuplot (the plots of make demo), python3-numpy and
#                              python3-matplotlib (its Python example, examples/python/)
#   sh scripts/deps.sh bench   build + LAPACKE (the baselines of make bench) + cJSON (its robot
#                              problems) + gnuplot (its plot)
#   sh scripts/deps.sh check   build + CUnit, LAPACKE (test oracles), clang and its runtime
#                              libraries (libFuzzer, sanitizers: libclang-rt-14-dev), python3,
#                              python3-numpy, python3-hypothesis (make test-python), Valgrind,
#                              Frama-C (with E-ACSL and its runtime; GMP), Why3, Z3, CVC4
#                              (make check, make test, make fuzz, make valgrind, make eacsl,
#                              make prove)
#   sh scripts/deps.sh coverage  build + CUnit, LAPACKE, gcovr (make coverage)
#   sh scripts/deps.sh models  build + MuJoCo (library, headers, sample models), cJSON,
#                              python3-numpy (make models, make test-models: tools/nsm-model)
#   sh scripts/deps.sh peers   build + LAPACKE, python3-numpy, python3-siconos (make test-peers:
#                              Moreau's impulse from Siconos against the test oracle)
# Without an argument: check (everything).
set -eu

profile=${1:-check}
BUILD_PKGS="make libopenblas-dev libcjson-dev pkg-config"
case "$profile" in
build) PKGS="$BUILD_PKGS" ;;
demo) PKGS="$BUILD_PKGS gnuplot-nox python3 python3-numpy python3-matplotlib" ;;
bench) PKGS="$BUILD_PKGS liblapacke-dev libcjson-dev gnuplot-nox" ;;
check) PKGS="$BUILD_PKGS libcunit1-dev liblapacke-dev libgmp-dev clang libclang-rt-14-dev python3
    python3-numpy python3-hypothesis valgrind frama-c-base why3 z3 cvc4" ;;
coverage) PKGS="$BUILD_PKGS libcunit1-dev liblapacke-dev gcovr" ;;
models) PKGS="$BUILD_PKGS libmujoco-dev libmujoco-samples libcjson-dev python3 python3-numpy" ;;
peers) PKGS="$BUILD_PKGS liblapacke-dev python3 python3-numpy python3-siconos" ;;
*)
    echo "deps.sh: unknown profile '$profile' (build, demo, bench, check, coverage, models, peers)" >&2
    exit 2
    ;;
esac

missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done

if [ -n "$missing" ]; then
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1; then
            SUDO=sudo
        else
            echo "deps.sh: missing Debian packages:$missing" >&2
            echo "deps.sh: run this script as root (or install them with apt-get) and retry." >&2
            exit 1
        fi
    else
        SUDO=""
    fi
    echo "deps.sh ($profile): installing:$missing"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

[ "$profile" = check ] || exit 0

# Why3 must know the provers; detect once per machine (the config lives in $HOME).
if ! why3 config list-provers 2>/dev/null | grep -qi z3; then
    why3 config detect >/dev/null 2>&1 || why3 config --detect >/dev/null 2>&1 || true
fi
if ! why3 config list-provers 2>/dev/null | grep -qi z3; then
    echo "deps.sh: why3 does not see z3 after 'why3 config detect'" >&2
    exit 1
fi
exit 0
