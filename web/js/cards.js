// Card names for display and speech only (no rules here): "QH" -> rank "Q", suit "H".

export const SUITS = ["C", "D", "H", "S"];
const RANK_WORDS = {
  2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
  T: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
};
const SUIT_WORDS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const SUIT_SINGULAR = { C: "club", D: "diamond", H: "heart", S: "spade" };
export const SUIT_SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };

export const rankOf = (card) => card.slice(0, -1);
export const suitOf = (card) => card.slice(-1);
export const rankLabel = (card) => (rankOf(card) === "T" ? "10" : rankOf(card));
export const isRed = (card) => suitOf(card) === "H" || suitOf(card) === "D";

export function cardWords(card) {
  if (!card) return "";
  return `${RANK_WORDS[rankOf(card)] || rankOf(card)} of ${SUIT_WORDS[suitOf(card)] || suitOf(card)}`;
}

export const suitWords = (suit) => SUIT_WORDS[suit] || suit;
export const suitSingular = (suit) => SUIT_SINGULAR[suit] || suit;
export const cardShort = (card) => `${rankLabel(card)}${SUIT_SYMBOLS[suitOf(card)] || ""}`;
