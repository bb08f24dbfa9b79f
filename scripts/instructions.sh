#!/usr/bin/env bash
# Instructions per random turn of a game, as the README's speed tables give them.
#
#     scripts/instructions.sh GAME [A B] [BENCH OPTION]...
#
# Runs `rulesi bench GAME --playouts N --seed 1` under callgrind twice, with A and B
# playouts (20 and 60 by default; 1 and 3 suit games of thousands of turns), and
# prints the difference in instructions divided by the difference in turns: the cost
# of a turn with the start-up (reading and building the game) taken out. The count
# does not depend on the machine's load, so two builds can be compared with it where
# timings would drift. Further arguments go to `rulesi bench` (`--option KEY=VALUE`,
# `--ruleset NAME`).
#
# Needs valgrind. The build measured is target/release/rulesi, or $RULESI.
#
#     RULESI=/tmp/rulesi-old scripts/instructions.sh games/stax.game
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: scripts/instructions.sh GAME [A B] [BENCH OPTION]..." >&2
  exit 2
fi
game=$1
shift
a=20
b=60
if [ $# -ge 2 ] && [[ $1 =~ ^[0-9]+$ ]] && [[ $2 =~ ^[0-9]+$ ]]; then
  a=$1
  b=$2
  shift 2
fi
if [ "$a" -ge "$b" ]; then
  echo "scripts/instructions.sh: A must be fewer playouts than B" >&2
  exit 2
fi
bin=${RULESI:-$(dirname "${BASH_SOURCE[0]}")/../target/release/rulesi}
command -v valgrind >/dev/null || { echo "scripts/instructions.sh: valgrind is needed" >&2; exit 2; }
[ -x "$bin" ] || { echo "scripts/instructions.sh: no build at $bin (cargo build --release)" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Prints "INSTRUCTIONS TURNS" for a run of N playouts (the turns from `bench`'s plies
# per playout, which it rounds to a tenth).
measure() {
  local n=$1
  shift
  if ! valgrind --tool=callgrind --callgrind-out-file="$tmp/$n.cg" \
    "$bin" bench "$game" --playouts "$n" --seed 1 "$@" >"$tmp/$n.out" 2>"$tmp/$n.err"; then
    grep -v '^==' "$tmp/$n.err" >&2
    exit 1
  fi
  local ir plies
  ir=$(grep -o 'Collected : [0-9]*' "$tmp/$n.err" | grep -o '[0-9]*$')
  plies=$(awk '/^plies\/playout:/ {print $2}' "$tmp/$n.out")
  awk -v ir="$ir" -v p="$plies" -v n="$n" 'BEGIN { printf "%s %.1f\n", ir, p * n }'
}

read -r ia ta < <(measure "$a" "$@")
read -r ib tb < <(measure "$b" "$@")
awk -v ia="$ia" -v ta="$ta" -v ib="$ib" -v tb="$tb" -v g="$game" -v a="$a" -v b="$b" 'BEGIN {
  if (tb <= ta) { print "scripts/instructions.sh: no more turns in " b " playouts than in " a > "/dev/stderr"; exit 1 }
  printf "%s: %d instructions a turn (%d and %d playouts, %.0f and %.0f turns)\n", g, (ib - ia) / (tb - ta) + 0.5, a, b, ta, tb
}'
