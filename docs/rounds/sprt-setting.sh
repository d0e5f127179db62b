#!/bin/sh
# A search setting SET (Hub's `pruning` param, `name:value` pairs) against K's defaults at NODES
# a move (500,000 unless told), one binary, openings/6-move.fen shuffled by SEED with both
# colours, two games at a time, no book, the default 64 MiB table, SPRT [0, ELO1] by opening
# pairs (ELO1 5 unless told). Why a node count this high: the search settings were tuned at
# 60,000 nodes a move or a node clock of 300,000 a second, while a one-minute game at a real
# clock searches millions of nodes a move, where reductions and extensions act at depths the
# tuning never reached (docs/tuning.md, "Settings at depth"). Resumes from its PDN file
# (<TAG>-n<NODES>-s<SEED>.pdn in DATA/matches).
#
#   SET=singular-depth:8 TAG=singular8 SEED=273 sh docs/rounds/sprt-setting.sh
#   python3 docs/sprt-sum.py new 0 5 /work/data/matches/singular8-n500000-s273.pdn
set -e
setting=${SET:?SET: the setting to test, e.g. lmr-max:3}
tag=${TAG:?TAG: a short name for the files}
seed=${SEED:?SEED: a seed no earlier test used}
nodes=${NODES:-500000}
NEW="option.book=off option.pruning=$setting" BASE="option.book=off" \
    NODES=$nodes SEED=$seed PDN="$tag-n$nodes-s$seed.pdn" \
    exec sh "$(dirname "$0")/sprt-match.sh"
