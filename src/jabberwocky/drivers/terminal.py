"""A whole game in the terminal: you at seat 0 against bots.

Input is forgiving (``QH``, ``qh``, ``Q♥``, ``10h`` or the card's number in the list);
bad input is explained and asked again, never fatal.  ``?`` asks the bot for a hint,
``s`` shows the score sheet, ``q`` quits.
"""

from __future__ import annotations

import json
import os
import sys
from typing import IO

from ..bots import make_bot
from ..bots.referee import bot_hint, bot_move
from ..core.cards import (
    SUIT_SYMBOLS,
    Card,
    card_symbol,
    cards_of,
    parse_card,
    sort_for_display,
    suit_words,
)
from ..core.errors import BotError, CardError
from ..core.game import BIDDING, GAME_OVER, PLAYING, Game
from ..core.rules import Ruleset
from ..formats.record import to_record

_RED = "\033[31m"
_BOLD = "\033[1m"
_DIM = "\033[2m"
_RESET = "\033[0m"


class Quit(Exception):
    """The player asked to stop."""


class TerminalGame:
    """Drives one game between the terminal and the bots."""

    def __init__(self, seed: str, players: int, level: str, rules: Ruleset,
                 out: IO[str] | None = None, inp: IO[str] | None = None,
                 record_path: str | None = None) -> None:
        self.game = Game(seed, players, rules, ["human"] + [level] * (players - 1))
        self.bots = [make_bot(level) for _ in range(players)]
        self.out = out or sys.stdout
        self.inp = inp or sys.stdin
        self.color = self.out.isatty() and "NO_COLOR" not in os.environ
        self.names = ["You"] + [f"Bot {i}" for i in range(1, players)]
        self.level = level
        self.record_path = record_path

    # -- text helpers -----------------------------------------------------------

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def card(self, c: Card, mark: bool = False) -> str:
        text = card_symbol(c)
        if self.color and c // 13 in (1, 2):
            text = _RED + text + _RESET
        if mark and self.color:
            text = _BOLD + text + _RESET
        return text

    def ask(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            raise Quit
        line = line.strip()
        if line.lower() in ("q", "quit", "exit"):
            raise Quit
        return line

    # -- the game ---------------------------------------------------------------

    def run(self) -> None:
        g = self.game
        self.say(f"Jabberwocky: you against {g.players - 1} {self.level} bots, seed {g.seed!r}.")
        self.say("Bid exactly the tricks you will take. Type ? for a hint, s for the score "
                 "sheet, q to quit.")
        try:
            while g.phase != GAME_OVER:
                self.round_header()
                while g.phase in (BIDDING, PLAYING):
                    if g.to_act == 0:
                        self.human_turn()
                    else:
                        self.bot_turn()
                self.round_summary()
                if g.phase != GAME_OVER:
                    g.next_round()
            self.game_over()
        except Quit:
            self.say("\nGoodbye. Replay this game with --seed " + repr(g.seed))
        finally:  # also when a bot fails (BotError goes on to the caller): the game so far
            if self.record_path:
                with open(self.record_path, "w", encoding="utf-8") as fh:
                    json.dump(to_record(g), fh, ensure_ascii=False)

    def round_header(self) -> None:
        g = self.game
        t = g.trump_card
        self.say("")
        self.say(f"== Round {g.round_index + 1} of {g.rules.rounds}: {g.hand_size} cards each. "
                 f"{self.names[g.dealer]} deal{'s' if g.dealer else ''}. "
                 f"Trump card {self.card(t)}: {suit_words(t // 13)} are trumps. ==")

    def show_hand(self, legal: int) -> list[Card]:
        g = self.game
        cards = sort_for_display(cards_of(g.hands[0]), g.trump_suit)
        parts = []
        for i, c in enumerate(cards, 1):
            ok = bool(legal >> c & 1)
            tag = f"{i}:{self.card(c, ok)}"
            parts.append(tag + ("*" if ok and legal else ""))
        self.say("Your hand: " + "  ".join(parts) + ("   (* = playable)" if legal else ""))
        return cards

    def bids_line(self) -> str:
        g = self.game
        return ", ".join(f"{self.names[s]} {'-' if b is None else b}"
                         for s, b in enumerate(g.bids))

    def ask_move(self, prompt: str) -> str:
        """Ask until the answer is a move, handling ``?`` (hint) and ``s`` (scores)."""
        while True:
            text = self.ask(prompt)
            if text == "?":
                self.hint()
            elif text.lower() == "s":
                self.score_sheet()
            else:
                return text

    def human_turn(self) -> None:
        if self.game.phase == BIDDING:
            self.human_bid()
        else:
            self.human_card()

    def human_bid(self) -> None:
        g = self.game
        self.say(f"Bids so far: {self.bids_line()}")
        self.show_hand(0)
        forbidden = g.forbidden_bid()
        note = f" (you deal, so not {forbidden})" if forbidden is not None else ""
        while True:
            text = self.ask_move(f"Your bid, 0-{g.hand_size}{note}: ")
            try:
                bid = int(text)
            except ValueError:
                self.say(f"  Type a whole number from 0 to {g.hand_size}.")
                continue
            reason = g.why_illegal_bid(bid)
            if reason is None:
                g.bid(bid)
                return
            self.say(f"  Not allowed: {reason}.")

    def human_card(self) -> None:
        g = self.game
        self.show_trick()
        cards = self.show_hand(g.legal_mask())
        while True:
            card = self.read_card(self.ask_move("Your card (number or name like QH): "), cards)
            if card is None:
                continue
            reason = g.why_illegal_card(card)
            if reason is not None:
                self.say(f"  Not allowed: {reason}.")
                continue
            if g.is_renege(card):
                self.say(f"  You renege: that costs {g.rules.renege_penalty} points.")
            g.play(card)
            self.after_play(0, card)
            return

    def read_card(self, text: str, cards: list[Card]) -> Card | None:
        if not text:
            self.say(f"  Type a card's number 1-{len(cards)} or its name, like QH.")
            return None
        if text.isdigit() and 1 <= int(text) <= len(cards):
            return cards[int(text) - 1]
        for i, sym in enumerate(SUIT_SYMBOLS):
            text = text.replace(sym, "CDHS"[i])
        try:
            return parse_card(text)
        except CardError as exc:
            self.say(f"  {exc}; or type the card's number 1-{len(cards)}.")
            return None

    def show_trick(self) -> None:
        g = self.game
        if g.trick:
            played = ", ".join(f"{self.names[(g.leader + i) % g.players]} {self.card(c)}"
                               for i, c in enumerate(g.trick))
            self.say(f"Trick so far: {played}")
        else:
            self.say("You lead.")

    def bot_turn(self) -> None:
        g = self.game
        seat: int = g.to_act  # type: ignore[assignment]
        bidding = g.phase == BIDDING
        choice = bot_move(g, self.bots[seat])  # checked: a BotError leaves the game as it was
        if bidding:
            self.say(f"{self.names[seat]} bids {choice}.")
        else:
            self.after_play(seat, choice)

    def after_play(self, seat: int, card: Card) -> None:
        g = self.game
        if seat:
            self.say(f"{self.names[seat]} plays {self.card(card)}.")
        if not g.trick and g.tricks and g.tricks[-1].cards[-1] == card:
            w = g.tricks[-1].winner
            self.say(f"  -> {self.names[w]} take{'s' if w else ''} the trick. Tricks: " +
                     ", ".join(f"{self.names[s]} {g.taken[s]}/{g.bids[s]}"
                               for s in range(g.players)))

    def hint(self) -> None:
        g = self.game
        try:
            h = bot_hint(g, self.bots[1], 0, self.level)
        except BotError as exc:
            self.say(f"  No hint: {exc}.")
            return
        if h.kind == "bid":
            probs = "  ".join(f"{k}:{p:.0%}" for k, p in enumerate(h.probabilities))
            self.say(f"  Hint: bid {h.suggestion}." + (f" Chances of exactly k tricks: {probs}"
                                                        if probs else ""))
        else:
            self.say(f"  Hint: play {self.card(h.suggestion)}.")

    def round_summary(self) -> None:
        g = self.game
        res = g.results[-1]
        self.say("Round over: " + ", ".join(
            f"{self.names[s]} bid {res.bids[s]} took {res.taken[s]}"
            f"{' (+' + str(res.points[s]) + ')' if res.points[s] else ''}"
            for s in range(g.players)))
        self.score_sheet()
        if g.phase != GAME_OVER:
            self.ask("Press Enter for the next round... ")

    def score_sheet(self) -> None:
        g = self.game
        width = 12
        head = "Round " + "".join(f"{n[:width - 1]:>{width}}" for n in self.names)
        self.say(head)
        totals = [0] * g.players
        for res in g.results:
            cells = []
            for s in range(g.players):
                totals[s] += res.points[s]
                hit = "*" if res.bids[s] == res.taken[s] else " "
                cells.append(f"{res.bids[s]}/{res.taken[s]}{hit} {totals[s]:>3}")
            self.say(f"{res.round_index + 1:>5} " + "".join(f"{c:>{width}}" for c in cells))

    def game_over(self) -> None:
        g = self.game
        names = [self.names[s] for s in g.winners()]
        best = max(g.scores)
        if len(names) == 1:
            self.say(f"\n{names[0]} win{'s' if names[0] != 'You' else ''} with {best} points!")
        else:
            self.say(f"\nShared win with {best} points: {', '.join(names)}.")
