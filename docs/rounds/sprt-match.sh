#!/bin/sh
# The SPRT that sprt-net.sh, sprt-setting.sh and sprt-book.sh run: one binary K as "new" (with
# the Hub options NEW) against itself as "main" (with BASE), NODES a move, openings/OPENINGS
# (6-move.fen unless told) shuffled by SEED with both colours, two games at a time, SPRT [0, ELO1] by opening pairs (ELO1 5 unless
# told), into PDN in DATA/matches, resumed from it when it exists. Called by those three; run
# one of them rather than this.
set -e
: "${NEW:?}" "${BASE:?}" "${NODES:?}" "${SEED:?}" "${PDN:?}"
k=${K:-kroon}
repo=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "${DATA:-/work/data}/matches"
cd "${DATA:-/work/data}/matches"
exec "$k" match \
    --engine "name=new cmd='$k hub' $NEW" \
    --engine "name=main cmd='$k hub' $BASE" \
    --nodes "$NODES" --openings "$repo/openings/${OPENINGS:-6-move.fen}" --random --seed "$SEED" \
    --games 30000 --concurrency 2 --sprt "elo0=0 elo1=${ELO1:-5} alpha=0.05 beta=0.05" \
    --pdn "$PDN" --resume
