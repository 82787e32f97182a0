#!/bin/sh
# A Piskvork engine that thinks it is lost: runs CMD ARGS (a real engine)
# and reports an evaluation of -5000 (Yixin's `MESSAGE ... ev N` form)
# before each of its moves, for the bridge's resignation policy test.
#
#   pessimist.sh CMD ARGS...
"$@" | while IFS= read -r line; do
    case $line in
        [0-9]*,[0-9]*) echo "MESSAGE depth 4 ev -5000"; echo "$line" ;;
        *) echo "$line" ;;
    esac
done
