"""The command line: ``deal``, ``play``, ``simulate`` and ``check``.

Most tests call :func:`jabberwocky.drivers.cli.main` in-process (they run under Pyodide too);
the ones marked ``needs_subprocess`` run ``python -m jabberwocky`` for real.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import jabberwocky
from jabberwocky.core.cards import card_name
from jabberwocky.core.game import BIDDING, GAME_OVER, PLAYING, Game
from jabberwocky.core.rules import JABBERWOCKY
from jabberwocky.drivers.cli import main
from jabberwocky.drivers.terminal import TerminalGame
from jabberwocky.formats.record import dumps, loads

SRC = Path(__file__).resolve().parent.parent / "src"
GOLDEN = json.loads((Path(__file__).with_name("golden") / "deals.json").read_text("utf-8"))


def run_main(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(argv), out=out)
    return status, out.getvalue()


def run_cli(*argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("NO_COLOR", None)
    return subprocess.run([sys.executable, "-m", "jabberwocky", *argv], input=stdin,
                          capture_output=True, text=True, env=env, timeout=120, check=False)


# -- deal -----------------------------------------------------------------------------


def test_deal_json_shape_and_values() -> None:
    status, text = run_main("deal", "--seed", "hello", "--players", "4", "--json")
    assert status == 0
    data = json.loads(text)
    assert {"seed", "players", "first_dealer", "rounds"} <= set(data)
    assert data["seed"] == "hello" and data["players"] == 4
    assert len(data["rounds"]) == 13
    for rnd in data["rounds"]:
        assert set(rnd) == {"round", "dealer", "hand_size", "hands", "trump_card"}
    golden = next(v for v in GOLDEN["vectors"] if v["seed"] == "hello" and v["players"] == 4)
    assert data["first_dealer"] == golden["first_dealer"]
    assert data["rounds"] == golden["rounds"]


@pytest.mark.parametrize("players", ["3", "5"])
def test_deal_text(players: str) -> None:
    status, text = run_main("deal", "--seed", "Ünïcödé 🃏", "--players", players)
    assert status == 0
    assert f"Seed 'Ünïcödé 🃏', {players} players: seat " in text
    assert text.count("Round ") == 13
    assert text.count("  seat ") == 13 * int(players)


# -- play -----------------------------------------------------------------------------


class ScriptedPlayer(io.StringIO):
    """Answers the terminal's prompts: first some bad input, then legal moves."""

    def __init__(self) -> None:
        super().__init__()
        self.tg: TerminalGame | None = None
        self.bad_bids = ["", "lots", "99", "?", "s"]
        self.bad_cards = ["", "ZZ", "1X", "held-not"]
        self.decisions = 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        assert self.tg is not None
        g = self.tg.game
        if g.phase == BIDDING and g.to_act == 0:
            if self.bad_bids:
                return self.bad_bids.pop(0) + "\n"
            self.decisions += 1
            return f"{g.legal_bids()[-1]}\n"
        if g.phase == PLAYING and g.to_act == 0:
            if self.bad_cards:
                bad = self.bad_cards.pop(0)
                if bad == "held-not":
                    bad = card_name(g.trump_card)
                return bad + "\n"
            self.decisions += 1
            if self.decisions % 2:
                return card_name(g.honest_cards()[0]).lower() + "\n"
            return "1\n" if g.honest_mask() & g.hands[0] == g.hands[0] else \
                card_name(g.honest_cards()[-1]) + "\n"
        return "\n"  # "Press Enter for the next round"


def test_play_a_whole_game_from_the_terminal(tmp_path: Path) -> None:
    out = io.StringIO()
    inp = ScriptedPlayer()
    record = tmp_path / "game.json"
    tg = TerminalGame("terminal", 4, "random", JABBERWOCKY, out=out, inp=inp,
                      record_path=str(record))
    inp.tg = tg
    tg.run()
    text = out.getvalue()
    assert tg.game.phase == GAME_OVER
    assert "Type a whole number from 0 to 3." in text  # "lots" and ""
    assert "Not allowed: a bid must be a whole number from 0 to 3, not 99." in text
    assert "Hint: bid" in text
    assert "Round " in text
    assert "is not a card" in text  # ZZ, 1X
    assert "Type a card's number" in text  # empty input
    assert "Not allowed: you do not hold the " in text
    assert text.count("== Round ") == 13
    assert "points" in text.splitlines()[-1] or "win" in text.splitlines()[-1]
    game = loads(record.read_text("utf-8"))
    assert game.phase == GAME_OVER and game.scores == tg.game.scores
    assert game.seats == ("human", "random", "random", "random")


def test_play_quit_keeps_a_replayable_record(tmp_path: Path) -> None:
    out = io.StringIO()
    record = tmp_path / "quit.json"
    tg = TerminalGame("quitter", 3, "random", JABBERWOCKY, out=out,
                      inp=io.StringIO("1\nq\n"), record_path=str(record))
    tg.run()
    assert "Goodbye. Replay this game with --seed 'quitter'" in out.getvalue()
    game = loads(record.read_text("utf-8"))
    assert game.round_index == 0 and game.bids[0] == 1


def test_play_end_of_input_quits_cleanly() -> None:
    out = io.StringIO()
    TerminalGame("eof", 5, "random", JABBERWOCKY, out=out, inp=io.StringIO("")).run()
    assert "Goodbye." in out.getvalue()


@pytest.mark.needs_subprocess
def test_play_driven_by_stdin_reprompts_with_the_reason_and_quits() -> None:
    proc = run_cli("play", "--seed", "stdin", "--players", "3", "--bots", "random",
                   stdin="lots\n99\n0\nZZ\nq\n")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Type a whole number from 0 to 3." in out
    assert "Not allowed: a bid must be a whole number from 0 to 3, not 99." in out
    assert "'ZZ' is not a card" in out
    assert out.count("Your bid, 0-3") == 3
    assert "Goodbye. Replay this game with --seed 'stdin'" in out


# -- simulate -------------------------------------------------------------------------


def check_summary(data: dict[str, Any], players: int, games: int) -> None:
    assert {"players", "games", "seed", "rules", "elapsed_s", "seats"} <= set(data)
    assert data["players"] == players and data["games"] == games
    assert len(data["seats"]) == players
    for seat in data["seats"]:
        assert {"seat", "level", "points_per_game", "exact_bid_rate", "exact_by_hand_size",
                "win_share", "win_share_ci95", "decision_ms"} <= set(seat)
        lo, hi = seat["win_share_ci95"]
        assert 0 <= lo <= seat["win_share"] <= hi <= 1
        assert set(seat["decision_ms"]) == {"p50", "p95", "max", "count"}
        assert set(seat["exact_by_hand_size"]) == {"3", "4", "5", "6", "7", "8", "9"}
    assert sum(s["win_share"] for s in data["seats"]) == pytest.approx(1.0)


def test_simulate_json_summary(tmp_path: Path) -> None:
    record = tmp_path / "games.jsonl"
    status, text = run_main("simulate", "--players", "3", "--games", "12", "--json",
                            "--seed", "cli", "--record", str(record), "--quiet")
    assert status == 0
    check_summary(json.loads(text), 3, 12)
    lines = record.read_text("utf-8").splitlines()
    assert len(lines) == 12
    for i, line in enumerate(lines):
        game = loads(line)
        assert game.seed == f"cli/{i}" and game.phase == GAME_OVER


def test_simulate_text_table() -> None:
    status, text = run_main("simulate", "--games", "5", "--bots", "random", "--rules", "honour")
    assert status == 0
    assert text.startswith("5 games, 4 players, seed 'simulate', ")
    assert len(text.splitlines()) == 2 + 4


@pytest.mark.needs_subprocess
def test_simulate_record_is_accepted_by_check(tmp_path: Path) -> None:
    record = tmp_path / "run.jsonl"
    proc = run_cli("simulate", "--players", "5", "--games", "3", "--json", "--record",
                   str(record))
    assert proc.returncode == 0, proc.stderr
    check_summary(json.loads(proc.stdout), 5, 3)
    for i, line in enumerate(record.read_text("utf-8").splitlines()):
        one = tmp_path / f"game{i}.json"
        one.write_text(line, "utf-8")
        checked = run_cli("check", str(one))
        assert checked.returncode == 0, checked.stderr
        assert checked.stdout.startswith(f"valid record: seed 'simulate/{i}', 5 players, "
                                         "13 rounds finished, phase game-over")
    proc = run_cli("check", "-", stdin=record.read_text("utf-8").splitlines()[0])
    assert proc.returncode == 0 and proc.stdout.startswith("valid record")


# -- check ----------------------------------------------------------------------------


def test_check_accepts_a_record_and_refuses_a_bad_one(tmp_path: Path) -> None:
    g = Game("check me", 4)
    g.bid(0)
    good = tmp_path / "good.json"
    good.write_text(dumps(g), "utf-8")
    status, text = run_main("check", str(good))
    assert status == 0
    assert text == ("valid record: seed 'check me', 4 players, 0 rounds finished, "
                    "phase bidding, scores [0, 0, 0, 0], winners []\n")
    bad = tmp_path / "bad.json"
    data = json.loads(dumps(g))
    data["players"] = 9
    bad.write_text(json.dumps(data), "utf-8")
    assert run_main("check", str(bad))[0] == 1


# -- bad arguments --------------------------------------------------------------------


@pytest.mark.parametrize("argv,message", [
    (["simulate", "--players", "7"], "7 players cannot play: choose 3 to 5"),
    (["simulate", "--players", "four"], "'four' is not a number of players"),
    (["deal", "--seed", "x", "--rules", "poker"], "no ruleset called 'poker'"),
    (["deal"], "the following arguments are required: --seed"),
    (["shuffle"], "invalid choice: 'shuffle'"),
    ([], "the following arguments are required: command"),
])
def test_bad_arguments_exit_2_with_a_message(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv, out=io.StringIO())
    assert exc.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("argv,message", [
    (["simulate", "--games", "0"], "--games must be a whole number from 1 to 1000000, not '0'"),
    (["simulate", "--games", "1e3"], "--games must be a whole number from 1 to 1000000, not"),
    (["simulate", "--games", "9" * 40], "--games must be a whole number from 1 to 1000000"),
    (["simulate", "--bots", "wizard"], "the bot level 'wizard' is unknown: choose one of random"),
    (["simulate", "--bots", "random,random"], "--bots names 2 levels for 4 seats"),
    (["simulate", "--seed", "s" * 199, "--games", "10"], "the deal code is 201 characters long"),
    (["play", "--bots", "wizard"], "the bot level 'wizard' is unknown"),
    (["deal", "--seed", "\udcff"], "the deal code holds U+DCFF at position 1, which is not text"),
    (["deal", "--seed", "tab\there"],
     "the deal code holds the control character U+0009 at position 4"),
    (["deal", "--seed", "x", "--players", "1" + "0" * 30], "players cannot play: choose 3 to 5"),
    (["deal", "--seed", "x", "--players", "9" * 5000], "is not a number of players"),
])
def test_bad_option_values_are_usage_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv, out=io.StringIO())
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "usage: " in err and len(err) < 2000


def test_a_file_that_cannot_be_read_exits_1(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    for path in ("/nonexistent/record.json", str(tmp_path), "x" * 5000):
        status, _ = run_main("check", path)
        err = capsys.readouterr().err
        assert status == 1
        assert err.startswith("error: cannot read ") and len(err) < 300


def test_a_record_file_that_cannot_be_written_exits_1(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    status, _ = run_main("simulate", "--games", "1", "--record", str(tmp_path))
    assert status == 1
    assert capsys.readouterr().err.startswith(f"error: cannot write '{tmp_path}'")


def test_version_and_help_name_the_program(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out == f"jabberwocky {jabberwocky.__version__}\n"
    with pytest.raises(SystemExit):
        main(["--help"])
    assert capsys.readouterr().out.startswith("usage: python -m jabberwocky ")


@pytest.mark.needs_subprocess
def test_bad_arguments_in_a_real_process() -> None:
    proc = run_cli("simulate", "--players", "7")
    assert proc.returncode == 2
    assert "7 players cannot play" in proc.stderr and proc.stdout == ""
    bad = run_cli("check", "-", stdin="{not json")
    assert bad.returncode == 1
    assert bad.stderr.startswith("error: the record is not valid JSON")
    proc = run_cli("deal", "--seed", "hello", "--players", "3", "--json")
    assert proc.returncode == 0
    data = json.loads(proc.stdout)
    golden = next(v for v in GOLDEN["vectors"] if v["seed"] == "hello" and v["players"] == 3)
    assert data["rounds"] == golden["rounds"]


@pytest.mark.needs_subprocess
def test_the_program_names_itself_as_it_was_invoked() -> None:
    proc = run_cli("--help")
    assert proc.returncode == 0 and proc.stdout.startswith("usage: python -m jabberwocky ")
    # what the console script installed by pip runs: its own path as sys.argv[0]
    wrapper = ("import sys; sys.argv[0] = '/opt/venv/bin/jabberwocky'; "
               "from jabberwocky.drivers.cli import main; sys.exit(main())")
    env = dict(os.environ, PYTHONPATH=str(SRC))
    script = subprocess.run([sys.executable, "-c", wrapper, "--help"], capture_output=True,
                            text=True, env=env, timeout=60, check=False)
    assert script.returncode == 0 and script.stdout.startswith("usage: jabberwocky ")
    version = run_cli("--version")
    assert version.returncode == 0
    assert version.stdout == f"jabberwocky {jabberwocky.__version__}\n"
