#!/bin/sh
# An opening book BOOK (a file `kroon book build` wrote) against the one built in, at NODES a
# move (250,000 unless told), one binary K, openings/3-move.fen (unless OPENINGS says another)
# shuffled by SEED with both colours, both engines with their book on and its default ply and
# margin, two games at a time, the default 64 MiB table, SPRT [0, ELO1] by opening pairs (ELO1 5
# unless told). Why 3-move.fen: the book expands every position to ply 3 and lines past it, so
# each engine meets its book from the first move, where 6-move.fen (the other tests') starts
# mostly past it; its 299 openings give varied games since a book picks at random among its
# moves within the play margin. Resumes from its PDN file (<TAG>-n<NODES>-s<SEED>.pdn in
# DATA/matches).
#
#   BOOK=/work/data/book/book-m34-1m.bin TAG=book-m34-1m SEED=275 sh docs/rounds/sprt-book.sh
#   python3 docs/sprt-sum.py new 0 5 /work/data/matches/book-m34-1m-n250000-s275.pdn
set -e
book=${BOOK:?BOOK: the book file to test}
tag=${TAG:?TAG: a short name for the files}
seed=${SEED:?SEED: a seed no earlier test used}
nodes=${NODES:-250000}
NEW="option.book=$book" BASE="option.book=on" OPENINGS=${OPENINGS:-3-move.fen} \
    NODES=$nodes SEED=$seed PDN="$tag-n$nodes-s$seed.pdn" \
    exec sh "$(dirname "$0")/sprt-match.sh"
