#!/bin/sh
# One half (a or b, a core each) of a round of Kroon's games against Scan 2.0 as training
# records (docs/probes/sparring_games.py): openings/6-move.fen's first half in a, the rest in
# b, each shuffled by the round's number and played with both colours, Kroon at NODES a move
# (its network EVAL, the built-in one unless told), Scan at DEPTH plies, the 2-5 tables ending
# the games. Resumes after the last whole game in round<ROUND>s-<half>.bin; stop it with
# `pkill -f sparring_games.py`.
#
#   ROUND=35 sh docs/rounds/sparring-round.sh a      # and b, each in the background
#
# Needs: the Python package in $PY's environment (`python3 -m venv /work/venv-probe &&
# /work/venv-probe/bin/pip install './python[gym]'`), Scan 2.0 built as docs/sparring.md
# says, and the tables (`kroon egdb build --pieces 5 --dir /work/data/egdb`).
set -e
half=${1:?usage: ROUND=N sparring-round.sh a|b}
round=${ROUND:?ROUND: the number of the round, also the seed of the shuffle}
repo=$(cd "$(dirname "$0")/../.." && pwd)
dir=${DATA:-/work/data}/r$round
mkdir -p "$dir"
cd "$dir"
if [ ! -f "r$round-a.fen" ]; then
    grep -v '^#' "$repo/openings/6-move.fen" > "r$round-all.fen"
    n=$(($(wc -l < "r$round-all.fen") / 2))
    head -n "$n" "r$round-all.fen" > "r$round-a.fen"
    tail -n "+$((n + 1))" "r$round-all.fen" > "r$round-b.fen"
fi
exec nice "${PY:-/work/venv-probe/bin/python}" "$repo/docs/probes/sparring_games.py" \
    --openings "r$round-$half.fen" --nodes "${NODES:-32000}" --depth "${DEPTH:-13}" \
    --scan "${SCAN:-/work/sparring/scan}" --tables "${TABLES:-/work/data/egdb}" \
    --seed "$round" --eval "${EVAL:-network}" --out "round${round}s-$half.bin"
