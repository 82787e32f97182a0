#!/bin/sh
# A Piskvork engine that misbehaves on purpose, for the bridge's tests.
#
#   misbehave.sh MODE [MARK CMD ARGS...]
#
# MODE: sleep (never answers a move), garbage (answers a move with text
# that is no point), occupied (answers with the opponent's latest stone),
# exit (exits when asked for a move). START and RESTART are answered OK.
# With MARK: the first run creates the file MARK and misbehaves; a run
# that finds MARK becomes CMD ARGS (a good engine), as after a restart.
mode=$1
if [ -n "$2" ]; then
    mark=$2
    shift 2
    if [ -e "$mark" ]; then exec "$@"; fi
    : > "$mark"
fi
last=""
misbehave() {
    case $mode in
        sleep) exec sleep 60 ;;
        garbage) echo "I think, therefore I am" ;;
        occupied) echo "$last" ;;
        exit) exit 3 ;;
    esac
}
while read -r cmd arg; do
    case $cmd in
        START|RESTART) echo OK ;;
        BEGIN)
            if [ "$mode" = occupied ]; then
                last=7,7
                echo 7,7
            else
                misbehave
            fi ;;
        TURN) last=$arg; misbehave ;;
        BOARD)
            while read -r line; do
                [ "$line" = DONE ] && break
                last=${line%,*}
            done
            misbehave ;;
        END) exit 0 ;;
    esac
done
