// The table, drawn from the newest table frame. Everything it shows is in the frame; what a
// click may do is only what the frame's `actions` offer (readOffers), never worked out here.

import { playable, preferredTarget, readOffers, type Offers } from "./actions";
import { avatarEl } from "./avatars";
import { cardFace, cardLabel, handOrder, rankIndex, suitOf } from "./cards";
import { cardEl, deckArea } from "./felt";
import { clockEl } from "./clock";
import { draggable, draggedJustNow } from "./drag";
import { fitBout, layoutHand } from "./layout";
import { h, type Child } from "./dom";
import { animateMoves, positions } from "./motion";
import { openForm } from "./open";
import { resultsScreen } from "./results";
import type { AiLevel, Game, LobbyExtra, LobbyOpName, NewTableChoices, OpenOptions, Table } from "./protocol";
import { tr } from "./texts";
import type { CoachParts } from "./coach";

export interface Selection {
  /** A hand card picked to beat something, waiting for the attack card it beats. */
  card: string | null;
  /** An open attack card picked first, waiting for the card that beats it. */
  target: string | null;
}

export interface ViewState {
  table: Table | null;
  selection: Selection;
  pending: boolean;
  reconnecting: boolean;
  toast: string | null;
  /** What the turn timer just played (for you or another seat), shown for a few seconds. */
  notice: string | null;
  /** Cards seen in the previous frame: only new ones animate in. */
  seen: Set<string>;
  /** The welcome's choices for opening a table, and the form's current values. */
  choices: NewTableChoices | null;
  form: OpenOptions | null;
  /** After a finished game: the form to open a new table is shown. */
  opening: boolean;
  /** The coach's parts of the page (coach.ts): null while it has nothing to show. */
  coach: CoachParts | null;
}

export interface ViewHandlers {
  act(code: number): void;
  lobby(op: LobbyOpName, extra?: LobbyExtra): void;
  select(selection: Selection): void;
  /** Open a table with the form's options (`/durak new`). */
  open(options: OpenOptions): void;
  /** Show (or close) the form to open a new table after a finished game. */
  opening(on: boolean): void;
  /** A form value changed that other fields depend on: draw again. */
  formChanged(): void;
  /** Discord's dialog that invites friends to this Activity (absent: not available). */
  invite?: () => void;
}

function backs(count: number): HTMLElement {
  const shown = Math.min(count, 6);
  const fan = h("div", { class: "backs", "aria-hidden": "true" });
  for (let i = 0; i < shown; i++) {
    const b = h("div", { class: "back" });
    b.style.setProperty("--i", String(i - (shown - 1) / 2));
    fan.append(b);
  }
  return fan;
}

function roleOf(game: Game, seat: number): string {
  if (game.result?.durak === seat || game.result?.losers.includes(seat)) return tr("table.role.durak");
  const place = game.finishing_order.indexOf(seat) + 1;
  if (place > 0) return tr("table.role.out", { place });
  if (game.finished) return "";
  if (seat === game.defender) return tr("table.role.defender");
  if (seat === game.attacker) return tr("table.role.attacker");
  if (game.attackers.includes(seat)) return tr("table.role.thrower");
  return "";
}

function seatPlate(table: Table, seat: number): HTMLElement {
  const game = table.game;
  const player = table.players[seat];
  const name = player?.name ?? `#${seat + 1}`;
  const awaited = !!game && !game.finished && game.awaiting.includes(seat);
  // one strong mark: the seat the bout waits for (the defender, else the main attacker, else
  // the only one awaited), and your own; the others who may throw in get a light one
  const turn = awaited && (seat === table.you || (!!game && keySeat(game) === seat));
  const may = awaited && !turn;
  const out = !!game && !game.active.includes(seat);
  const count = game?.hand_sizes[seat] ?? 0;
  const badge =
    player?.playing === "away" ? tr("picture.badge.away") : player?.playing === "left" ? tr("picture.badge.left") : "";
  const role = game ? roleOf(game, seat) : "";
  const timed = !!game && !game.finished && !!game.timed?.includes(seat);
  const teams = game?.teams ?? [];
  const teammate = table.you !== null && seat !== table.you && teams.length > 0 && teams[seat] === teams[table.you] && new Set(teams).size < teams.length;
  const known = seat === table.you ? [] : (game?.known?.[seat] ?? []);
  return h(
    "li",
    {
      "data-seat": String(seat),
      class: `seat${turn ? " turn" : ""}${may ? " may" : ""}${out ? " out" : ""}${game?.defender === seat && !game.finished ? " defender" : ""}${teammate ? " mate" : ""}`,
      "aria-current": turn ? "true" : undefined,
    },
    avatarEl(player, name),
    h(
      "div",
      { class: "who" },
      h("div", { class: "name" }, name),
      role && h("div", { class: "role" }, role),
      badge && h("div", { class: "badge" }, badge),
      teammate && h("div", { class: "mate" }, tr("activity.teammate")),
    ),
    game && !out && h("div", { class: "count" }, backs(count), h("span", { class: "n" }, String(count)), timed && clockEl("seat")),
    known.length > 0 && !out
      ? h("div", { class: "known", title: tr("activity.known"), "aria-label": tr("activity.known") }, ...handOrder(known, game?.trump ?? null).map((c) => h("span", { class: cardFace(c).red ? "red" : "" }, cardLabel(c))))
      : null,
  );
}

/** The awaited seat the bout turns on: the defender, else the main attacker, else the only one
 * awaited; null when several are awaited and neither of those is. */
function keySeat(game: Game): number | null {
  const awaited = game.awaiting;
  if (awaited.includes(game.defender)) return game.defender;
  if (awaited.includes(game.attacker)) return game.attacker;
  return awaited.length === 1 ? (awaited[0] ?? null) : null;
}

/** The other seats, clockwise from the one after yours (a spectator sees all of them). */
function seatOrder(table: Table): number[] {
  const n = table.game?.seats ?? table.players.length;
  const start = table.you === null ? 0 : table.you + 1;
  const order: number[] = [];
  for (let i = 0; i < n; i++) {
    const seat = (start + i) % n;
    if (seat !== table.you) order.push(seat);
  }
  return order;
}

function boutArea(game: Game, offers: Offers, state: ViewState, handlers: ViewHandlers): HTMLElement {
  const sel = state.selection;
  const targets = sel.card ? offers.beats.get(sel.card) : undefined;
  const preferred = sel.card ? preferredTarget(offers, sel.card, rankIndex) : null;
  const pairs = h("ol", { class: "pairs", "aria-label": tr("table.bout") });
  for (const [attack, defence] of game.table) {
    const code = targets?.get(attack);
    const canPickFirst = !sel.card && !defence && [...offers.beats.values()].some((t) => t.has(attack));
    let attackEl: HTMLElement;
    if (!state.pending && (code !== undefined || canPickFirst)) {
      attackEl = cardEl(attack, { tag: "button", key: `t:${attack}`, trump: game.trump, seen: state.seen });
      attackEl.classList.add(code !== undefined ? "target" : "pickable");
      if (code !== undefined && attack === preferred) attackEl.classList.add("preferred");
      if (sel.target === attack) attackEl.classList.add("selected");
      attackEl.addEventListener("click", () => {
        if (code !== undefined) handlers.act(code);
        else handlers.select({ card: null, target: sel.target === attack ? null : attack });
      });
    } else {
      attackEl = cardEl(attack, { trump: game.trump, seen: state.seen });
    }
    pairs.append(
      h("li", { class: "pair" }, attackEl, defence ? h("div", { class: "defence" }, cardEl(defence, { trump: game.trump, seen: state.seen })) : null),
    );
  }
  if (game.table.length === 0) pairs.append(h("li", { class: "empty" }, tr("table.bout_empty")));
  const limit = game.limit && game.table.length > 0 && !game.finished ? h("p", { class: "limit" }, tr("activity.bout_limit", { n: game.table.length, limit: game.limit })) : null;
  return h("div", { class: "bout" }, pairs, limit);
}

function names(table: Table, seats: number[]): string {
  return seats.map((s) => table.players[s]?.name ?? `#${s + 1}`).join(", ");
}

/** The status line, with the countdown when the timer runs for someone. */
function statusEl(table: Table, game: Game, state: ViewState): HTMLElement {
  const timed = !game.finished && (game.timed?.length ?? 0) > 0;
  return h("p", { class: "status", role: "status" }, h("span", { class: "line" }, state.coach?.status ?? statusLine(table, game, state)), timed && clockEl("status"));
}

function statusLine(table: Table, game: Game, state: ViewState): string {
  const you = table.you;
  if (game.finished && game.result) {
    const r = game.result;
    if (r.durak !== null) return tr("table.result_durak", { name: names(table, [r.durak]) });
    if (r.losers.length > 0) return tr("table.result_team", { names: names(table, r.losers) });
    return tr("table.result_draw");
  }
  if (you === null) return tr("activity.spectator");
  if (!game.active.includes(you)) return tr("hand.finished_out", { place: game.finishing_order.indexOf(you) + 1 });
  const picked = state.selection.card;
  if (picked) {
    const target = preferredTarget(readOffers(game.actions), picked, rankIndex);
    if (target) return tr("activity.pick_preferred", { card: cardLabel(picked), target: cardLabel(target) });
  }
  if (state.selection.card || state.selection.target) return tr("activity.pick_target");
  if (game.awaiting.includes(you)) {
    const open = game.table.filter(([, d]) => d === null).map(([a]) => cardLabel(a));
    if (you === game.defender && !game.taken) return tr("hand.you_defend", { cards: open.join(" ") });
    if (game.table.length === 0) return tr("hand.you_lead");
    return tr("hand.you_throw");
  }
  if (you === game.defender && game.taken) return tr("hand.taking", { names: names(table, game.awaiting) });
  return tr("table.waiting", { names: names(table, game.awaiting) });
}

function controls(game: Game, offers: Offers, state: ViewState, handlers: ViewHandlers): HTMLElement {
  const bar = h("div", { class: "controls" });
  const button = (label: string, code: number, verb: string, style: string) => {
    const b = h("button", { type: "button", class: `act ${verb} ${style}`, "data-key": `b:${verb}:${code}`, disabled: state.pending }, label);
    b.addEventListener("click", () => handlers.act(code));
    bar.append(b);
  };
  for (const { code, kind, card } of offers.controls) {
    // {card}: the offer's own, or for a swap (V8) the lowest trump it gives away
    const shown = kind.label_card === "lowest_trump" ? lowestTrump(game) : card;
    const label = tr(kind.label ?? "", { card: shown ? cardLabel(shown) : "", trump: game.trump_card ? cardLabel(game.trump_card) : "" });
    button(label, code, kind.verb, kind.style);
  }
  // beside "done for this bout" the two read alike: each says how long it holds
  if (game.may_auto_pass && !game.auto_pass) noted(bar.querySelector(".act.pass"), tr("activity.pass_note"));
  bar.append(...(state.coach?.controls ?? []));
  return bar;
}

/** The hand's lowest trump (what a swap gives for the face-up trump, V8), if any. */
function lowestTrump(game: Game): string | null {
  const trumps = (game.hand ?? []).filter((c) => suitOf(c) === game.trump);
  return trumps.sort((a, b) => rankIndex(a) - rankIndex(b))[0] ?? null;
}

const AI_LEVELS: AiLevel[] = ["easy", "normal", "hard"];

/** A second, smaller line on a button: how long its choice holds. */
function noted(button: Element | null, note: string): void {
  button?.append(h("span", { class: "note" }, note));
}

/** A row of buttons for lobby operations: [label, op, extra, enabled, kind] each. */
function opBar(entries: [string, LobbyOpName, LobbyExtra, boolean, string][], state: ViewState, handlers: ViewHandlers): HTMLElement | null {
  if (entries.length === 0) return null;
  const bar = h("div", { class: "ops" });
  for (const [label, op, extra, enabled, kind] of entries) {
    const b = h("button", { type: "button", class: `act ${kind}`, "data-key": `l:${op}:${extra.level ?? ""}`, disabled: state.pending || !enabled }, label);
    b.addEventListener("click", () => handlers.lobby(op, extra));
    bar.append(b);
  }
  return bar;
}

function isHost(table: Table): boolean {
  return table.you !== null && table.players[table.you]?.user_id === table.host;
}

/** The lobby's buttons, as the chat's lobby message offers them to this user. */
function lobbyOps(table: Table, state: ViewState, handlers: ViewHandlers): HTMLElement | null {
  if (table.status !== "lobby") return null;
  const seated = table.you !== null;
  const host = isHost(table);
  const full = table.players.length >= table.max_seats;
  const entries: [string, LobbyOpName, LobbyExtra, boolean, string][] = [];
  if (!seated) entries.push([tr("btn.join"), "join", {}, !full, "join"]);
  else if (!host) entries.push([tr("btn.leave"), "leave", {}, true, "leave"]);
  if (seated && (host || table.anyone_adds_ai)) {
    for (const level of AI_LEVELS) entries.push([tr("btn.add_ai", { level: tr(`level.${level}`) }), "add_ai", { level }, !full, "ai"]);
    if (table.players.some((p) => p.ai)) entries.push([tr("btn.remove_ai"), "remove_ai", {}, true, "ai"]);
  }
  if (host) {
    const open = !!table.anyone_adds_ai;
    entries.push([tr(open ? "btn.ai_host" : "btn.ai_open"), open ? "ai_host" : "ai_open", {}, true, "option"]);
    entries.push([tr("btn.start"), "start", {}, table.players.length >= 2, "start"]);
  }
  return opBar(entries, state, handlers);
}

/** A seat nobody has taken yet. */
function emptySeat(): HTMLElement {
  return h(
    "li",
    { class: "seat empty" },
    h("div", { class: "avatar", "aria-hidden": "true" }),
    h("div", { class: "who" }, h("div", { class: "name" }, tr("activity.empty_seat"))),
  );
}

/** The lobby: every seat (the empty ones too), the table's rules and timer, what this user may
 * do; the hint to press Join only for someone who has not. */
function lobbyScreen(table: Table, state: ViewState, handlers: ViewHandlers): HTMLElement {
  const seated = table.you !== null;
  const text = seated ? tr("lobby.title") : `${tr("lobby.title")} — ${tr("lobby.hint")}`;
  const open = table.status === "lobby" ? Math.max(0, table.max_seats - table.players.length) : 0;
  const seats = h("ul", { class: "seats" }, ...table.players.map((_, i) => seatPlate(table, i)), ...Array.from({ length: open }, emptySeat));
  const count =
    table.status === "lobby"
      ? h("p", { class: "small" }, `${tr("lobby.seats", { n: table.players.length, max: table.max_seats })} · ${tr(table.anyone_adds_ai ? "lobby.ai_anyone" : "lobby.ai_host_only")}`)
      : null;
  const rules = table.rules?.length ? h("p", { class: "rules" }, h("b", {}, `${tr("lobby.rules")}: `), table.rules.join(" · ")) : null;
  let invite: HTMLElement | null = null;
  if (table.status === "lobby" && handlers.invite) {
    invite = h("button", { type: "button", class: "act invite", "data-key": "i:invite" }, tr("activity.invite"));
    const opened = handlers.invite;
    invite.addEventListener("click", () => opened());
  }
  const ops = lobbyOps(table, state, handlers);
  return h("section", { class: "lobby" }, h("p", { class: "status", role: "status" }, text), seats, count, rules, ops, invite && h("div", { class: "invite-bar" }, invite));
}

/** In a game: "done for this bout" (or taking it back), taking a seat back from the AI, and,
 * once the game is over, the rematch. */
function gameOps(table: Table, game: Game, state: ViewState, handlers: ViewHandlers): HTMLElement | null {
  const you = table.you;
  if (you === null) return null;
  const entries: [string, LobbyOpName, LobbyExtra, boolean, string][] = [];
  const version = { version: table.version };
  if (table.status === "finished") {
    if (!table.tournament) entries.push([tr("btn.rematch"), "rematch", {}, true, "rematch"]);
  } else if (game.auto_pass) entries.push([tr("act.auto_pass_off"), "auto_pass_off", version, true, "auto-pass"]);
  else if (game.may_auto_pass) entries.push([tr("act.auto_pass"), "auto_pass_on", version, true, "auto-pass"]);
  const playing = table.players[you]?.playing;
  if (table.status === "running" && (playing === "away" || playing === "left")) entries.push([tr("btn.back"), "join", {}, true, "back"]);
  const bar = opBar(entries, state, handlers);
  if (game.may_auto_pass && !game.auto_pass) noted(bar?.querySelector(".auto-pass") ?? null, tr("activity.auto_pass_note"));
  return bar;
}

function handArea(game: Game, offers: Offers, state: ViewState, handlers: ViewHandlers): HTMLElement {
  const hand = handOrder(game.hand ?? [], game.trump);
  const sel = state.selection;
  // Dim the cards that cannot be played only when something can: a waiting hand stays bright.
  const idle = game.actions.length === 0;
  const fan = h("ul", { class: `hand${idle ? " idle" : ""}` });
  hand.forEach((card, i) => {
    const beatsTarget = sel.target ? offers.beats.get(card)?.get(sel.target) : undefined;
    const live = !state.pending && (sel.target ? beatsTarget !== undefined : playable(offers, card));
    const el = cardEl(card, { tag: "button", key: `h:${card}`, trump: game.trump, seen: state.seen });
    el.style.setProperty("--i", String(i - (hand.length - 1) / 2));
    if (live) el.classList.add("playable");
    else {
      el.setAttribute("aria-disabled", "true");
      el.tabIndex = -1; // Tab visits only the cards that can be played
    }
    if (sel.card === card) el.classList.add("selected");
    if (live && !sel.target) draggable(el, card, offers, handlers.act);
    el.addEventListener("click", () => {
      if (draggedJustNow() || !live) return;
      if (beatsTarget !== undefined) return handlers.act(beatsTarget);
      const targets = offers.beats.get(card);
      // the picked card again: it beats the pre-chosen target (the highlighted ones stay offered)
      const preferred = sel.card === card ? preferredTarget(offers, card, rankIndex) : null;
      if (preferred !== null && targets?.get(preferred) !== undefined) return handlers.act(targets.get(preferred) as number);
      if (targets && (targets.size > 1 || offers.plays.has(card))) {
        return handlers.select({ card: sel.card === card ? null : card, target: null });
      }
      const only = targets ? [...targets.values()][0] : offers.plays.get(card)?.[0];
      if (only !== undefined) handlers.act(only);
    });
    fan.append(h("li", {}, el));
  });
  return fan;
}

/** Whether `/durak new` may open a table over this one: a finished game, not a tournament's. */
function mayOpen(table: Table): boolean {
  return table.status === "finished" && !table.tournament;
}

/** The game's own buttons, and after a finished game "New table" beside the rematch. */
function afterGameOps(table: Table, game: Game, state: ViewState, handlers: ViewHandlers): HTMLElement | null {
  const bar = gameOps(table, game, state, handlers);
  if (!mayOpen(table)) return bar;
  const b = h("button", { type: "button", class: "act new-table", "data-key": "o:new", disabled: state.pending }, tr("activity.open_new"));
  b.addEventListener("click", () => handlers.opening(true));
  const ops = bar ?? h("div", { class: "ops" });
  ops.append(b);
  return ops;
}

/** The game the page shows now, and your seat in it: where the next drawing's cards come from. */
let drawnGame: Game | null = null;
let drawnYou: number | null = null;

export function render(root: HTMLElement, state: ViewState, handlers: ViewHandlers): void {
  const focused = (document.activeElement as HTMLElement | null)?.dataset?.key;
  const table = state.table;
  const children: Child[] = [];
  let mode = "waiting";
  if (state.reconnecting) children.push(h("div", { class: "banner", role: "status" }, tr("activity.reconnecting")));
  if (!table || table.status === "abandoned" || (state.opening && mayOpen(table))) {
    const afterGame = table?.status === "finished";
    const title = afterGame ? tr("activity.open_new") : table ? `${tr("lobby.cancelled")} ${tr("activity.open_title")}` : tr("activity.open_title");
    const form = openForm(title, state, handlers, afterGame);
    children.push(form);
    if (state.coach?.entry) form.querySelector(".open-form .ops")?.append(state.coach.entry);
    mode = "opening";
  } else if (!table.game) {
    children.push(lobbyScreen(table, state, handlers));
    const lobby = children[children.length - 1] as HTMLElement;
    // the daily puzzle beside Invite (the lobby's row for what is not a seat's operation)
    if (state.coach?.entry) (lobby.querySelector(".invite-bar") ?? lobby.appendChild(h("div", { class: "invite-bar" }))).append(state.coach.entry);
  } else if (table.status === "finished" && table.game.finished) {
    const game = table.game;
    children.push(
      resultsScreen(table, game, {
        status: statusLine(table, game, state),
        ops: afterGameOps(table, game, state, handlers),
        role: (seat) => roleOf(game, seat),
        coach: state.coach?.results ?? null,
      }),
    );
    mode = "results";
  } else {
    const game = table.game;
    const offers = readOffers(game.actions);
    const you = table.you;
    mode = you === null ? "spectating" : "seated";
    children.push(
      h("ul", { class: "seats", "aria-label": tr("table.players") }, ...seatOrder(table).map((s) => seatPlate(table, s))),
      h("section", { class: "felt" }, deckArea(game), boutArea(game, offers, state, handlers)),
      statusEl(table, game, state),
      controls(game, offers, state, handlers),
      state.coach?.ops ?? afterGameOps(table, game, state, handlers),
      table.status === "finished" && table.you !== null && !table.tournament && h("p", { class: "small" }, tr("table.rematch_hint")),
      state.coach?.note,
    );
    if (you !== null) {
      children.push(h("section", { class: "mine" + (game.awaiting.includes(you) && !game.finished ? " turn" : "") }, h("ul", { class: "me" }, seatPlate(table, you)), handArea(game, offers, state, handlers)));
    }
  }
  if (state.notice) children.push(h("div", { class: "notice", role: "status" }, state.notice));
  if (state.toast) children.push(h("div", { class: "toast", role: "alert" }, state.toast));
  if (state.coach?.overlay) children.push(state.coach.overlay);
  root.className = mode;
  // For tests and debugging: which table version is drawn, and whether a move is on its way.
  root.dataset.version = table ? String(table.version) : "";
  root.dataset.status = table?.status ?? "";
  root.dataset.pending = String(state.pending);
  const before = positions(root, drawnGame, drawnYou);
  root.replaceChildren(...children.filter((c): c is Node | string => !!c));
  layoutHand(root);
  fitBout(root);
  animateMoves(root, before, table?.game ?? null);
  drawnGame = table?.game ?? null;
  drawnYou = table?.you ?? null;
  if (focused) root.querySelector<HTMLElement>(`[data-key="${CSS.escape(focused)}"]`)?.focus();
}
