#!/bin/sh
# A table of HASH MiB against one of AGAINST MiB (the default's 64 against Scan 2.0's 256 at
# a one-minute game, scaled down), at NODES a move (500,000 unless told), one binary,
# openings/6-move.fen shuffled by SEED with both colours, two games at a time, no book, SPRT
# [0, 5] by opening pairs. Why scaled: a move of a real one-minute game searches several
# million nodes (4-5 M a second on this machine, about a second a move), eight to ten times
# 500,000, so what 64 MiB is to it, 6-8 MiB is to 500,000; 4 against 16 MiB puts a little
# more pressure on the tables than 64 against 256 does at a real clock. A node clock does not
# see the memory's speed, which a larger table can only slow. Resumes from its PDN file
# (hash<HASH>v<AGAINST>-n<NODES>-s<SEED>.pdn in DATA/matches).
#
#   HASH=16 AGAINST=4 SEED=274 sh docs/rounds/sprt-hash.sh
#   python3 docs/sprt-sum.py new 0 5 /work/data/matches/hash16v4-n500000-s274.pdn
set -e
hash=${HASH:?HASH: the table to test, in MiB}
base=${AGAINST:?AGAINST: the table it plays against, in MiB}
seed=${SEED:?SEED: a seed no earlier test used}
nodes=${NODES:-500000}
# Checked here, before anything starts: the engine answers a bad size with a Hub `error`
# (and plays on with its default table), which `kroon match` since session 110 turns into a
# refused match, but older binaries played on and measured nothing.
for mib in "$hash" "$base"; do
    case $mib in
    '' | *[!0-9]*) echo "sprt-hash.sh: a table size is a whole number of MiB, not '$mib'" >&2; exit 2 ;;
    esac
done
NEW="option.book=off option.hash=$hash" BASE="option.book=off option.hash=$base" \
    NODES=$nodes SEED=$seed PDN="hash${hash}v$base-n$nodes-s$seed.pdn" \
    exec sh "$(dirname "$0")/sprt-match.sh"
