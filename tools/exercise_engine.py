"""Every request of the web worker's protocol, run inside Pyodide once the engine wheel is
installed (as web/worker.js installs it): a game with the bot levels mixed and hints, a
whole 3-player game, records exported and imported, bad requests of each kind, a challenge
made, opened, refused and played, a review with the hard bot's analysis, a take-back, a
claim, pass-and-play and a formatted traceback.

Its value, the last expression (what ``pyodide.runPython`` returns), is JSON text: the
final scores, the scores of the re-imported record, the error kinds, and ``modules``,
every standard-library file Python imported (paths inside ``python_stdlib.zip``, ``.py``
even when the bytecode was loaded).  ``tools/precompile_stdlib.mjs`` puts those modules,
as bytecode, into the site's first standard-library archive (every other file goes into
the second, fetched on first import); ``bench/size.py --trim`` builds a source zip of only
those and checks that the answers stay the same.  Not importable on the host: it needs the
engine installed in Pyodide.
"""

import json
import sys
import traceback

from jabberwocky import webapi

STDLIB = "/lib/python314.zip/"

api = webapi.WebApi()


def call(kind, **payload):
    return json.loads(api.handle(kind, json.dumps(payload)))


def act(view):
    if view["phase"] in ("round-over",):
        return call("next_round")["result"]
    if view["your_turn"]:
        if view["phase"] == "bidding":
            return call("bid", bid=view["legal_bids"][0])["result"]
        return call("play", card=view["legal_cards"][0])["result"]
    return call("bot_step")["result"]["view"]


levels = call("levels")["result"]["levels"]
mixed = ([lvl for lvl in levels if lvl != "random"] or levels)[:3]
while len(mixed) < 3:
    mixed.append(mixed[-1])
view = call("new_game", seed="size-probe", players=4, bots=mixed)["result"]
for _ in range(12):
    if view["your_turn"]:
        call("hint")
    view = act(view)
view = call("new_game", seed="size-probe-2", players=3, bots="random")["result"]
errors = [call("bid", bid=99).get("error", {}).get("kind"),
          call("play", card="ZZ").get("error", {}).get("kind"),
          call("no_such_request").get("error", {}).get("kind"),
          call("import_record", record="{not json").get("error", {}).get("kind")]
while view["phase"] != "game-over":
    view = act(view)
record = call("export_record")["result"]["record"]
again = call("import_record", record=record)["result"]
call("deal", seed="size-probe", players=5)
call("rules")
# the second wave's requests: challenges, reviews, take-backs, claims, pass-and-play
made = call("challenge_encode", name="Probe")["result"]
call("challenge_open", text=made["text"])
call("challenge_open", text=made["text"][:-6])  # a refusal
timeline = call("review")["result"]
call("review_analyse", step=timeline["decisions"][0])
call("review_seen", step=0)
view = call("challenge_play", text=made["text"], name="Friend")["result"]
for _ in range(6):
    view = act(view)
call("challenge_compare")
view = call("new_game", seed="size-probe-3", players=4, bots="easy")["result"]
for _ in range(8):
    view = act(view)
call("take_back")
call("claim")
view = call("new_game", seed="size-probe-4", players=4, seats=["human", "easy", "human", "random"],
            names=["A", None, "B", None])["result"]
call("reveal")
try:
    raise ValueError("formatting a traceback, as the worker does for internal errors")
except ValueError:
    traceback.format_exc()
modules = sorted({m.__file__[len(STDLIB):].removesuffix("c") for m in list(sys.modules.values())
                   if getattr(m, "__file__", None) and m.__file__.startswith(STDLIB)})
json.dumps({"scores": view["scores"], "again": again["scores"], "errors": errors,
            "modules": modules})
