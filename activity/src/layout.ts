// Where each hand card sits. A card is tapped on the part of it that the next card leaves
// uncovered, so that part is at least TAP px wide; when one row cannot give every card that
// much (a 12–13 card hand on a phone), the hand takes two rows (three for a bigger one), each
// row behind showing at least TAP px of its cards above the one in front.

/** The smallest tap target, in CSS pixels (WCAG 2.5.5's 44 px). */
export const TAP = 44;
/** How far a playable card rises in a two-row hand (style.css, `.hand.rows .card.playable`). */
const RAISE = 8;

export interface HandLayout {
  rows: number;
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
  // the fewest rows (at most three) that give every card TAP px; a hand bigger still (the
  // Durak's at the end of a game) squeezes its three rows to fit the width
  let rows = 1;
  while (rows < 3 && n > rows && spread(Math.ceil(n / rows)) < TAP) rows++;
  const perRow = Math.ceil(n / rows);
  const step = Math.max(spread(perRow), 0);
  // the front row's playable cards rise by RAISE px: the row behind still shows TAP px
  const rowGap = rows > 1 ? Math.max(TAP, Math.round(cardH * 0.55)) + RAISE + 2 : 0;
  const places: [number, number][] = [];
  for (let i = 0; i < n; i++) places.push([i % perRow, Math.floor(i / perRow)]);
  const width = cardW + step * Math.max(perRow - 1, 0);
  return { rows, step, rowGap, places, width, height: cardH + rowGap * (rows - 1) };
}

/** Place the hand's cards (after each drawing, and when the window changes size). */
export function layoutHand(root: ParentNode): void {
  const hand = root.querySelector<HTMLElement>(".hand");
  if (!hand) return;
  const items = [...hand.children] as HTMLElement[];
  const card = hand.querySelector<HTMLElement>(".card");
  if (!card) return;
  const layout = handLayout(items.length, hand.clientWidth, card.offsetWidth, card.offsetHeight);
  hand.classList.toggle("rows", layout.rows > 1);
  hand.style.setProperty("--hand-h", `${layout.height}px`);
  const left = Math.max(0, (hand.clientWidth - layout.width) / 2);
  items.forEach((li, i) => {
    const [col, row] = layout.places[i] ?? [0, 0];
    li.style.left = `${left + col * layout.step}px`;
    li.style.top = `${row * layout.rowGap}px`;
    li.style.zIndex = String(i + 1);
  });
}
