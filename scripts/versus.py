#!/usr/bin/env python3
"""The computer of one rulesi build against the computer of another.

Each game runs two `rulesi play` processes, one per build. In each, one player is the
computer and the others are typed in; the script types each computer's move into the
other process. Both think for the same time per move (`--think`), so a faster engine
shows as more playouts per move. Seats alternate from one game to the next.

    scripts/versus.py --new target/release/rulesi --old /tmp/rulesi-old \
        --game games/classic/hex.game --players seat1,seat2 --think 200ms --games 20

The games, their moves and the tally are printed; the exit status is 0 when every game
finished.
"""

import argparse
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading

PLAYS = re.compile(r"(\S+) plays (.+?) \(computer")
OVER = re.compile(r"Game over: (.+?)\.?$")
WINS = re.compile(r"(\S+)(?: \([^)]*\))? wins")


def start(binary, game, me, think, seed, extra, cwd, events, tag):
    args = [os.path.abspath(binary), "play", game, "--player", f"{me}=computer", "--think", think,
            "--seed", str(seed)] + extra
    proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, bufsize=1, cwd=cwd)

    def read():
        for line in proc.stdout:
            events.put((tag, line.rstrip("\n")))
        events.put((tag, None))

    threading.Thread(target=read, daemon=True).start()
    return proc


def one_game(args, seat_of_new, seed):
    """Plays one game; returns ("new" | "old" | "draw" | "unfinished", moves)."""
    players = args.players.split(",")
    seat_of_old = next(p for p in players if p != seat_of_new)
    events = queue.Queue()
    with tempfile.TemporaryDirectory() as cwd:
        procs = {
            "new": start(args.new, os.path.abspath(args.game), seat_of_new, args.think, seed,
                         args.extra, cwd, events, "new"),
            "old": start(args.old, os.path.abspath(args.old_game or args.game), seat_of_old,
                         args.think, seed, args.extra, cwd, events, "old"),
        }
        moves, result = [], "unfinished"
        try:
            while True:
                tag, line = events.get(timeout=args.timeout)
                if line is None:
                    break
                over = OVER.search(line)
                if over:
                    # "white wins", "seat1 (red) wins", "a draw"...
                    won = WINS.match(over.group(1))
                    winner = won.group(1) if won else None
                    result = {seat_of_new: "new", seat_of_old: "old"}.get(winner, "draw")
                    break
                played = PLAYS.search(line)
                if played:
                    move = played.group(2)
                    moves.append(move)
                    other = procs["old" if tag == "new" else "new"]
                    other.stdin.write(move + "\n")
                    other.stdin.flush()
        except queue.Empty:
            pass
        finally:
            for p in procs.values():
                p.kill()
                p.wait()
    return result, moves


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--new", required=True, help="the rulesi binary under test")
    ap.add_argument("--old", required=True, help="the rulesi binary it plays against")
    ap.add_argument("--game", required=True)
    ap.add_argument("--old-game", help="the game file for the old binary (default: --game)")
    ap.add_argument("--players", required=True, help="the game's two players, a,b")
    ap.add_argument("--think", default="200ms")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=120, help="seconds without a move")
    ap.add_argument("extra", nargs="*", help="more arguments for both `rulesi play`s")
    args = ap.parse_args()
    players = args.players.split(",")
    tally = {"new": 0, "old": 0, "draw": 0, "unfinished": 0}
    for i in range(args.games):
        seat = players[i % 2]
        result, moves = one_game(args, seat, args.seed + i)
        tally[result] += 1
        print(f"game {i + 1}: new plays {seat}: {result} after {len(moves)} moves", flush=True)
    print(f"new {tally['new']}, old {tally['old']}, draws {tally['draw']}, "
          f"unfinished {tally['unfinished']}")
    return 0 if tally["unfinished"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
