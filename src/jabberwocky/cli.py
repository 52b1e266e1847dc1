"""The command line: ``deal``, ``play``, ``simulate`` and ``check``.

``python -m jabberwocky deal --seed S --players N [--json]`` shows a seed's deals;
``play`` is a whole game in the terminal against bots; ``simulate`` lets bots play
each other and summarises; ``check FILE`` validates and replays a game record.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Sequence
from typing import IO, Any

from .bots import available_levels, make_bot
from .cards import card_name, card_symbol, cards_of, sort_for_display, suit_words
from .deal import DEAL_ALGORITHM, deal_round, dealer_of_round, first_dealer
from .errors import JabberwockyError
from .game import check_seed
from .messages import Message
from .record import loads
from .rules import MAX_PLAYERS, MIN_PLAYERS, PRESETS, Ruleset, preset
from .terminal import TerminalGame
from .words import new_seed


def _players(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of players") from None
    if not 3 <= n <= 5:
        raise argparse.ArgumentTypeError(str(Message("table.players", value=n, min=MIN_PLAYERS,
                                                     max=MAX_PLAYERS)))
    return n


def _rules(text: str) -> Ruleset:
    try:
        return preset(text)
    except JabberwockyError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m jabberwocky``."""
    parser = argparse.ArgumentParser(
        prog="python -m jabberwocky",
        description="Jabberwocky, the Oh Hell variant where only an exact bid scores.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    rules_help = f"ruleset preset: {', '.join(sorted(PRESETS))} (default jabberwocky)"

    deal = sub.add_parser("deal", help="show the first dealer and every deal of a seed")
    deal.add_argument("--seed", required=True, help="any text")
    deal.add_argument("--players", type=_players, default=4, help="3, 4 or 5 (default 4)")
    deal.add_argument("--rules", type=_rules, default=PRESETS["jabberwocky"], help=rules_help)
    deal.add_argument("--json", action="store_true", help="print JSON")

    play = sub.add_parser("play", help="play a game in the terminal against bots")
    play.add_argument("--players", type=_players, default=4, help="3, 4 or 5 (default 4)")
    play.add_argument("--seed", help="any text (default: a new readable seed)")
    play.add_argument("--bots", default=None, help="bot level for every other seat "
                      "(default: the strongest available)")
    play.add_argument("--rules", type=_rules, default=PRESETS["jabberwocky"], help=rules_help)
    play.add_argument("--record", help="write the game record (JSON) here at the end")

    sim = sub.add_parser("simulate", help="let bots play each other and summarise")
    sim.add_argument("--players", type=_players, default=4, help="3, 4 or 5 (default 4)")
    sim.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    sim.add_argument("--bots", default="random",
                     help="one level per seat, comma-separated (or one level for all)")
    sim.add_argument("--seed", default="simulate", help="run seed; game i uses SEED/i")
    sim.add_argument("--rules", type=_rules, default=PRESETS["jabberwocky"], help=rules_help)
    sim.add_argument("--record", help="write one game record per line to this .jsonl file")
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")

    check = sub.add_parser("check", help="validate and replay a game record")
    check.add_argument("file", help="a jabberwocky-game/1 JSON file ('-' for stdin)")
    return parser


def deal_summary(seed: str, players: int, rules: Ruleset) -> dict[str, Any]:
    """The JSON of ``deal``: first dealer and all deals."""
    rules.check_players(players)
    check_seed(seed)
    first = first_dealer(seed, players)
    rounds = []
    for i, size in enumerate(rules.schedule):
        dealer = dealer_of_round(first, i, players)
        d = deal_round(seed, i + 1, players, dealer, size)
        rounds.append({
            "round": i + 1,
            "dealer": dealer,
            "hand_size": size,
            "hands": [[card_name(c) for c in cards_of(h)] for h in d.hands],
            "trump_card": card_name(d.trump_card),
        })
    return {"seed": seed, "players": players, "deal_algorithm": DEAL_ALGORITHM,
            "first_dealer": first, "rounds": rounds}


def _cmd_deal(args: argparse.Namespace, out: IO[str]) -> int:
    data = deal_summary(args.seed, args.players, args.rules)
    if args.json:
        out.write(json.dumps(data, ensure_ascii=False) + "\n")
        return 0
    out.write(f"Seed {args.seed!r}, {args.players} players: "
              f"seat {data['first_dealer']} deals first.\n")
    for rnd in data["rounds"]:
        trump = rnd["trump_card"]
        out.write(f"\nRound {rnd['round']:>2}: {rnd['hand_size']} cards, dealer seat "
                  f"{rnd['dealer']}, trump {card_symbol(_parse(trump))} "
                  f"({suit_words('CDHS'.index(trump[1]))})\n")
        for seat, hand in enumerate(rnd["hands"]):
            shown = sort_for_display([_parse(c) for c in hand], "CDHS".index(trump[1]))
            out.write(f"  seat {seat}: {' '.join(card_symbol(c) for c in shown)}\n")
    return 0


def _parse(name: str) -> int:
    from .cards import parse_card
    return parse_card(name)


def _progress(done: int, total: int) -> None:
    if done != total and done % max(1, total // 100):
        return
    width = 30
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def _cmd_simulate(args: argparse.Namespace, out: IO[str]) -> int:
    from .simulate import simulate

    levels = [s.strip() for s in args.bots.split(",") if s.strip()]
    if len(levels) == 1:
        levels = levels * args.players
    if len(levels) != args.players:
        raise JabberwockyError("cli.bot_count", count=len(levels), seats=args.players)
    for lvl in levels:
        make_bot(lvl)  # fails early with the list of levels
    if args.games < 1:
        raise JabberwockyError("cli.games")
    show = not args.quiet and args.games >= 20 and sys.stderr.isatty()
    progress = _progress if show else None
    with contextlib.ExitStack() as stack:
        record = stack.enter_context(open(args.record, "w", encoding="utf-8")) \
            if args.record else None
        summary = simulate(args.players, args.games, levels, args.seed, args.rules,
                           record=record, progress=progress)
    if args.json:
        out.write(json.dumps(summary) + "\n")
        return 0
    out.write(f"{args.games} games, {args.players} players, seed {args.seed!r}, "
              f"{summary['elapsed_s']:.2f} s\n")
    out.write(f"{'seat':>4}  {'level':<8}{'pts/game':>9}{'exact':>8}{'win share':>11}"
              f"{'95% CI':>16}{'p50 ms':>9}{'p95 ms':>9}\n")
    for s in summary["seats"]:
        lo, hi = s["win_share_ci95"]
        out.write(f"{s['seat']:>4}  {s['level']:<8}{s['points_per_game']:>9.2f}"
                  f"{s['exact_bid_rate']:>8.1%}{s['win_share']:>11.1%}"
                  f"{f'{lo:.1%}-{hi:.1%}':>16}{s['decision_ms']['p50']:>9.3f}"
                  f"{s['decision_ms']['p95']:>9.3f}\n")
    return 0


def _cmd_check(args: argparse.Namespace, out: IO[str]) -> int:
    if args.file == "-":
        text = sys.stdin.read()
    else:
        with open(args.file, encoding="utf-8") as fh:
            text = fh.read()
    game = loads(text)
    out.write(f"valid record: seed {game.seed!r}, {game.players} players, "
              f"{len(game.results)} rounds finished, phase {game.phase}, "
              f"scores {game.scores}, winners {game.winners()}\n")
    return 0


def _cmd_play(args: argparse.Namespace, out: IO[str]) -> int:
    levels = available_levels()
    level = args.bots or levels[-1]
    make_bot(level)
    seed = args.seed if args.seed is not None else new_seed()
    TerminalGame(seed, args.players, level, args.rules, out=out, record_path=args.record).run()
    return 0


def main(argv: Sequence[str] | None = None, out: IO[str] | None = None) -> int:
    """Run the CLI; returns the exit status (2 with a message on bad input)."""
    out = out or sys.stdout
    args = build_parser().parse_args(argv)
    commands = {"deal": _cmd_deal, "play": _cmd_play, "simulate": _cmd_simulate,
                "check": _cmd_check}
    try:
        return commands[args.command](args, out)
    except BrokenPipeError:
        # The reader went away (``... | head``): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (JabberwockyError, OSError) as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted\n")
        return 130
