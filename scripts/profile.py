#!/usr/bin/env python3
"""Where a random turn's instructions go.

    scripts/profile.py GAME [--playouts N] [--rows N] [BENCH OPTION]...

Runs `rulesi bench GAME --playouts N --seed 1` (N = 200 by default) under callgrind,
counting only the playouts (reading and building the game left out), and prints the
engine's functions by the instructions per turn spent in them and in what they call
(inclusive), largest first, with those spent in their own code (self) and how many
times a turn they are called. Functions inlined into others are counted in them.
Rows add up along call chains, not across rows: a row includes the rows of what it
calls. Further arguments go to `rulesi bench` (`--option KEY=VALUE`, `--ruleset
NAME`).

Needs valgrind. The build measured is target/release/rulesi, or $RULESI.
docs/speed.md gives its output for every game.
"""
import collections
import os
import re
import subprocess
import sys
import tempfile


def usage():
    print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
    sys.exit(2)


def short(name):
    """A function's name without the crate path and the impl's generics."""
    name = name.replace("rulesi::engine::", "")
    name = re.sub(r"<impl [^>]*Game<_>>::", "Game::", name)
    return name.replace("{{closure}}", "{closure}")


def read(path):
    """Self cost, calls' inclusive cost and call counts by function, from a
    callgrind file (names compressed as `(id) name` on first use)."""
    names = {}

    def name(tok):
        m = re.match(r"\((\d+)\)(?: (.*))?", tok)
        if not m:
            return tok
        if m.group(2):
            names[m.group(1)] = m.group(2)
        return names.get(m.group(1), m.group(1))

    own = collections.Counter()
    called = collections.Counter()
    inner = collections.defaultdict(int)
    cur = cfn = None
    pending = None
    with open(path) as f:
        for line in f:
            if line.startswith("fn="):
                cur = name(line[3:].strip())
            elif line.startswith("cfn="):
                cfn = name(line[4:].strip())
            elif line.startswith("calls="):
                pending = int(line[6:].split()[0])
            elif line[:1].isdigit() or line[:1] in "+-*":
                parts = line.split()
                if len(parts) < 2 or cur is None:
                    continue
                cost = int(parts[1])
                if pending is not None:
                    if cfn != cur:
                        inner[cur] += cost
                        called[cfn] += pending
                    pending = None
                else:
                    own[cur] += cost
    return own, inner, called


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        usage()
    game, rest = args[0], args[1:]
    playouts, rows, bench = 200, 25, []
    while rest:
        a = rest.pop(0)
        if a in ("--playouts", "--rows") and rest and rest[0].isdigit():
            if a == "--playouts":
                playouts = int(rest.pop(0))
            else:
                rows = int(rest.pop(0))
        else:
            bench.append(a)
    here = os.path.dirname(os.path.abspath(__file__))
    binary = os.environ.get("RULESI", os.path.join(here, "..", "target", "release", "rulesi"))
    if not os.access(binary, os.X_OK):
        sys.exit(f"scripts/profile.py: no build at {binary} (cargo build --release)")
    with tempfile.TemporaryDirectory() as tmp:
        cg = os.path.join(tmp, "cg")
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={cg}",
               "--toggle-collect=*play_batch*", binary, "bench", game,
               "--playouts", str(playouts), "--seed", "1", *bench]
        try:
            run = subprocess.run(cmd, capture_output=True, text=True)
        except FileNotFoundError:
            sys.exit("scripts/profile.py: valgrind is needed")
        if run.returncode != 0:
            sys.exit("\n".join(l for l in run.stderr.splitlines() if not l.startswith("==")))
        plies = float(re.search(r"^plies/playout: ([0-9.]+)", run.stdout, re.M).group(1))
        total = int(re.search(r"Collected : (\d+)", run.stderr).group(1))
        own, inner, called = read(cg)
    turns = plies * playouts
    print(f"{game}: {playouts} playouts, {turns:.0f} turns, "
          f"{total / turns:.0f} instructions a turn in the playouts")
    print(f"{'inclusive':>10} {'self':>8} {'calls':>7}  function (per turn)")
    fns = [f for f in set(own) | set(inner) if "rulesi::" in f and "play_batch" not in f]
    fns.sort(key=lambda f: -(own[f] + inner[f]))
    for f in fns[:rows]:
        print(f"{(own[f] + inner[f]) / turns:>10.0f} {own[f] / turns:>8.0f} "
              f"{called[f] / turns:>7.2f}  {short(f)}")


if __name__ == "__main__":
    main()
