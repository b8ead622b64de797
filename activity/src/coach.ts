// The coach (docs/activity.md, "The coach"): "Review my game" on the results, the 💡 hint at a
// practice table, the server's daily puzzle on the table. Its words come from the server (the
// chat's, in the user's language); this only lays them out. view.ts places the parts built here.

import { h } from "./dom";
import type { CoachExtra, CoachFrame, CoachOpName, PuzzleBoard, ReviewMessage, Table } from "./protocol";
import { tr } from "./texts";

/** Where view.ts puts the coach's elements (each absent when there is nothing to show). */
export interface CoachParts {
  /** The status line's text instead of the game's (a puzzle that is over: its verdict). */
  status?: string;
  /** Buttons after the move buttons: the 💡 hint. */
  controls?: HTMLElement[];
  /** Instead of the game's own buttons: the puzzle's Close. */
  ops?: HTMLElement;
  /** Below the buttons, where the rematch hint goes: the hint's answer, the puzzle's lines. */
  note?: HTMLElement;
  /** On the results screen: "Review my game" beside Rematch, its progress line under them. */
  results?: { button: HTMLElement; line: HTMLElement | null };
  /** On the lobby (beside Invite) and the form that opens a table (beside Open): the daily
   * puzzle's button. */
  entry?: HTMLElement;
  /** Over the page: the review. */
  overlay?: HTMLElement;
}

export interface CoachState {
  /** The game the review is of, its progress line while it runs, the review once made. */
  reviewOf: string | null;
  progress: string | null;
  review: ReviewMessage | null;
  reviewOpen: boolean;
  /** The hint's answer, for one table version; the version a hint was asked at. */
  hint: { table: string; version: number; text: string } | null;
  hintAsked: number | null;
  puzzle: PuzzleBoard | null;
  /** A request is on its way (the server does one per user at a time). */
  waiting: boolean;
}

export function newCoach(): CoachState {
  return { reviewOf: null, progress: null, review: null, reviewOpen: false, hint: null, hintAsked: null, puzzle: null, waiting: false };
}

/** The chat's markdown, bold only (`**…**`); backticks dropped. */
export function rich(text: string): Node[] {
  return text
    .replace(/`/g, "")
    .split("**")
    .map((part, i) => (i % 2 ? h("b", {}, part) : document.createTextNode(part)));
}

/** A coach frame's effect on the state. */
export function coachFrame(coach: CoachState, frame: CoachFrame): void {
  if (frame.kind === "review_progress") {
    coach.progress = frame.text;
    return;
  }
  coach.waiting = false;
  if (frame.kind === "review") {
    coach.review = frame;
    coach.reviewOf = frame.game_id;
    coach.progress = null;
    coach.reviewOpen = true;
  } else if (frame.kind === "hint") {
    coach.hint = { table: frame.table, version: frame.version, text: frame.text };
    coach.hintAsked = null;
  } else {
    coach.puzzle = frame.puzzle;
  }
}

/** An error frame ends whatever the coach was waiting for. */
export function coachRefused(coach: CoachState): void {
  coach.waiting = false;
  coach.progress = null;
  coach.hintAsked = null;
}

export type Ask = (op: CoachOpName, extra?: CoachExtra) => void;

function button(label: string, key: string, kind: string, onClick: () => void, disabled = false): HTMLElement {
  const b = h("button", { type: "button", class: `act ${kind}`, "data-key": key, disabled }, label);
  b.addEventListener("click", onClick);
  return b;
}

/** The coach's parts for `table` (what the page shows now), given how to ask the server and to
 * draw again. */
export function coachParts(coach: CoachState, table: Table | null, ask: Ask, redraw: () => void): CoachParts | null {
  if (coach.puzzle) return puzzleParts(coach, coach.puzzle, ask);
  const parts: CoachParts = {};
  const game = table?.game;
  if (!table || table.status === "lobby" || table.status === "abandoned") {
    parts.entry = button(tr("activity.puzzle"), "c:puzzle", "puzzle", () => ask("puzzle"), coach.waiting);
  }
  const you = table?.you ?? null;
  if (table && game && you !== null && table.status === "finished" && game.finished && game.game_id) {
    const gid = game.game_id;
    const have = coach.reviewOf === gid && coach.review !== null;
    const open = () => {
      if (have) {
        coach.reviewOpen = true;
        redraw();
      } else ask("review");
    };
    const line = coach.progress ?? (coach.waiting ? tr("activity.coach_working") : null);
    parts.results = {
      button: button(tr("btn.review"), "c:review", "review", open, coach.waiting && !have),
      line: line ? h("p", { class: "coach-progress", role: "status" }, ...rich(line)) : null,
    };
    if (have && coach.reviewOpen && coach.review) parts.overlay = reviewPanel(coach.review, () => {
      coach.reviewOpen = false;
      redraw();
    });
  }
  if (table && game && you !== null && table.practice && table.status === "running" && !game.finished) {
    const asked = coach.hintAsked === table.version;
    if (game.actions.length >= 2) {
      parts.controls = [button(tr("act.hint"), "c:hint", "hint", () => ask("hint", { version: table.version }), coach.waiting)];
    }
    const hint = coach.hint;
    const text = hint && hint.table === table.id && hint.version === table.version ? hint.text : asked ? tr("activity.coach_working") : null;
    if (text) parts.note = h("p", { class: "small coach-hint", role: "status" }, ...rich(text));
  }
  return parts;
}

/** The review, laid out for any width: the summary, each section's lines, the chart (the
 * chat's picture: ■ a proven value, ● an estimate), the footer that says which are which.
 * Close (or Escape, main.ts) returns to the results. */
function reviewPanel(review: ReviewMessage, close: () => void): HTMLElement {
  const closer = button(tr("activity.close"), "c:close-review", "close", close);
  const sections = review.sections.map((s) =>
    h("section", {}, h("h3", {}, ...rich(s.name)), ...s.text.split("\n").map((line) => h("p", { class: "line" }, ...rich(line)))),
  );
  const panel = h(
    "div",
    { class: "coach-panel", role: "dialog", "aria-modal": "true", "aria-label": review.title },
    h("header", {}, h("h2", {}, ...rich(review.title)), closer),
    ...review.summary.map((line) => h("p", { class: "summary" }, ...rich(line))),
    review.chart && h("img", { class: "chart", src: review.chart, alt: review.chart_alt }),
    ...sections,
    review.footer && h("p", { class: "footer" }, ...rich(review.footer)),
  );
  return h("div", { class: "coach-overlay" }, panel);
}

/** The daily puzzle on the table: its lines where the rematch hint goes, Close beside the move
 * buttons, the verdict in the status line once it is over. */
function puzzleParts(coach: CoachState, puzzle: PuzzleBoard, ask: Ask): CoachParts {
  const lines = puzzle.lines.map((line) => h("p", {}, ...rich(line)));
  const parts: CoachParts = {
    note: h("div", { class: "small coach-puzzle", role: "status" }, ...lines),
    ops: h("div", { class: "ops" }, button(tr("activity.close"), "c:close-puzzle", "close", () => ask("puzzle_close"))),
  };
  if (coach.waiting) parts.status = tr("activity.coach_working");
  else if (puzzle.verdict) parts.status = puzzle.verdict.replace(/\*\*|`/g, "");
  return parts;
}
