// The frame's legal actions, sorted by what the UI offers them on. Legality is the server's:
// this only reads the action notation of each offered code (docs/activity.md, "Protocol").

import type { ActionOffer } from "./protocol";

export interface Offers {
  /** card → code: open a bout or throw it in (attack). */
  attack: Map<string, number>;
  /** card → (attack card it beats → code). */
  defend: Map<string, Map<string, number>>;
  /** card → code: pass the attack on (transfer). */
  transfer: Map<string, number>;
  /** card → code: pass the attack on by showing that trump, which stays in the hand (V18). */
  show: Map<string, number>;
  take: number | null;
  pass: number | null;
  exchange: number | null;
}

export function readOffers(actions: readonly ActionOffer[]): Offers {
  const offers: Offers = {
    attack: new Map(),
    defend: new Map(),
    transfer: new Map(),
    show: new Map(),
    take: null,
    pass: null,
    exchange: null,
  };
  for (const { code, text } of actions) {
    const [verb, a, b] = text.trim().split(/\s+/);
    if (verb === "attack" && a) offers.attack.set(a, code);
    else if (verb === "defend" && a && b) {
      const targets = offers.defend.get(b) ?? new Map<string, number>();
      targets.set(a, code);
      offers.defend.set(b, targets);
    } else if (verb === "transfer" && a) offers.transfer.set(a, code);
    else if (verb === "show" && a) offers.show.set(a, code);
    else if (verb === "take") offers.take = code;
    else if (verb === "pass") offers.pass = code;
    else if (verb === "exchange") offers.exchange = code;
  }
  return offers;
}

/** Whether a hand card has anything to do right now. */
export function playable(offers: Offers, card: string): boolean {
  return offers.attack.has(card) || offers.defend.has(card) || offers.transfer.has(card);
}

/** The open card a hand card most likely should beat, of those it may: the one the fewest of
 * the hand's other cards could beat (leave the easy ones to them), then the highest (the
 * strong card on the strong attack). `rank` orders cards low to high. */
export function preferredTarget(offers: Offers, card: string, rank: (card: string) => number): string | null {
  const targets = offers.defend.get(card);
  if (!targets || targets.size === 0) return null;
  const coverers = (attack: string) => [...offers.defend.entries()].filter(([c, t]) => c !== card && t.has(attack)).length;
  return [...targets.keys()].sort((a, b) => coverers(a) - coverers(b) || rank(b) - rank(a))[0] ?? null;
}
