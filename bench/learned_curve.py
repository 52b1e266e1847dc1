"""The learning curve of ``bench/train_bots.py``: each snapshot's ``learned`` bot as one
seat against ``medium``, paired game by game with ``medium`` in that seat.

    python bench/learned_curve.py --games 200 [--players 4] [--first 0]
        [--others medium] [--deals hard-vs-3-medium] DIR/gen-10.json DIR/gen-50.json ...

Every run plays the games ``--first`` .. ``--first + --games - 1`` of ``bench/bots_ab.py``
(``--deals`` names them; by default ``hard``'s games against three ``medium``), so a
snapshot's figures pair with the baseline's and with ``hard``'s runs of the same
games.  The baseline (``medium`` in the hero seat) is played once and kept beside the
runs (``<dir>/baseline-<others>-<players>-<first>-<games>.jsonl``).  For each snapshot
it prints the hero's exact-bid rate and win share, and the paired difference from the
baseline with its 95% interval (``bots_ab.compare``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

import bots_ab  # noqa: E402

from jabberwocky.bots import register  # noqa: E402
from jabberwocky.bots.learned import LearnedBot  # noqa: E402
from jabberwocky.bots.model import loads  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("snapshots", type=Path, nargs="+")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--others", default="medium")
    ap.add_argument("--deals", default="")
    ap.add_argument("--baseline", default="medium",
                    help="the level in the hero seat that each snapshot is paired with")
    args = ap.parse_args(argv)
    deals = args.deals or f"hard-vs-{args.players - 1}-{args.others}"
    where = args.snapshots[0].parent
    base = where / (f"baseline-{args.baseline}-{args.others}-{args.players}-{args.first}-"
                    f"{args.games}.jsonl")
    if not base.exists():
        with contextlib.redirect_stderr(io.StringIO()):
            bots_ab.run(base, args.games, args.first, args.players, "bench", args.baseline, {},
                        args.others, {}, deals=deals)
    for snap in args.snapshots:
        model = loads(snap.read_text())
        register("learned", lambda m=model: LearnedBot(m), replace=True)
        out = snap.with_suffix(f".vs-{args.others}-{args.players}-{args.first}-"
                               f"{args.games}.jsonl")
        if not out.exists():
            with contextlib.redirect_stderr(io.StringIO()):
                bots_ab.run(out, args.games, args.first, args.players, "bench", "learned", {},
                            args.others, {}, deals=deals)
        print(f"== {snap} ({model.meta.get('games')} training games)")
        bots_ab.compare(base, out)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
