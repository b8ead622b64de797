// Cards in durak_core notation (`10D`, `QS`, `AS#2`, `RJ`/`BJ`), for display only.

const SUITS: Record<string, { symbol: string; red: boolean }> = {
  S: { symbol: "♠", red: false },
  H: { symbol: "♥", red: true },
  D: { symbol: "♦", red: true },
  C: { symbol: "♣", red: false },
};

export interface CardFace {
  rank: string;
  suit: string; // the symbol, or "" for a joker
  red: boolean;
  joker: boolean;
}

export function cardFace(card: string): CardFace {
  const base = card.split("#")[0] ?? card;
  if (base === "RJ" || base === "BJ") {
    return { rank: "★", suit: "", red: base === "RJ", joker: true };
  }
  const suit = SUITS[base.slice(-1)];
  return { rank: base.slice(0, -1), suit: suit?.symbol ?? "?", red: suit?.red ?? false, joker: false };
}

/** A short readable name (`10♦`), for labels and screen readers. */
export function cardLabel(card: string): string {
  const f = cardFace(card);
  return f.joker ? `★${f.red ? "R" : "B"}` : `${f.rank}${f.suit}`;
}

export function suitOf(card: string): string | null {
  const base = card.split("#")[0] ?? card;
  return base === "RJ" || base === "BJ" ? null : base.slice(-1);
}

const RANK_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SUIT_ORDER = ["S", "H", "C", "D"];

/** Low to high within a suit; for sorting only. */
export function rankIndex(card: string): number {
  return RANK_ORDER.indexOf(cardFace(card).rank);
}

/** A hand in the order a player holds it: suits apart (alternating colours), low to high
 * within each, the trumps last and the jokers after them. Display only: the frame's order
 * (the engine's card index) is what the server knows. */
export function handOrder(hand: readonly string[], trump: string | null): string[] {
  const group = (card: string): number => {
    const suit = suitOf(card);
    if (suit === null) return 6;
    if (suit === trump) return 5;
    return SUIT_ORDER.indexOf(suit);
  };
  return [...hand].sort((a, b) => group(a) - group(b) || rankIndex(a) - rankIndex(b) || a.localeCompare(b));
}
