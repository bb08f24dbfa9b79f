#!/usr/bin/env bash
# Random games a second of every game of games/ and games/classic/ by rulesi and, for the
# classic games RBG's collection has too, by RBG, a general compiled engine, measured side
# by side: on one machine, in one hour, each game's engines one after the other.
#
#     scripts/side_by_side.sh [SECONDS] [PASSES]
#
# RBG compiles each game to its own C++ reasoner; its authors also wrote reasoners by hand
# for four games. Both must be built beforehand, under $RBG_BUILD (default
# /tmp/rbg-build), with the scripts that build them (their `bench.sh` is called here,
# from $RBG_SCRIPTS). Each pass runs every game's engines for SECONDS of CPU time each
# (default 3), rulesi with `rulesi bench --seconds SECONDS --seed 1`; the passes (default
# 2) go over all the games in turn, so that a burst of load on the machine does not hit
# every run of one game. Prints a markdown table of the median of the passes, and the
# load average before and after.
#
# The games of RBG's collection that rulesi's classic games correspond to; their rules
# differ in places (RBG's draughts draws after 20 plies without progress, its Go has no
# ko), so plies a second compare the engines better than games a second where the games'
# lengths differ.
set -euo pipefail

secs=${1:-3}
passes=${2:-2}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${RULESI:-$here/target/release/rulesi}
scripts=${RBG_SCRIPTS:?set RBG_SCRIPTS to the folder of RBG bench.sh}
[ -x "$bin" ] || { echo "no build at $bin (cargo build --release)" >&2; exit 2; }

# rulesi game (under games/) : RBG game : hand-written (- for none)
pairs="agon:-:-
stax:-:-
anchor:-:-
sackson-agon:-:-
classic/tic-tac-toe:-:-
classic/draughts:englishDraughts:englishDraughts
classic/international-draughts:internationalDraughts:-
classic/reversi:reversi:reversi
classic/hex:hex:-
classic/connect-four:connect4:connect4
classic/breakthrough:breakthrough:breakthrough
classic/chess:chess:-
classic/go:go:-"

field() { sed -n "s|^$1: ||p" | head -1; }
declare -A runs
echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for pass in $(seq "$passes"); do
  while IFS=: read -r ours rbg hand; do
    out=$("$bin" bench "$here/games/$ours.game" --seconds "$secs" --seed 1)
    runs[$ours.r]+="$(echo "$out" | field 'playouts/s') "
    runs[$ours.p]="$(echo "$out" | field 'plies/playout')"
    if [ "$rbg" != - ]; then
      out=$("$scripts/bench.sh" "$rbg" "$secs")
      runs[$ours.g]+="$(echo "$out" | field 'playouts/s') "
      runs[$ours.gp]="$(echo "$out" | sed -n 's/.* depth=\([0-9.]*\) .*/\1/p')"
    fi
    if [ "$hand" != - ]; then
      out=$("$scripts/bench.sh" hand "$hand" "$secs")
      runs[$ours.h]+="$(echo "$out" | field 'playouts/s') "
    fi
    echo "pass $pass: $ours done" >&2
  done <<< "$pairs"
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{a[NR]=$1} END {if (NR==0) print "-"; else if (NR%2) printf "%.0f", a[(NR+1)/2]; else printf "%.0f", (a[NR/2]+a[NR/2+1])/2}'; }
echo "| game | rulesi games/s | plies | RBG games/s | RBG plies | rulesi / RBG | hand-written games/s |"
echo "|---|---|---|---|---|---|---|"
while IFS=: read -r ours rbg hand; do
  r=$(echo "${runs[$ours.r]}" | median)
  g=$(echo "${runs[$ours.g]:-}" | median)
  h=$(echo "${runs[$ours.h]:-}" | median)
  ratio=$(awk -v a="$r" -v b="$g" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
  echo "| ${ours#classic/} | $r | ${runs[$ours.p]} | $g | ${runs[$ours.gp]:--} | $ratio | $h |"
done <<< "$pairs"
