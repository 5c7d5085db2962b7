#!/bin/sh
# Install every Debian package nsmech uses (the C compiler aside) and configure Why3's provers.
# Idempotent: quiet when everything is already there. Needs root (or sudo) to install.
set -eu

PKGS="make libopenblas-dev libcunit1-dev liblapacke-dev frama-c-base why3 z3 cvc4 \
gnuplot-nox libcjson-dev pkg-config clang python3"

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
    echo "deps.sh: installing:$missing"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# Why3 must know the provers; detect once per machine (the config lives in $HOME).
if ! why3 config list-provers 2>/dev/null | grep -qi z3; then
    why3 config detect >/dev/null 2>&1 || why3 config --detect >/dev/null 2>&1 || true
fi
if ! why3 config list-provers 2>/dev/null | grep -qi z3; then
    echo "deps.sh: why3 does not see z3 after 'why3 config detect'" >&2
    exit 1
fi
exit 0
