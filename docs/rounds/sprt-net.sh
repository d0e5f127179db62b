#!/bin/sh
# A network file NET against K's built-in network at equal nodes, as every candidate since
# session 89 was judged (docs/tuning.md): 60,000 nodes a move, openings/6-move.fen shuffled by
# SEED with both colours, two games at a time, no book, 32 MiB tables, SPRT [0, 5] by opening
# pairs. Resumes from its PDN file (<NET's name>-n60k-s<SEED>.pdn in DATA/matches).
#
#   NET=/work/data/r35/m36-s.net SEED=264 sh docs/rounds/sprt-net.sh
#   python3 docs/sprt-sum.py new 0 5 /work/data/matches/m36-s-n60k-s264.pdn   # read as it goes
set -e
net=${NET:?NET: the network file to test}
seed=${SEED:?SEED: a seed no earlier test used}
k=${K:-kroon}
repo=$(cd "$(dirname "$0")/../.." && pwd)
name=$(basename "$net" .net)
mkdir -p "${DATA:-/work/data}/matches"
cd "${DATA:-/work/data}/matches"
exec "$k" match \
    --engine "name=new cmd='$k hub' option.hash=32 option.book=off option.eval=$net" \
    --engine "name=main cmd='$k hub' option.hash=32 option.book=off" \
    --nodes 60000 --openings "$repo/openings/6-move.fen" --random --seed "$seed" \
    --games 30000 --concurrency 2 --sprt "elo0=0 elo1=5 alpha=0.05 beta=0.05" \
    --pdn "$name-n60k-s$seed.pdn" --resume
