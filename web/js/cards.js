// Card names for display and speech only (no rules here): "QH" -> rank "Q", suit "H".
// Words come from the catalogue: "queen of hearts", "Herz-Dame", "srdcová královna"…

import { t } from "./i18n.js";

export const SUITS = ["C", "D", "H", "S"];
export const SUIT_SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };

export const rankOf = (card) => card.slice(0, -1);
export const suitOf = (card) => card.slice(-1);
/** The index printed in a card's corner, as decks of the player's language print it
 *  ("10", and B/D/K/A for German). */
export const rankLabel = (card) => t(`rank.index.${rankOf(card)}`);
export const isRed = (card) => suitOf(card) === "H" || suitOf(card) === "D";

/** A card in words, in the player's language. */
export function cardWords(card) {
  return card ? t("card.words", { rank: rankOf(card), suit: suitOf(card) }) : "";
}

export const suitWords = (suit) => t(`suit.${suit}`);
export const cardShort = (card) => `${rankLabel(card)}${SUIT_SYMBOLS[suitOf(card)] || ""}`;
