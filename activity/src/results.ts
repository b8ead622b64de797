// The results after a game (docs/activity.md, "Client"): places, the Durak, the series so
// far, each human's rating change, the shuffle's commitment and its seed (R4), the rematch.

import { avatarEl } from "./avatars";
import { h } from "./dom";
import type { CoachParts } from "./coach";
import type { Game, RatingChange, Table } from "./protocol";
import { tr } from "./texts";

/** What the table view supplies: the status line, the after-game buttons, a seat's role. */
export interface ResultsParts {
  status: string;
  ops: HTMLElement | null;
  role: (seat: number) => string;
  /** "Review my game", put beside the buttons, and its progress line (coach.ts). */
  coach: CoachParts["results"] | null;
}

/** The seats in the order the game ended them: the first out first, the losers last. */
function places(game: Game): number[] {
  const rest = game.active.filter((s) => !game.finishing_order.includes(s));
  const losers = game.result ? [...(game.result.durak === null ? [] : [game.result.durak]), ...game.result.losers] : [];
  const order = [...game.finishing_order, ...rest.filter((s) => !losers.includes(s)), ...losers.filter((s) => !game.finishing_order.includes(s))];
  return [...new Set(order)];
}

/** The end of a game: everyone's place, the Durak, the series so far, each human's rating
 * change (when the frame has them: a recorded game), the shuffle's commitment and the seed
 * that checks it (R4), the rematch. */
export function resultsScreen(table: Table, game: Game, parts: ResultsParts): HTMLElement {
  const series = game.series;
  const ratings = game.ratings;
  const rated = !!ratings?.some((r) => r !== null);
  const rows = places(game).map((seat, i) => {
    const player = table.players[seat];
    const name = player?.name ?? `#${seat + 1}`;
    const durak = game.result?.durak === seat || !!game.result?.losers.includes(seat);
    return h(
      "tr",
      { class: `${durak ? "durak" : ""}${seat === table.you ? " you" : ""}`.trim() || undefined },
      h("td", { class: "place" }, durak ? "" : String(i + 1)),
      // the role twice: its own column, or (a phone upright: no room for it) under the name
      h("td", { class: "who" }, h("div", {}, avatarEl(player, name), h("span", { class: "who-text" }, h("span", { class: "name" }, name), h("span", { class: "role-inline" }, parts.role(seat))))),
      h("td", { class: "role" }, parts.role(seat)),
      series ? h("td", { class: "n" }, String(series.wins[seat] ?? 0)) : null,
      series ? h("td", { class: "n" }, String(series.losses[seat] ?? 0)) : null,
      rated ? ratingCell(ratings?.[seat] ?? null) : null,
    );
  });
  // "Series" heads its two columns only, so the rating's column beside them is not read as part
  // of it; the role's column has its own header cells, hidden with it on a phone upright.
  const group = series ? h("tr", { class: "group" }, h("th", { colspan: "2" }), h("th", { class: "role" }), h("th", { colspan: "2" }, tr("table.series")), rated ? h("th", {}) : null) : null;
  const columns = h(
    "tr",
    {},
    h("th", {}),
    h("th", {}),
    h("th", { class: "role" }),
    series ? h("th", {}, tr("activity.wins")) : null,
    series ? h("th", {}, tr("activity.losses")) : null,
    rated ? h("th", {}, tr("stats.rating")) : null,
  );
  const head = series || rated ? h("thead", {}, group, columns) : null;
  return h(
    "section",
    { class: "results", "aria-label": tr("activity.game_over") },
    h("h2", {}, tr("activity.game_over")),
    h("p", { class: "status", role: "status" }, h("span", { class: "line" }, parts.status)),
    h("table", { class: "places" }, head, h("tbody", {}, ...rows)),
    withReview(parts.ops, parts.coach?.button ?? null),
    parts.coach?.line,
    table.you !== null && !table.tournament && h("p", { class: "small" }, tr("table.rematch_hint")),
    fairness(game),
  );
}

/** The after-game buttons with "Review my game" among them (a row of its own if there are none). */
function withReview(ops: HTMLElement | null, review: HTMLElement | null): HTMLElement | null {
  if (!review) return ops;
  const row = ops ?? h("div", { class: "ops" });
  row.append(review);
  return row;
}

/** R4, compactly: the seed and its commitment, each one line with Copy, and how anyone checks
 * them (`/durak verify` with the game's id). */
function fairness(game: Game): HTMLElement | null {
  if (!game.commitment) return null;
  const lines = [game.seed ? proofLine(tr("verify.seed"), game.seed) : null, proofLine(tr("verify.commitment"), game.commitment)];
  const hint = game.seed && game.game_id ? h("p", { class: "verify" }, tr("activity.verify_hint", { id: game.game_id })) : null;
  return h("div", { class: "fairness" }, ...lines, hint);
}

/** A label, the value in a read-only field (scrolled, never wrapped) and a Copy button; where
 * the page may not write to the clipboard, the button selects the value to copy by hand. */
function proofLine(label: string, value: string): HTMLElement {
  const field = h("input", { class: "hex", readonly: "", value, "aria-label": label, spellcheck: "false" }) as HTMLInputElement;
  const copy = h("button", { type: "button", class: "copy" }, tr("activity.copy"));
  copy.addEventListener("click", () => {
    const selectIt = () => field.select();
    const done = () => (copy.textContent = tr("activity.copied"));
    if (navigator.clipboard) navigator.clipboard.writeText(value).then(done, selectIt);
    else selectIt();
  });
  return h("div", { class: "proof" }, h("span", { class: "label" }, label), field, copy);
}

/** A number as the leaderboard writes it (one decimal), with a real minus sign. */
function tenths(x: number, signed = false): string {
  const text = Math.abs(x).toFixed(1);
  if (x < 0 && text !== "0.0") return "\u2212" + text;
  return signed && text !== "0.0" ? "+" + text : text;
}

/** A seat's rating change: the change, large, then before → after; empty for an AI seat. */
function ratingCell(change: RatingChange | null): HTMLElement {
  if (change === null) return h("td", { class: "rating" });
  const way = change.delta > 0 ? " up" : change.delta < 0 ? " down" : "";
  return h(
    "td",
    { class: "rating" },
    h("span", { class: "delta" + way }, tenths(change.delta, true)),
    h("span", { class: "from-to" }, `${tenths(change.before)} \u2192 ${tenths(change.after)}`),
  );
}

