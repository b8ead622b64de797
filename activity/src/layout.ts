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

/** A bout pair's box per card width (style.css `.pair`), with room for the defence card's tilt. */
const PAIR_W = 1.35, PAIR_H = 1.42 * 1.22, TILT = 10;
/** The smallest card a bout shrinks to in rows; then its pairs overlap in one row instead. */
const MIN_ROWS_CARD = 40;
/** The smallest card of all, and the least step between overlapping pairs (each shows its
 * attack card's and its defence's corners). */
const MIN_BOUT_CARD = 30, MIN_STEP = 0.75;

export interface BoutFit {
  /** The cards' width. */
  card: number;
  /** Between the left edges of neighbouring pairs when they overlap in one row; null: rows. */
  step: number | null;
}

/** How `n` pairs fit `width` × `height` with the `.pairs` gaps: the widest card (at most
 * `base`) in rows (one row when `wrap` is false), else in one row of overlapping pairs. */
export function boutFit(n: number, width: number, height: number, base: number, gapX: number, gapY: number, wrap = true): BoutFit {
  for (let w = Math.floor(base); w >= MIN_ROWS_CARD; w--) {
    const pairW = w * PAIR_W + TILT, pairH = w * PAIR_H + TILT;
    const perRow = wrap ? Math.max(1, Math.floor((width + gapX) / (pairW + gapX))) : n;
    const rows = Math.ceil(n / perRow);
    if (perRow * pairW + (perRow - 1) * gapX <= width && rows * pairH + (rows - 1) * gapY <= height) return { card: w, step: null };
  }
  for (let w = Math.floor(base); w > MIN_BOUT_CARD; w--) {
    const pairW = w * PAIR_W + TILT;
    const step = n > 1 ? Math.min(pairW + gapX, (width - pairW) / (n - 1)) : 0;
    if (w * PAIR_H + TILT <= height && (n === 1 || step >= w * MIN_STEP)) return { card: w, step: n > 1 ? step : null };
  }
  return { card: MIN_BOUT_CARD, step: n > 1 ? MIN_BOUT_CARD * MIN_STEP : null };
}

/** Shrink the bout's cards, or overlap its pairs, until they fit the room the felt leaves it
 * (a phone with six seats and a bout of six pairs): nothing of it may cover the status line
 * or the buttons. */
export function fitBout(root: ParentNode): void {
  const bout = root.querySelector<HTMLElement>(".felt .bout");
  const pairs = bout?.querySelector<HTMLElement>(".pairs");
  if (!bout || !pairs) return;
  bout.style.removeProperty("--card-w");
  pairs.classList.remove("tight");
  pairs.style.removeProperty("--pair-step");
  const n = pairs.querySelectorAll(".pair").length;
  const card = pairs.querySelector<HTMLElement>(".card");
  if (n === 0 || !card) return;
  const limit = bout.querySelector<HTMLElement>(".limit");
  const style = getComputedStyle(pairs);
  const height = bout.clientHeight - (limit ? limit.offsetHeight + (parseFloat(getComputedStyle(bout).rowGap) || 0) : 0);
  const gapX = parseFloat(style.columnGap) || 0, gapY = parseFloat(style.rowGap) || 0;
  const fit = boutFit(n, bout.clientWidth, height, card.offsetWidth, gapX, gapY, style.flexWrap !== "nowrap");
  if (fit.card < card.offsetWidth) bout.style.setProperty("--card-w", `${fit.card}px`);
  if (fit.step !== null) {
    pairs.classList.add("tight");
    pairs.style.setProperty("--pair-step", `${fit.step}px`);
  }
}
