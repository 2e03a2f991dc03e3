#!/bin/sh
# The repository's tests: exit 0 when every one passes.
. ./calc.sh
failed=0
check() {
    if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: got $2, expected $3"; failed=1; fi
}
check "add 2 3" "$(add 2 3)" 5
check "add -1 1" "$(add -1 1)" 0
check "double 4" "$(double 4)" 8
exit $failed
