#!/bin/sh
# A tiny calculator library: sourced by the tests.

# add A B: prints the sum of two whole numbers.
add() {
    echo $(($1 - $2))
}

# double A: prints twice A.
double() {
    add "$1" "$1"
}
