// Where each hand card sits. A card is tapped on the part of it that the next card leaves
// uncovered, so that part is at least TAP px wide; when one row cannot give every card that
// much (a 12–13 card hand on a phone), the hand takes two rows, the back row showing at least
// TAP px of its cards above the front row.

/** The smallest tap target, in CSS pixels (WCAG 2.5.5's 44 px). */
export const TAP = 44;
/** How far a playable card rises in a two-row hand (style.css, `.hand.rows .card.playable`). */
const RAISE = 8;

export interface HandLayout {
  rows: 1 | 2;
  /** Horizontal distance between neighbouring cards of a row, and between the two rows. */
  step: number;
  rowGap: number;
  /** Each card's place: [column, row]. */
  places: [number, number][];
  width: number;
  height: number;
}

export function handLayout(n: number, available: number, cardW: number, cardH: number): HandLayout {
  const spread = (count: number) => (count <= 1 ? cardW : Math.min((available - cardW) / (count - 1), cardW + 8));
  let rows: 1 | 2 = 1;
  let perRow = n;
  if (n > 1 && spread(n) < TAP) {
    rows = 2;
    perRow = Math.ceil(n / 2);
  }
  const step = Math.max(spread(perRow), Math.min(TAP, cardW));
  // the front row's playable cards rise by RAISE px: the back row still shows TAP px
  const rowGap = rows === 2 ? Math.max(TAP, Math.round(cardH * 0.55)) + RAISE : 0;
  const places: [number, number][] = [];
  for (let i = 0; i < n; i++) places.push(i < perRow ? [i, 0] : [i - perRow, 1]);
  const width = cardW + step * Math.max(perRow - 1, 0);
  return { rows, step, rowGap, places, width, height: cardH + rowGap };
}

/** Place the hand's cards (after each drawing, and when the window changes size). */
export function layoutHand(root: ParentNode): void {
  const hand = root.querySelector<HTMLElement>(".hand");
  if (!hand) return;
  const items = [...hand.children] as HTMLElement[];
  const card = hand.querySelector<HTMLElement>(".card");
  if (!card) return;
  const layout = handLayout(items.length, hand.clientWidth, card.offsetWidth, card.offsetHeight);
  hand.classList.toggle("rows", layout.rows === 2);
  hand.style.setProperty("--hand-h", `${layout.height}px`);
  const left = Math.max(0, (hand.clientWidth - layout.width) / 2);
  items.forEach((li, i) => {
    const [col, row] = layout.places[i] ?? [0, 0];
    li.style.left = `${left + col * layout.step}px`;
    li.style.top = `${row * layout.rowGap}px`;
    li.style.zIndex = String(i + 1);
  });
}
