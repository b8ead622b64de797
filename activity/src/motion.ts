// Cards move rather than jump (docs/activity.md, "Motion"): between two drawings, a card that
// is in both slides from where it was (your card to the table, a throw-in, a transfer); a card
// that left the table goes to the discard pile, or to the player who took it, and fades. At
// most MOVE_MS, and none under `prefers-reduced-motion` (the Web Animations API ignores the
// stylesheet's rule, so this checks the preference itself). A key or a tap ends them (main.ts).

import type { Game } from "./protocol";

export const MOVE_MS = 220;

export interface Before {
  cards: Map<string, { rect: DOMRect; el: HTMLElement }>;
  game: Game | null;
  you: number | null;
}

function still(win: Window): boolean {
  return win.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Where every card is now, before the next drawing replaces them (null: no motion wanted). */
export function positions(root: HTMLElement, game: Game | null, you: number | null): Before | null {
  const win = root.ownerDocument.defaultView;
  if (!win || still(win) || !game) return null;
  const cards = new Map<string, { rect: DOMRect; el: HTMLElement }>();
  for (const el of root.querySelectorAll<HTMLElement>(".card[data-card]")) {
    cards.set(el.dataset.card ?? "", { rect: el.getBoundingClientRect(), el });
  }
  return { cards, game, you };
}

function center(rect: DOMRect): [number, number] {
  return [rect.left + rect.width / 2, rect.top + rect.height / 2];
}

/** Animate the new drawing from `before`: moved cards slide, departed bout cards fly off. */
export function animateMoves(root: HTMLElement, before: Before | null, game: Game | null): void {
  if (!before || !game) return;
  const seen = new Set<string>();
  for (const el of root.querySelectorAll<HTMLElement>(".card[data-card]")) {
    const card = el.dataset.card ?? "";
    seen.add(card);
    const old = before.cards.get(card);
    if (!old) continue;
    const now = el.getBoundingClientRect();
    const dx = old.rect.left - now.left;
    const dy = old.rect.top - now.top;
    if (Math.abs(dx) + Math.abs(dy) < 3) continue;
    el.animate([{ translate: `${dx}px ${dy}px` }, { translate: "0 0" }], { duration: MOVE_MS, easing: "ease-out" });
  }
  // The bout's cards that left: to the discard when it grew, else to whoever took them.
  const prev = before.game;
  if (!prev) return;
  const discarded = game.discard_size > prev.discard_size;
  const taker = prev.defender === before.you ? root.querySelector(".hand") : root.querySelector(`.seat[data-seat="${prev.defender}"]`);
  const target = discarded ? root.querySelector(".discard") : taker;
  if (!target) return;
  const [tx, ty] = center(target.getBoundingClientRect());
  for (const [attack, defence] of prev.table) {
    for (const card of [attack, defence]) {
      if (!card || seen.has(card)) continue;
      const old = before.cards.get(card);
      if (!old) continue;
      const ghost = old.el;
      ghost.classList.remove("enter", "target", "pickable", "selected");
      Object.assign(ghost.style, { position: "fixed", left: `${old.rect.left}px`, top: `${old.rect.top}px`, margin: "0", zIndex: "5", pointerEvents: "none" });
      ghost.setAttribute("aria-hidden", "true");
      root.append(ghost);
      const [cx, cy] = center(old.rect);
      const flight = ghost.animate(
        [{ translate: "0 0", opacity: 1 }, { translate: `${tx - cx}px ${ty - cy}px`, opacity: 0, scale: "0.6" }],
        { duration: MOVE_MS, easing: "ease-in", fill: "forwards" },
      );
      flight.finished.finally(() => ghost.remove()).catch(() => undefined);
    }
  }
}
