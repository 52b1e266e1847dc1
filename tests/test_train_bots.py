"""``bench/train_bots.py``: the trainer of the ``learned`` bot, on a tiny configuration.

It must be deterministic from its arguments (whatever ``--workers`` is), resume from
its checkpoint to the very weights an uninterrupted run gives, label each example with
what the game did, and learn (its gradient step lowers the loss).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import train_bots  # noqa: E402

from jabberwocky.bots.learned import LearnedBot, Record  # noqa: E402
from jabberwocky.bots.model import LATER_SIZE, NOW_SIZE, loads  # noqa: E402
from jabberwocky.core.game import Game  # noqa: E402
from jabberwocky.simulate import play_game  # noqa: E402

TINY = ["--players", "3,4", "--hidden", "4", "--now-hidden", "3", "--per-gen", "1",
        "--seed", "tiny"]


def _train(tmp_path: Path, name: str, games: int, *extra: str) -> str:
    out = tmp_path / name
    assert train_bots.main(["--out", str(out), "--games", str(games), *TINY, *extra]) == 0
    return out.read_text()


def test_the_same_arguments_give_the_same_weights(tmp_path: Path) -> None:
    a = _train(tmp_path, "a.json", 2)
    b = _train(tmp_path, "b.json", 2)
    assert a == b
    model = loads(a)
    assert model.later.inputs == LATER_SIZE and model.later.units == 4
    assert model.now.inputs == NOW_SIZE and model.now.units == 3
    assert model.meta["games"] == 2 and model.meta["generations"] == 2
    other = _train(tmp_path, "c.json", 2, "--lr", "0.05")
    assert other != a, "the weights depend on the training"


def test_a_resumed_run_ends_with_the_weights_of_an_uninterrupted_one(tmp_path: Path) -> None:
    straight = _train(tmp_path, "straight.json", 3)
    _train(tmp_path, "resumed.json", 1)
    ckpt = tmp_path / "resumed.json.ckpt"
    assert json.loads(ckpt.read_text())["gen"] == 1
    assert _train(tmp_path, "resumed.json", 3) == straight
    assert json.loads(ckpt.read_text())["gen"] == 3


def test_a_checkpoint_of_other_settings_is_refused(tmp_path: Path) -> None:
    _train(tmp_path, "m.json", 1)
    with pytest.raises(SystemExit, match="other settings"):
        _train(tmp_path, "m.json", 2, "--lr", "0.5")


@pytest.mark.needs_subprocess
def test_workers_give_the_same_weights(tmp_path: Path) -> None:
    one = _train(tmp_path, "one.json", 2, "--workers", "1")
    two = _train(tmp_path, "two.json", 2, "--workers", "2")
    assert one == two


def test_progress_goes_to_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _train(tmp_path, "p.json", 2, "--snapshots", str(tmp_path / "snaps"))
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "2/2 games" in captured.err and "wrote" in captured.err
    assert sorted(p.name for p in (tmp_path / "snaps").iterdir()) == ["gen-1.json", "gen-2.json"]


def test_examples_are_labelled_by_the_tricks_the_cards_took() -> None:
    records: list[Record] = []
    model = train_bots.new_model("label", 4, 3)
    bots = [LearnedBot(model, record=records) for _ in range(3)]
    game = play_game(Game("label", 3, seats=["learned"] * 3), bots)
    wins = train_bots.winning_cards(game)
    for r, result in enumerate(game.results):
        took = {t.cards[(t.winner - t.leader) % 3] for t in result.tricks}
        assert wins[r] == took and len(took) == result.hand_size
    later = [x for x in records if x[0] == "later"]
    now = [x for x in records if x[0] == "now"]
    assert later and now
    # every card dealt is an example at its seat's bid
    dealt = sum(r.hand_size * 3 for r in game.results)
    assert len(later) >= dealt
    assert all(0 <= i < LATER_SIZE for x in later for i in x[3])
    assert all(0 <= i < NOW_SIZE for x in now for i in x[3])


def test_a_gradient_step_lowers_the_loss() -> None:
    model = train_bots.new_model("step", 8, 3)
    active = (0, 5, 20, 40)
    first = train_bots.sgd_step(model.later, active, 1.0, 0.1)
    for _ in range(20):
        last = train_bots.sgd_step(model.later, active, 1.0, 0.1)
    assert last < first
