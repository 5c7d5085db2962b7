#!/bin/sh
# The prover cache, packed: proofs/wp-cache.tar.xz holds the WP cache entries that the tree's
# goals use, one JSON answer per goal hash (the hash of the exact Why3 task sent to a prover,
# and of the prover). WP reads and writes the unpacked entries in build/wp-cache/.
#
#   sh proofs/cache.sh unpack   unpack the archive into build/wp-cache/ when the archive is
#                               newer than the last unpack (or nothing is unpacked); every
#                               entry's access time is then set to the epoch, so that the
#                               entries a later proof run reads can be told from the rest
#   sh proofs/cache.sh pack     write the archive anew from the entries of build/wp-cache/
#                               that were read or written since the unpack: the entries the
#                               tree uses, no others. Refused unless the last `make prove`
#                               covered every module and proved every goal (build/proofs/
#                               complete), so that no entry in use is dropped
#   sh proofs/cache.sh stats    entries in the archive, unpacked, and used since the unpack
#
# The archive is deterministic (sorted names, fixed owner and times, xz -9 single-threaded):
# the same entries give the same bytes, so a diff of it shows only a change of entries.
set -eu
cd "$(dirname "$0")/.."
archive=proofs/wp-cache.tar.xz
dir=build/wp-cache
stamp=build/wp-cache.unpacked

unpack() {
    if [ -f "$stamp" ] && [ -d "$dir" ] && [ ! "$archive" -nt "$stamp" ]; then
        return 0
    fi
    rm -rf "$dir"
    mkdir -p "$dir"
    if [ -f "$archive" ]; then
        tar -xJf "$archive" -C "$dir"
    fi
    # The epoch is older than a day: on relatime and strictatime mounts the first read of an
    # entry sets its access time, and `pack` keeps exactly those entries.
    find "$dir" -type f -name '*.json' -exec touch -a -d @0 {} +
    touch "$stamp"
}

# Entries read (access time after the epoch) or written (modified after the unpack).
used() {
    find "$dir" -type f -name '*.json' \( -newerat @1 -o -newer "$stamp" \) -printf '%f\n' |
        LC_ALL=C sort
}

pack() {
    if [ ! -f build/proofs/complete ] || [ ! -f "$stamp" ] ||
       [ build/proofs/complete -ot "$stamp" ]; then
        echo "cache.sh pack: run a complete 'make prove' (every module, every goal proved) after" \
             "the last unpack first" >&2
        exit 1
    fi
    list=$(mktemp)
    used > "$list"
    n=$(wc -l < "$list")
    if [ "$n" -eq 0 ]; then
        echo "cache.sh pack: no entry was used; the mount may not record access times" >&2
        rm -f "$list"
        exit 1
    fi
    tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --format=gnu \
        -C "$dir" -cf - -T "$list" | xz -9 -T1 > "$archive.tmp"
    mv "$archive.tmp" "$archive"
    rm -f "$list"
    touch "$stamp"
    echo "cache.sh pack: $n entries in $archive ($(wc -c < "$archive") bytes)"
}

stats() {
    a=0
    [ -f "$archive" ] && a=$(tar -tJf "$archive" | grep -c '\.json$' || true)
    u=0; r=0
    if [ -d "$dir" ]; then
        u=$(find "$dir" -type f -name '*.json' | wc -l)
        r=$(used | wc -l)
    fi
    echo "archive $a unpacked $u used $r"
}

case "${1:-}" in
unpack) unpack ;;
pack) pack ;;
stats) stats ;;
*)
    echo "usage: sh proofs/cache.sh {unpack|pack|stats}" >&2
    exit 2
    ;;
esac
