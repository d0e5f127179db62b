#!/bin/sh
# Fits a network on round ROUND's shards SNAP (docs/rounds/snap-tail.sh) as x29 and m34 were
# fitted (docs/learning.md): each shard scored again by K's built-in network at LABEL nodes
# with the 2-5 tables (once: kept beside the shard), records kept within 40 of the static
# score, half b's games renumbered from 1,000,000 (so that the games held out stay whole), half
# of each target moved to the game's result, then INIT warm-started EPOCHS epochs on them all.
#
#   ROUND=35 SNAP="s1 s2" INIT=/work/data/r97/b8s.net OUT=x36b.net sh docs/rounds/fit-shards.sh
#
# K must be a binary whose built-in network is the Python package's in $PY's environment (the
# same main): the labels and the static score that filters them are one network's.
set -e
round=${ROUND:?ROUND: the number of the round}
init=${INIT:?INIT: the network to start from}
out=${OUT:?OUT: the fitted network}
label=${LABEL:-32000}
share=${SHARE:-0.5}
k=${K:-kroon}
py=${PY:-/work/venv-probe/bin/python}
repo=$(cd "$(dirname "$0")/../.." && pwd)
probes="$repo/docs/probes"
cd "${DATA:-/work/data}/r$round"
data=""
for s in ${SNAP:?SNAP: the shards}; do
    for half in a b; do
        base="r${round}s-$s-$half-w$label"
        if [ ! -f "$base.bin" ]; then
            "$k" rescore --data "r${round}s-$s-$half.bin" --out "$base.tmp" --nodes "$label" \
                --threads 2 --tables "${TABLES:-/work/data/egdb}"
            mv "$base.tmp" "$base.bin"
        fi
        "$py" "$probes/near_static.py" "$base.bin" 40 "$base-f40.bin"
        if [ "$half" = b ]; then
            "$py" "$probes/renumber.py" "$base-f40.bin" "$base-f40.bin" 1000000
        fi
        "$py" "$probes/result_share.py" "$base-f40.bin" "$base-r$share.bin" "$share" 0.1 64.6
        data="$data $base-r$share.bin"
    done
done
# shellcheck disable=SC2086 # one file a word
"$k" train --data $data --out "$out" --model network --hidden 128 --views 2 --buckets 8 \
    --validation 0.05 --threads 2 --lambda 0.1 --scale 64.6 --init "$init" \
    --learning-rate 0.0003 --epochs "${EPOCHS:-2}"
