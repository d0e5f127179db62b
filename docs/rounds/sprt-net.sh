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
NEW="option.hash=32 option.book=off option.eval=$net" BASE="option.hash=32 option.book=off" \
    NODES=60000 SEED=$seed PDN="$(basename "$net" .net)-n60k-s$seed.pdn" \
    exec sh "$(dirname "$0")/sprt-match.sh"
