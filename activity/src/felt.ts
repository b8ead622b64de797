// The felt's cards: a card face, the talon with the trump card, the discard pile.

import { cardFace, cardLabel, suitOf } from "./cards";
import { h } from "./dom";
import type { Game } from "./protocol";
import { tr } from "./texts";

export function cardEl(card: string, opts: { tag?: "button" | "div"; key?: string; trump?: string | null; seen?: Set<string> } = {}): HTMLElement {
  const f = cardFace(card);
  const el = h(
    opts.tag ?? "div",
    {
      class: `card${f.red ? " red" : ""}${f.joker ? " joker" : ""}${opts.trump && suitOf(card) === opts.trump ? " trump" : ""}${opts.seen && !opts.seen.has(card) ? " enter" : ""}`,
      "data-key": opts.key,
      "data-card": card,
      "aria-label": cardLabel(card),
      type: opts.tag === "button" ? "button" : undefined,
    },
    h("span", { class: "corner", "aria-hidden": "true" }, f.rank, h("br"), f.suit),
    h("span", { class: "pip", "aria-hidden": "true" }, f.joker ? "★" : f.suit),
  );
  return el;
}

/** A face-down pile of `count` cards: a few backs, offset, and the number. */
function pile(count: number, kind: "talon" | "discard", label: string): HTMLElement {
  const el = h("div", { class: `pile ${kind}`, "aria-label": `${label}: ${count}`, title: `${label}: ${count}` });
  const shown = Math.min(Math.ceil(count / 6), 4);
  for (let i = 0; i < shown; i++) {
    const b = h("div", { class: "back", "aria-hidden": "true" });
    b.style.setProperty("--i", String(i));
    el.append(b);
  }
  if (count > 0) el.append(h("span", { class: "pile-n" }, String(count)));
  return el;
}

/** The talon with the trump card face up beside it (while it is still under the talon), the
 * trump suit, and the discard pile. */
export function deckArea(game: Game): HTMLElement {
  const trumpLine = game.trump ? "" : tr("table.trump_none", { card: cardLabel(game.trump_card) });
  const trumpShown = game.trump_in_talon && game.talon_size > 0;
  return h(
    "div",
    { class: "deck" },
    h(
      "div",
      { class: "piles" },
      pile(game.talon_size, "talon", tr("table.talon")),
      trumpShown ? h("div", { class: "trump-card", title: tr("table.trump") }, cardEl(game.trump_card, { trump: game.trump })) : null,
      pile(game.discard_size, "discard", tr("table.discard")),
    ),
    h(
      "div",
      { class: "trump-label" },
      `${tr("table.trump")}: `,
      h("b", { class: game.trump === "H" || game.trump === "D" ? "red" : "" }, game.trump ? cardFace(`2${game.trump}`).suit : "—"),
    ),
    trumpLine && h("div", { class: "small" }, trumpLine),
  );
}
