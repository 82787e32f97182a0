#!/bin/sh
# A Piskvork engine that knows no opening extension: runs CMD ARGS (a real
# engine) and answers `UNKNOWN` itself to SWAP2BOARD, YXBOARD and YXNBEST
# and to every line of their blocks (as an engine reading them as unknown
# commands would), passing everything else on. For the bridge's fallback
# test. With SILENT=1 in the environment it answers them nothing at all,
# as an engine would that waits for more input.
#
#   no_extensions.sh CMD ARGS...
if [ -n "$SILENT" ]; then exec 3>/dev/null; else exec 3>&1; fi
block=""
while IFS= read -r line; do
    case $block$line in
        SWAP2BOARD|YXBOARD) block=$line; echo "UNKNOWN $line" >&3 ;;
        SWAP2BOARDDONE|YXBOARDDONE) block=""; echo "UNKNOWN DONE" >&3 ;;
        SWAP2BOARD*|YXBOARD*) echo "UNKNOWN $line" >&3 ;;
        YXNBEST*) echo "UNKNOWN $line" >&3 ;;
        *) printf '%s\n' "$line" ;;
    esac
done | "$@"
