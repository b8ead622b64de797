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
