// Dragging a hand card onto an open card it beats (or, to attack, onto the table): the same
// move as tapping the card and then the target, in one gesture. The drop is looked up in the
// frame's offers (`defend` card → attack card → code); anything else snaps back.

import type { Offers } from "./actions";

/** How far (px) a pointer must move before a press becomes a drag, not a tap. */
const SLOP = 8;

interface Drag {
  card: string;
  el: HTMLElement;
  x: number;
  y: number;
  ghost: HTMLElement | null;
  pointer: number;
}

let drag: Drag | null = null;
/** A drag just ended: the click the browser sends after it is not a tap. */
let swallowClick = false;

export function draggedJustNow(): boolean {
  const was = swallowClick;
  swallowClick = false;
  return was;
}

/** Lets `el` (a hand card that `offers` has something for) be dragged; `act` plays a code. */
export function draggable(el: HTMLElement, card: string, offers: Offers, act: (code: number) => void): void {
  el.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || drag) return;
    drag = { card, el, x: event.clientX, y: event.clientY, ghost: null, pointer: event.pointerId };
    swallowClick = false;
  });
  el.addEventListener("pointermove", (event) => move(event));
  el.addEventListener("pointerup", (event) => drop(event, offers, act));
  el.addEventListener("pointercancel", () => end());
}

function move(event: PointerEvent): void {
  if (!drag || event.pointerId !== drag.pointer) return;
  const dx = event.clientX - drag.x;
  const dy = event.clientY - drag.y;
  if (!drag.ghost) {
    if (Math.hypot(dx, dy) < SLOP) return;
    drag.el.setPointerCapture(event.pointerId);
    const rect = drag.el.getBoundingClientRect();
    const ghost = drag.el.cloneNode(true) as HTMLElement;
    ghost.classList.add("ghost");
    ghost.removeAttribute("data-key");
    Object.assign(ghost.style, { left: `${rect.left}px`, top: `${rect.top}px`, width: `${rect.width}px`, height: `${rect.height}px` });
    document.body.append(ghost);
    drag.ghost = ghost;
    drag.el.classList.add("dragged");
  }
  drag.ghost.style.translate = `${dx}px ${dy}px`;
  for (const t of document.querySelectorAll(".drop")) t.classList.remove("drop");
  targetAt(event.clientX, event.clientY)?.classList.add("drop");
}

/** The open attack card (a `.target`) or, for an attack, the bout under the point. */
function targetAt(x: number, y: number): HTMLElement | null {
  const under = document.elementsFromPoint(x, y);
  for (const el of under) {
    const target = (el as HTMLElement).closest<HTMLElement>(".pair [data-key^='t:'], .bout");
    if (target) return target;
  }
  return null;
}

function drop(event: PointerEvent, offers: Offers, act: (code: number) => void): void {
  if (!drag || event.pointerId !== drag.pointer) return;
  const { card, ghost } = drag;
  const target = ghost ? targetAt(event.clientX, event.clientY) : null;
  end();
  if (!ghost) return; // a tap: the click handler plays it
  // the click that follows this pointerup (in the same task) is not a tap; if the card was
  // drawn anew meanwhile, no click comes, and the next task clears the mark
  swallowClick = true;
  window.setTimeout(() => {
    swallowClick = false;
  }, 0);
  if (!target) return;
  const attack = target.dataset.key?.startsWith("t:") ? target.dataset.key.slice(2) : null;
  const code = attack ? offers.beats.get(card)?.get(attack) : offers.plays.get(card)?.[0];
  if (code !== undefined) act(code);
}

// The view was drawn anew under a drag (a frame arrived): its card is gone, so is the drag.
window.addEventListener("pointerup", () => {
  if (drag && !drag.el.isConnected) end();
});

function end(): void {
  if (!drag) return;
  drag.ghost?.remove();
  drag.el.classList.remove("dragged");
  for (const t of document.querySelectorAll(".drop")) t.classList.remove("drop");
  drag = null;
}
