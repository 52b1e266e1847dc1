"""Write ``tests/golden/daily.json``: dates -> seeds -> first deals, and one day's par.

Run once from the repository root (``python tests/golden/make_daily.py``) when the vectors
are first made; they must never change afterwards for ``jabberwocky-daily/1`` (the par's
figures may, with a new bots version: it is pinned with the version it was made under).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))

from jabberwocky.analysis.daily import DAILY_PLAYERS, DAILY_VERSION, daily_seed, par  # noqa: E402
from jabberwocky.bots import BOTS_VERSION  # noqa: E402
from jabberwocky.cards import card_name, cards_of  # noqa: E402
from jabberwocky.core.deal import deal_round, first_dealer  # noqa: E402

DATES = ["2026-12-02", "2026-12-03", "2027-01-01", "2028-02-29", "1999-12-31"]
PAR_DATE = "2026-12-02"


def vector(date: str) -> dict[str, object]:
    seed = daily_seed(date)
    dealer = first_dealer(seed, DAILY_PLAYERS)
    deal = deal_round(seed, 1, DAILY_PLAYERS, dealer, 3)
    return {"date": date, "seed": seed, "first_dealer": dealer,
            "round_1": {"hands": [" ".join(card_name(c) for c in cards_of(h))
                                  for h in deal.hands],
                        "trump_card": card_name(deal.trump_card)}}


def main() -> None:
    p = par(PAR_DATE).to_json()
    out = {"version": DAILY_VERSION, "players": DAILY_PLAYERS,
           "vectors": [vector(d) for d in DATES],
           "par": {"date": PAR_DATE, "bots_version": BOTS_VERSION, "points": p["points"],
                   "exact": p["exact"], "bids": " ".join(str(r["bid"]) for r in p["rounds"]),
                   "taken": " ".join(str(r["taken"]) for r in p["rounds"])}}
    path = Path(__file__).with_name("daily.json")
    lines = ",\n  ".join(json.dumps(v) for v in out["vectors"])
    text = (f'{{"version": "{DAILY_VERSION}", "players": {DAILY_PLAYERS},\n "vectors": [\n  '
            f'{lines}\n ],\n "par": {json.dumps(out["par"])}}}\n')
    assert json.loads(text) == out
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
