"""The command line: ``deal``, ``play``, ``simulate``, ``merge`` and ``check``.

``python -m jabberwocky deal --seed S --players N [--json]`` shows a seed's deals;
``play`` is a whole game in the terminal against bots; ``simulate`` lets bots play
each other and summarises (in several processes with ``--workers``, a shard of a run
with ``--shard I/N``); ``merge`` adds up the tallies or record files of a run's shards;
``check FILE`` validates and replays a game record.  ``--bots`` takes any available
level: the built-in ones and third-party bots (docs/bots.md).

Bad input never ends in a traceback: a usage error (an unknown option, a bad option
value such as ``--seed $'\\xff'`` or ``--players 7``) exits with status 2 and argparse's
usage line, an invalid record or a file that cannot be read or written with status 1,
a bot that fails (it raised, or answered something that is not a move allowed) with
status 3: ``play`` stops there, ``simulate`` finishes the run without that game and
lists it.  Each with one sentence on standard error.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from .. import __version__
from ..bots import available_levels, is_builtin
from ..core.cards import card_symbol, sort_for_display, suit_words
from ..core.errors import (
    BotError,
    DataFileError,
    JabberwockyError,
    RecordError,
    file_error,
    os_reason,
    quote_path,
)
from ..core.messages import Message, quote
from ..core.rules import PRESETS, preset
from ..core.table import DEFAULT_PLAYERS, MAX_SEED_LENGTH, check_players, check_seed
from ..core.words import new_seed
from ..formats.deals import deal_summary
from ..formats.record import MAX_RECORD_BYTES, loads
from .terminal import TerminalGame

MAX_GAMES = 1_000_000
"""The most games one ``simulate`` run plays (a bigger count is a typing slip)."""

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_BOT, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
"""Exit statuses: 1 for an invalid record or a data file that cannot be read or written,
2 for a usage error (an unknown option, a bad option value), 3 when a bot failed (``play``
stopped; ``simulate`` left the game out and listed it), 130 on Ctrl-C."""


def _argument(check: Callable[[str], Any]) -> Callable[[str], Any]:
    """An argparse ``type`` that turns the engine's refusal into a usage error."""

    def convert(text: str) -> Any:
        try:
            return check(text)
        except JabberwockyError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return convert


def _whole(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:  # not a number, or more digits than Python converts
        return None


def _players(text: str) -> int:
    players = _whole(text)
    if players is None:
        raise JabberwockyError("cli.players_not_number", value=quote(text))
    return check_players(players)


def _games(text: str) -> int:
    games = _whole(text)
    if games is None or not 1 <= games <= MAX_GAMES:
        raise JabberwockyError("cli.games", value=quote(text), max=MAX_GAMES)
    return games


def _workers(text: str) -> int:
    from .tournament import MAX_WORKERS

    workers = _whole(text)
    if workers is None or not 1 <= workers <= MAX_WORKERS:
        raise JabberwockyError("cli.workers", value=quote(text), max=MAX_WORKERS)
    return workers


def _shard(text: str) -> tuple[int, int]:
    from .tournament import parse_shard

    return parse_shard(text)


def _level(text: str) -> str:
    if text not in available_levels():
        raise JabberwockyError("table.unknown_level", value=quote(text),
                               choices=available_levels())
    return text


def _prog() -> str:
    """``jabberwocky`` when run as the console script, else ``python -m jabberwocky``."""
    name = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    stem = name.removesuffix(".exe").removesuffix("-script.pyw").removesuffix("-script.py")
    return "jabberwocky" if stem == "jabberwocky" else "python -m jabberwocky"


def build_parser(prog: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of the command line (``prog`` as shown in its help)."""
    parser = argparse.ArgumentParser(
        prog=prog or _prog(),
        description="Jabberwocky, the Oh Hell variant where only an exact bid scores.",
        epilog="Exit status: 0 done, 1 invalid record or unreadable data file, 2 usage error, "
               "3 a bot failed.",
    )
    parser.add_argument("--version", action="version", version=f"jabberwocky {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    rules_help = f"ruleset preset: {', '.join(sorted(PRESETS))} (default jabberwocky)"
    players_help = f"3, 4 or 5 (default {DEFAULT_PLAYERS})"
    players = _argument(_players)
    rules = _argument(preset)
    seed = _argument(check_seed)

    deal = sub.add_parser("deal", help="show the first dealer and every deal of a seed")
    seed_help = f"text: at most {MAX_SEED_LENGTH} characters, no control characters"
    deal.add_argument("--seed", required=True, type=seed, help=seed_help)
    deal.add_argument("--players", type=players, default=DEFAULT_PLAYERS, help=players_help)
    deal.add_argument("--rules", type=rules, default=PRESETS["jabberwocky"], help=rules_help)
    deal.add_argument("--json", action="store_true", help="print JSON")

    play = sub.add_parser("play", help="play a game in the terminal against bots")
    play.add_argument("--players", type=players, default=DEFAULT_PLAYERS, help=players_help)
    play.add_argument("--seed", type=seed, help=seed_help + " (default: a new readable seed)")
    play.add_argument("--bots", type=_argument(_level), default=None,
                      help="bot level for every other seat: a built-in level or an installed "
                           "bot's (default: the strongest built-in level)")
    play.add_argument("--rules", type=rules, default=PRESETS["jabberwocky"], help=rules_help)
    play.add_argument("--record", help="write the game record (JSON) here at the end")

    sim = sub.add_parser("simulate", help="let bots play each other and summarise")
    sim.add_argument("--players", type=players, default=DEFAULT_PLAYERS, help=players_help)
    sim.add_argument("--games", type=_argument(_games), default=100,
                     help=f"number of games, 1 to {MAX_GAMES} (default 100)")
    sim.add_argument("--bots", default="random",
                     help="one level per seat, comma-separated (or one level for all)")
    sim.add_argument("--seed", default="simulate", help="run seed; game i uses SEED/i")
    sim.add_argument("--rules", type=rules, default=PRESETS["jabberwocky"], help=rules_help)
    sim.add_argument("--record", help="write one game record per line to this .jsonl file")
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.add_argument("--workers", type=_argument(_workers), default=1,
                     help="play in this many processes (the same records and summary as "
                          "one, timings apart; default 1)")
    sim.add_argument("--shard", type=_argument(_shard), default=(0, 1), metavar="I/N",
                     help="play only the games whose index i has i %% N == I (default 0/1: "
                          "all); merge the shards' --tally files or records with merge")
    sim.add_argument("--tally", help="write the run's tally (its summary in exact counts, "
                                     "for merge) to this JSON file")

    merge = sub.add_parser("merge", help="add up the tallies or record files of a run's shards")
    merge.add_argument("files", nargs="+", help="tally files (simulate --tally) or record "
                                                "files (simulate --record), not both")
    merge.add_argument("--json", action="store_true", help="print the summary as JSON")
    merge.add_argument("--tally", help="write the merged tally here (it merges again)")
    merge.add_argument("--record", help="with record files: write every game, in game order, "
                                        "to this .jsonl file")

    check = sub.add_parser("check", help="validate and replay a game record")
    check.add_argument("file", help="a jabberwocky-game/1 JSON file ('-' for stdin)")
    return parser


def _check_simulate(args: argparse.Namespace) -> None:
    """The ``simulate`` options that depend on each other (a usage error if they clash)."""
    levels = [s.strip() for s in args.bots.split(",") if s.strip()]
    if len(levels) == 1:
        levels = levels * args.players
    if len(levels) != args.players:
        raise JabberwockyError("cli.bot_count", count=len(levels), seats=args.players)
    for lvl in levels:
        _level(lvl)
    args.levels = levels
    from .simulate import game_seed  # here: simulate's imports are not needed otherwise

    check_seed(game_seed(args.seed, args.games - 1))  # the longest seed of the run
    args.rules.check_players(args.players)


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
    from ..core.cards import parse_card
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
    from .tournament import run, write_tally

    show = not args.quiet and args.games >= 20 and sys.stderr.isatty()
    progress = _progress if show else None
    with contextlib.ExitStack() as stack:
        record = stack.enter_context(_open_output(args.record)) if args.record else None
        tally = run(args.players, args.games, args.levels, args.seed, args.rules,
                    record=record, progress=progress, workers=args.workers, shard=args.shard)
    if args.tally:
        write_tally(tally, args.tally)
    summary = tally.summary()
    return _show_summary(summary, args.json, out)


def _show_summary(summary: dict[str, Any], as_json: bool, out: IO[str]) -> int:
    """Print ``summary`` (JSON, or a table with the failed games); with JSON the failed
    games also go to standard error.  The exit status: :data:`EXIT_BOT` if a game failed."""
    failed = summary["failed"]
    if as_json:
        out.write(json.dumps(summary) + "\n")
    else:
        played = summary["games"] + len(failed)
        out.write(f"{summary['games']} games, {summary['players']} players, seed "
                  f"{summary['seed']!r}, {summary['elapsed_s']:.2f} s\n")
        width = max(8, *(len(s["level"]) + 1 for s in summary["seats"]))
        out.write(f"{'seat':>4}  {'level':<{width}}{'pts/game':>9}{'exact':>8}{'win share':>11}"
                  f"{'95% CI':>16}{'p50 ms':>9}{'p95 ms':>9}\n")
        for s in summary["seats"]:
            lo, hi = s["win_share_ci95"]
            out.write(f"{s['seat']:>4}  {s['level']:<{width}}{s['points_per_game']:>9.2f}"
                      f"{s['exact_bid_rate']:>8.1%}{s['win_share']:>11.1%}"
                      f"{f'{lo:.1%}-{hi:.1%}':>16}{s['decision_ms']['p50']:>9.3f}"
                      f"{s['decision_ms']['p95']:>9.3f}\n")
        if failed:
            out.write(Message("cli.failed_games", count=len(failed), games=played) + "\n")
            for f in failed:
                out.write("  " + Message("cli.failed_game", game=f["game"], seed=quote(f["seed"]),
                                         detail=f["message"]) + "\n")
    if not failed:
        return EXIT_OK
    if as_json:  # the table lists them already
        sys.stderr.write(Message("cli.failed_games", count=len(failed),
                                 games=summary["games"] + len(failed)) + "\n")
        for f in failed[:10]:
            sys.stderr.write("  " + Message("cli.failed_game", game=f["game"],
                                            seed=quote(f["seed"]), detail=f["message"]) + "\n")
    return EXIT_BOT


def _cmd_merge(args: argparse.Namespace, out: IO[str]) -> int:
    from .tournament import merge_files, write_tally

    with contextlib.ExitStack() as stack:
        record = stack.enter_context(_open_output(args.record)) if args.record else None
        tally = merge_files(args.files, record)
    if args.tally:
        write_tally(tally, args.tally)
    if not tally.complete:
        missing = [str(i) for i in range(tally.of) if i not in tally.shards]
        shown = missing[:20] + (["…"] if len(missing) > 20 else [])
        sys.stderr.write("note: " + Message("cli.missing_shards", count=len(missing),
                                            of=tally.of, shards=shown) + "\n")
    return _show_summary(tally.summary(), args.json, out)


def _open_output(path: str) -> IO[str]:
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as exc:
        raise file_error("file.unwritable", path, exc) from None


def _read_record(path: str) -> bytes:
    """The bytes of the record at ``path`` (``-``: standard input), at most one byte more
    than a record may have (so a huge file is refused without being read whole)."""
    try:
        if path == "-":
            return sys.stdin.buffer.read(MAX_RECORD_BYTES + 1)
        with open(path, "rb") as fh:
            return fh.read(MAX_RECORD_BYTES + 1)
    except OSError as exc:
        raise file_error("file.unreadable", path, exc) from None


def _cmd_check(args: argparse.Namespace, out: IO[str]) -> int:
    game = loads(_read_record(args.file))
    out.write(f"valid record: seed {game.seed!r}, {game.players} players, "
              f"{len(game.results)} rounds finished, phase {game.phase.value}, "
              f"scores {game.scores}, winners {game.winners()}\n")
    return 0


def _cmd_play(args: argparse.Namespace, out: IO[str]) -> int:
    level = args.bots or [lvl for lvl in available_levels() if is_builtin(lvl)][-1]
    seed = args.seed if args.seed is not None else new_seed()
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")  # bytes that are not UTF-8: asked again
    TerminalGame(seed, args.players, level, args.rules, out=out, record_path=args.record).run()
    return 0


def main(argv: Sequence[str] | None = None, out: IO[str] | None = None) -> int:
    """Run the command line and return its exit status (:data:`EXIT_INVALID` or
    :data:`EXIT_USAGE` with a one-line message on standard error, never a traceback)."""
    if out is None:
        out = sys.stdout
        if isinstance(out, io.TextIOWrapper):
            out.reconfigure(errors="backslashreplace")  # a seed the terminal cannot show
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "simulate":
        try:
            _check_simulate(args)
        except JabberwockyError as exc:
            parser.error(str(exc))
    commands = {"deal": _cmd_deal, "play": _cmd_play, "simulate": _cmd_simulate,
                "merge": _cmd_merge, "check": _cmd_check}
    try:
        return commands[args.command](args, out)
    except BrokenPipeError:
        # The reader went away (``... | head``): stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except (RecordError, DataFileError) as exc:
        return _fail(exc, EXIT_INVALID)
    except BotError as exc:
        return _fail(exc, EXIT_BOT)
    except JabberwockyError as exc:
        return _fail(exc, EXIT_USAGE)
    except OSError as exc:  # writing a record at the end of ``play``, a full disk, ...
        path = "-" if exc.filename is None else quote_path(exc.filename)
        return _fail(Message("file.failed", path=path, reason=os_reason(exc)), EXIT_INVALID)
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted\n")
        return EXIT_INTERRUPTED


def _fail(message: object, status: int) -> int:
    sys.stderr.write(f"error: {message}\n")
    return status
