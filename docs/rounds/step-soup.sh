#!/bin/sh
# m34's recipe (docs/learning.md, session 102): a fit FIT from BASE (b8s) is put back at BASE's
# scale, averaged with BASE (half its step), and that mean averaged with the network built in
# now, CURRENT; the result OUT is put at CURRENT's scale. Scales are the slopes of static
# scores on every 32nd position of RECORDS (distance.py), so that the search's margins, tuned
# at one scale, stay right.
#
#   BASE=b8s.net FIT=x36b.net CURRENT=m34.net RECORDS=r35s-s1-a.bin OUT=m36-s.net \
#     sh docs/rounds/step-soup.sh
set -e
base=${BASE:?BASE}
fit=${FIT:?FIT}
current=${CURRENT:?CURRENT}
records=${RECORDS:?RECORDS}
out=${OUT:?OUT}
py=${PY:-/work/venv-probe/bin/python}
probes="$(cd "$(dirname "$0")/../probes" && pwd)"
export PYTHONPATH="$probes"
slope() { # the slope of $2's scores against $1's
    "$py" "$probes/distance.py" "$records" 32 "$1" "$2" | sed -n 's/.*slope \([0-9.]*\),.*/\1/p'
}
work=$(mktemp -d)
s=$(slope "$base" "$fit")
"$py" "$probes/scale.py" "$fit" "$work/fit-s.net" "$("$py" -c "print(1 / $s)")"
"$py" "$probes/soup.py" "$work/fitsoup.net" "$base" "$work/fit-s.net"
"$py" "$probes/soup.py" "$work/mean.net" "$current" "$work/fitsoup.net"
s=$(slope "$current" "$work/mean.net")
"$py" "$probes/scale.py" "$work/mean.net" "$out" "$("$py" -c "print(1 / $s)")"
rm -r "$work"
"$py" "$probes/distance.py" "$records" 32 "$current" "$out"
