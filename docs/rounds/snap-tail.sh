#!/bin/sh
# Cuts shard SNAP off each half of round ROUND: the half's header, then every record past the
# shards FROM (none: the whole file so far). A round's files only grow, a whole game at a time,
# so shards of one round concatenate and each is scored once; stop the round first
# (`pkill -f sparring_games.py`), so that no game is half written.
#
#   ROUND=35 SNAP=s1 sh docs/rounds/snap-tail.sh
#   ROUND=35 FROM="s1" SNAP=s2 sh docs/rounds/snap-tail.sh
set -e
round=${ROUND:?ROUND: the number of the round}
snap=${SNAP:?SNAP: the name of the new shard}
cd "${DATA:-/work/data}/r$round"
for half in a b; do
    src="round${round}s-$half.bin"
    skip=32 # the header
    for s in ${FROM:-}; do
        size=$(stat -c %s "r${round}s-$s-$half.bin")
        skip=$((skip + size - 32))
    done
    out="r${round}s-$snap-$half.bin"
    head -c 32 "$src" > "$out"
    tail -c "+$((skip + 1))" "$src" >> "$out"
    size=$(stat -c %s "$out")
    echo "$out: $((size / 32 - 1)) records"
done
