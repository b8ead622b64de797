// The frame's legal actions, sorted by what the UI offers them on. Legality is the server's:
// this only reads each offered code's notation, and what its kind is from the table of move
// kinds the welcome frame brings (docs/activity.md, "Protocol"; durak_core/move_kinds.py).

import type { ActionOffer, MoveKind } from "./protocol";

let kinds = new Map<string, MoveKind>();

/** The table of move kinds, from the welcome frame. */
export function setMoveKinds(moves: readonly MoveKind[] | undefined): void {
  if (moves) kinds = new Map(moves.map((k) => [k.verb, k]));
}

/** An offer with a button of its own in the controls. */
export interface Control {
  code: number;
  kind: MoveKind;
  /** The card its notation names, if any. */
  card: string | null;
}

export interface Offers {
  /** hand card → code, in the frame's order: what the card plays alone (an attack, a transfer). */
  plays: Map<string, number[]>;
  /** hand card → (open card it beats → code): the aimed moves (a defence). */
  beats: Map<string, Map<string, number>>;
  /** The buttons of the controls, in the frame's order. */
  controls: Control[];
}

export function readOffers(actions: readonly ActionOffer[]): Offers {
  const offers: Offers = { plays: new Map(), beats: new Map(), controls: [] };
  for (const { code, text } of actions) {
    const [verb = "", ...cards] = text.trim().split(/\s+/);
    const kind = kinds.get(verb);
    if (!kind) continue; // a kind this welcome did not describe: nothing to show it with
    const card = cards[cards.length - 1] ?? null;
    if (kind.label !== null) offers.controls.push({ code, kind, card });
    if (!kind.spends_card || card === null) continue;
    const aimed = kind.aims ? cards[0] : undefined;
    if (aimed !== undefined) {
      const targets = offers.beats.get(card) ?? new Map<string, number>();
      targets.set(aimed, code);
      offers.beats.set(card, targets);
    } else offers.plays.set(card, [...(offers.plays.get(card) ?? []), code]);
  }
  return offers;
}

/** Whether a hand card has anything to do right now. */
export function playable(offers: Offers, card: string): boolean {
  return offers.plays.has(card) || offers.beats.has(card);
}

/** The open card a hand card most likely should beat, of those it may: the one the fewest of
 * the hand's other cards could beat (leave the easy ones to them), then the highest (the
 * strong card on the strong attack). `rank` orders cards low to high. */
export function preferredTarget(offers: Offers, card: string, rank: (card: string) => number): string | null {
  const targets = offers.beats.get(card);
  if (!targets || targets.size === 0) return null;
  const coverers = (attack: string) => [...offers.beats.entries()].filter(([c, t]) => c !== card && t.has(attack)).length;
  return [...targets.keys()].sort((a, b) => coverers(a) - coverers(b) || rank(b) - rank(a))[0] ?? null;
}
