// The Durak Activity's client: sign in through Discord, open the table's WebSocket, draw
// each table frame. See docs/activity.md, "Client".

import "./style.css";
import type { DiscordSDK } from "@discord/embedded-app-sdk";
import { setMoveKinds } from "./actions";
import { clientId, SignInError, signIn, startSdk } from "./auth";
import { cardLabel } from "./cards";
import { coachFrame, coachParts, coachRefused, newCoach, type Ask } from "./coach";
import { setDeadline, tickClocks } from "./clock";
import { Connection } from "./connection";
import { fitBout, layoutHand } from "./layout";
import { updatePresence } from "./presence";
import type { ServerFrame, Table } from "./protocol";
import { setTexts, tr } from "./texts";
import { render, type Selection, type ViewState } from "./view";

const root = document.getElementById("app") as HTMLElement;

const state: ViewState = {
  table: null,
  selection: { card: null, target: null },
  pending: false,
  reconnecting: false,
  toast: null,
  notice: null,
  seen: new Set(),
  choices: null,
  form: null,
  opening: false,
  coach: null,
};
/** The coach's review, hint and puzzle (coach.ts). */
const coach = newCoach();
let connection: Connection | null = null;
/** The Embedded App SDK once it is ready: the invite dialog. */
let sdk: DiscordSDK | null = null;
let started = false;
let toastTimer = 0;
let noticeTimer = 0;
/** The game the timer's moves were last read from (table id and shuffle commitment), and the
 * newest of them seen: only moves made after that are announced. */
let timeoutsOf = "";
let timeoutsSeen = -1;

function cardsOf(): Set<string> {
  const game = state.table?.game;
  return new Set([...(game?.hand ?? []), ...(game?.table.flat().filter((c): c is string => !!c) ?? [])]);
}

/** A coach request: one at a time (the server refuses another while one runs). */
const ask: Ask = (op, extra) => {
  if (!connection) return;
  connection.coach(op, extra);
  if (op !== "puzzle_close") coach.waiting = true;
  if (op === "hint") coach.hintAsked = extra?.version ?? null;
  draw();
};

/** The daily puzzle on the table: its position drawn as a table, a move sent to the coach. */
function drawPuzzle(): boolean {
  const puzzle = coach.puzzle;
  if (!puzzle) return false;
  const shown: ViewState = { ...state, table: puzzle.table, pending: coach.waiting, opening: false, coach: coachParts(coach, null, ask, draw) };
  render(root, shown, {
    act(code) {
      if (coach.waiting) return;
      state.selection = { card: null, target: null };
      ask("puzzle_move", { code, ply: puzzle.ply });
    },
    lobby() {},
    open() {},
    opening() {},
    formChanged: draw,
    select(selection: Selection) {
      state.selection = selection;
      draw();
    },
  });
  state.seen = new Set([...(puzzle.table.game?.hand ?? []), ...(puzzle.table.game?.table.flat().filter((c): c is string => !!c) ?? [])]);
  return true;
}

function draw(): void {
  if (!started || drawPuzzle()) return;
  state.coach = coachParts(coach, state.table, ask, draw);
  render(root, state, {
    act(code) {
      const table = state.table;
      if (!table || !connection || state.pending) return;
      connection.act(code, table.version, table.id);
      state.pending = true;
      state.selection = { card: null, target: null };
      draw();
    },
    lobby(op, extra) {
      if (!connection || state.pending) return;
      connection.lobby(op, extra);
      state.pending = true;
      draw();
    },
    open(options) {
      if (!connection || state.pending) return;
      connection.openTable(options);
      state.pending = true;
      draw();
    },
    opening(on) {
      state.opening = on;
      draw();
      root.querySelector<HTMLElement>(on ? "#f-preset" : '[data-key="o:new"]')?.focus();
    },
    formChanged() {
      draw();
    },
    invite: sdk
      ? () => {
          // Discord's own dialog; where it is not available (a browser without Discord), the
          // SDK's refusal changes nothing
          sdk?.commands.openInviteDialog().catch((error: unknown) => console.warn("invite dialog", error));
        }
      : undefined,
    select(selection: Selection) {
      state.selection = selection;
      draw();
      // Keyboard: after picking one card of a pair, go straight to the choices for the other.
      const next = selection.card ? ".pair .card.target" : selection.target ? ".hand .card.playable" : null;
      if (next) root.querySelector<HTMLElement>(next)?.focus();
    },
  });
  state.seen = cardsOf();
}

function toast(text: string): void {
  state.toast = text;
  window.clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => {
    state.toast = null;
    draw();
  }, 4000);
}

/** The turn timer's moves in this frame that the client has not announced yet, in words. */
function newTimeouts(table: Table | null): string[] {
  const game = table?.game;
  if (!table || !game) return [];
  const of = `${table.id}:${game.commitment ?? ""}`;
  const moves = game.timeouts ?? [];
  const first = of !== timeoutsOf;
  const fresh = first ? [] : moves.filter((m) => m.at > timeoutsSeen);
  timeoutsOf = of;
  timeoutsSeen = Math.max(first ? -1 : timeoutsSeen, ...moves.map((m) => m.at));
  return fresh.map((move) => {
    const [verb, card] = move.action.split(" ");
    const you = move.seat === table.you;
    const key = `activity.timeout_${you ? "you_" : ""}${verb}`;
    return tr(key, { name: table.players[move.seat]?.name ?? `#${move.seat + 1}`, card: card ? cardLabel(card) : "" });
  }).filter((text) => text !== "");
}

function notice(lines: string[]): void {
  if (lines.length === 0) return;
  state.notice = lines.join(" ");
  window.clearTimeout(noticeTimer);
  noticeTimer = window.setTimeout(() => {
    state.notice = null;
    draw();
  }, 6000);
}

function onFrame(frame: ServerFrame): void {
  if (frame.type === "welcome") {
    setTexts(frame.texts);
    setMoveKinds(frame.moves);
    state.choices = frame.new_table ?? null;
    started = true;
  } else if (frame.type === "table") {
    const before = state.table;
    state.table = frame.table;
    setDeadline(frame.table?.game?.deadline_in, frame.table?.turn_timer);
    notice(newTimeouts(frame.table));
    updatePresence(sdk, frame.table);
    // The form after a game closes once another table (or this one's rematch) is shown.
    if (frame.table?.id !== before?.id || frame.table?.status !== "finished") state.opening = false;
    if (before?.version !== frame.table?.version) state.selection = { card: null, target: null };
  } else if (frame.type === "coach") {
    const ply = coach.puzzle?.ply;
    coachFrame(coach, frame);
    if (coach.puzzle?.ply !== ply) state.selection = { card: null, target: null };
    if (frame.kind === "review") window.setTimeout(() => root.querySelector<HTMLElement>('[data-key="c:close-review"]')?.focus());
  } else {
    if (frame.ref?.startsWith("c")) coachRefused(coach);
    toast(frame.text);
  }
  // Answered, unless a move is still on its way (sent again after a reconnect).
  if (frame.type !== "welcome" && frame.type !== "coach") state.pending = connection?.waiting ?? false;
  draw();
}

function fail(message: string): void {
  // Before the first welcome the client has no words of its own: the server's message (in
  // the user's language) or just the mark that nothing works.
  root.replaceChildren(Object.assign(document.createElement("p"), { className: "fatal", role: "alert", textContent: message || "⚠" }));
}

// A phone turned, a pane resized: the hand's rows and spacing follow, and the bout's size.
window.addEventListener("resize", () => {
  layoutHand(root);
  fitBout(root);
});

// The countdowns: four times a second, only their text (the view is drawn on frames).
window.setInterval(() => tickClocks(root), 250);

// Skippable animations: any key or tap ends those running.
for (const type of ["keydown", "pointerdown"] as const) {
  window.addEventListener(type, () => {
    for (const a of document.getAnimations()) a.finish();
  }, { capture: true });
}
window.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && (state.selection.card || state.selection.target)) {
    state.selection = { card: null, target: null };
    draw();
  } else if (event.key === "Escape" && coach.reviewOpen) {
    coach.reviewOpen = false;
    draw();
  } else if (event.key === "Escape" && state.opening) {
    state.opening = false;
    draw();
  }
});

async function main(): Promise<void> {
  const id = clientId();
  try {
    const ready = await startSdk(id);
    sdk = ready;
    const session = await signIn(ready, id);
    connection = new Connection(session, () => signIn(ready, id), {
      frame: onFrame,
      reconnecting(down) {
        state.reconnecting = down;
        // a coach request on a socket that dropped gets no answer: it may be asked again
        if (down) coachRefused(coach);
        draw();
      },
      stopped(text) {
        connection = null;
        fail(text);
      },
    });
    connection.open();
  } catch (error) {
    fail(error instanceof SignInError ? error.message : "");
    console.error("activity sign-in failed", error);
  }
}

void main();
