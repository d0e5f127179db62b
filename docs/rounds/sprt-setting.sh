#!/bin/sh
# A search setting SET (Hub's `pruning` param, `name:value` pairs) against K's defaults at NODES
# a move (500,000 unless told), one binary, openings/6-move.fen shuffled by SEED with both
# colours, two games at a time, no book, the default 64 MiB table, SPRT [0, ELO1] by opening
# pairs (ELO1 5 unless told). Why a node count this high: the search settings were tuned at
# 60,000 nodes a move or a node clock of 300,000 a second, while a one-minute game at a real
# clock searches about 2.5 M nodes a move, where reductions and extensions act at depths the
# tuning never reached (docs/tuning.md, "Settings at depth"). Resumes from its PDN file
# (<TAG>-n<NODES>-s<SEED>.pdn in DATA/matches).
#
#   SET=lmr-max:3 TAG=lmrmax3 SEED=268 sh docs/rounds/sprt-setting.sh
#   python3 docs/sprt-sum.py new 0 5 /work/data/matches/lmrmax3-n500000-s268.pdn
set -e
set_=${SET:?SET: the setting to test, e.g. lmr-max:3}
tag=${TAG:?TAG: a short name for the files}
seed=${SEED:?SEED: a seed no earlier test used}
nodes=${NODES:-500000}
k=${K:-kroon}
repo=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "${DATA:-/work/data}/matches"
cd "${DATA:-/work/data}/matches"
exec "$k" match \
    --engine "name=new cmd='$k hub' option.book=off option.pruning=$set_" \
    --engine "name=main cmd='$k hub' option.book=off" \
    --nodes "$nodes" --openings "$repo/openings/6-move.fen" --random --seed "$seed" \
    --games 30000 --concurrency 2 --sprt "elo0=0 elo1=${ELO1:-5} alpha=0.05 beta=0.05" \
    --pdn "$tag-n$nodes-s$seed.pdn" --resume
