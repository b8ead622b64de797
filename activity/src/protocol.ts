// The JSON frames of protocol v1 (docs/activity.md, "Protocol"; bot/activity/protocol.py and
// table_frames.py). Fields this client does not know are ignored, as the protocol asks.

export const PROTOCOL_VERSION = 1;

export interface Player {
  name: string;
  user_id: string | null;
  ai: string | null;
  playing: "human" | "ai" | "away" | "left";
  /** The Discord avatar hash of a human seat (null: none, or an AI); see avatars.ts. */
  avatar?: string | null;
}

export interface ActionOffer {
  code: number;
  /** The engine's notation (`attack 10D`, `defend 9S 10S`, `take`, `pass`, `transfer 9D`, `show 9H`). */
  text: string;
}

export interface GameResult {
  finishing_order: number[];
  durak: number | null;
  losers: number[];
  winners: number[];
}

/** A move the turn timer made for a seat whose time ran out (the public log's "(timer)"). */
export interface Timeout {
  /** Its place in the game's public log: a later one has a higher number. */
  at: number;
  seat: number;
  /** The engine's notation: `take`, `pass`, `attack 6S`. */
  action: string;
}

export interface SeriesScore {
  games: number;
  draws: number;
  wins: number[];
  losses: number[];
  over: boolean;
}

/** A seat's guild rating (the leaderboard's, to one decimal) before and after the game. */
export interface RatingChange {
  before: number;
  after: number;
  delta: number;
}

export interface Game {
  seats: number;
  teams?: number[];
  trump_will_change?: boolean;
  discarded?: string[];
  known?: string[][];
  bout?: number;
  limit?: number;
  trump: string | null;
  trump_card: string;
  trump_in_talon: boolean;
  talon_size: number;
  discard_size: number;
  hand_sizes: number[];
  table: [string, string | null][];
  attacker: number;
  defender: number;
  attackers: number[];
  taken: boolean;
  passed: number[];
  active: number[];
  finishing_order: number[];
  awaiting: number[];
  finished: boolean;
  result: GameResult | null;
  hand: string[] | null;
  actions: ActionOffer[];
  /** "Done for this bout": set for your seat, and whether you may set it now. */
  auto_pass?: boolean;
  may_auto_pass?: boolean;
  /** The turn timer: the bot's deadline (Unix seconds), the seconds left as the frame was
   * built (what the client counts down from), the seats it would play for. */
  deadline?: number | null;
  deadline_in?: number | null;
  timed?: number[];
  timeouts?: Timeout[];
  /** R4: the shuffle's commitment, and its seed once the game is over; the series score. */
  commitment?: string | null;
  /** The finished game's id, as `/durak verify` takes it. */
  game_id?: string | null;
  seed?: string | null;
  series?: SeriesScore | null;
  /** Once the game is over and recorded: each seat's rating change (null for an AI seat);
   * null while it is not known. */
  ratings?: (RatingChange | null)[] | null;
}

export interface Table {
  id: string;
  status: "lobby" | "running" | "finished" | "abandoned";
  version: number;
  language: string;
  host: string;
  max_seats: number;
  /** Whether every seated player (not only the host) may add and remove AI seats. */
  anyone_adds_ai?: boolean;
  /** A practice table (hints in the chat hand; games unrated). */
  practice?: boolean;
  /** A tournament's table: the bot deals the match's next game itself (no rematch). */
  tournament?: boolean;
  /** Seconds per turn (0: no timer), and the lobby message's rules and timer lines. */
  turn_timer?: number;
  rules?: string[];
  you: number | null;
  players: Player[];
  game: Game | null;
}

export interface WelcomeFrame {
  v: 1;
  type: "welcome";
  user_id: string;
  channel_id: string;
  instance_id: string;
  resume: string;
  resume_expires_in: number;
  /** Catalogue templates in the user's language, by key (bot/activity/client_texts.py). */
  texts?: Record<string, string>;
  /** The choices of the form that opens a table (what the server's `open` frame accepts). */
  new_table?: NewTableChoices;
  /** The kinds of move (durak_core/move_kinds.py): how to read and show an offer of each. */
  moves?: MoveKind[];
}

/** One kind of move, as the client reads an offer whose notation starts with its `verb`. */
export interface MoveKind {
  verb: string;
  /** A hand card plays it (the card named last in its notation). */
  spends_card: boolean;
  /** It is aimed at an open card, named first in its notation (a defence). */
  aims: boolean;
  /** The catalogue key of its button in the controls; null: only its hand card plays it. */
  label: string | null;
  style: "primary" | "success" | "danger" | "secondary";
  /** What `{card}` in its label is when the offer names no card: the hand's lowest trump. */
  label_card: "" | "lowest_trump";
}

export interface NewTableChoices {
  presets: string[];
  languages: string[];
  /** [fewest, most] */
  seats: [number, number];
  /** The server's default turn timer, and the longest allowed (seconds). */
  timer: number;
  max_timer: number;
  /** `/durak new`'s rule options (durak_core.rules.OPTIONS): a yes/no, or one of `choices`. */
  rules?: RuleOptionChoice[];
}

export interface RuleOptionChoice {
  name: string;
  rule: string;
  choices: number[];
}

export interface TableFrame {
  v: 1;
  type: "table";
  table: Table | null;
}

export interface ErrorFrame {
  v: 1;
  type: "error";
  reason: string;
  text: string;
  ref: string | null;
}

/** The coach's answers (bot/coach/commands/activity_coach.py): the review's progress and the review, a
 * practice table's hint, the daily puzzle's board (null: closed). Their words are the server's,
 * in the user's language, with the chat's `**bold**`. */
export interface ReviewSection {
  name: string;
  text: string;
}

export interface ReviewMessage {
  kind: "review";
  game_id: string;
  title: string;
  summary: string[];
  sections: ReviewSection[];
  footer: string;
  /** The chat's chart, as a PNG data URL (null: no decision to chart). */
  chart: string | null;
  chart_alt: string;
}

export interface PuzzleBoard {
  number: number;
  /** Moves played so far: a move is sent with it, so that an earlier board's is refused. */
  ply: number;
  status: "playing" | "solved" | "failed";
  /** Once it is over: solved, or where it went wrong (also among the lines). */
  verdict: string | null;
  lines: string[];
  /** The position as a two-seat table (you are seat 0, the solver seat 1). */
  table: Table;
}

export type CoachFrame = { v: 1; type: "coach" } & (
  | { kind: "review_progress"; text: string }
  | ReviewMessage
  | { kind: "hint"; table: string; version: number; text: string }
  | { kind: "puzzle"; puzzle: PuzzleBoard | null }
);

export type ServerFrame = WelcomeFrame | TableFrame | ErrorFrame | CoachFrame;

export function parseServerFrame(data: string): ServerFrame | null {
  let frame: unknown;
  try {
    frame = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof frame !== "object" || frame === null) return null;
  const f = frame as { v?: unknown; type?: unknown };
  if (f.v !== PROTOCOL_VERSION) return null;
  if (f.type === "welcome" || f.type === "table" || f.type === "error" || f.type === "coach") return frame as ServerFrame;
  return null;
}

export function helloFrame(token: string): string {
  return JSON.stringify({ v: PROTOCOL_VERSION, type: "hello", token });
}

export function actFrame(code: number, version: number, ref: string): string {
  return JSON.stringify({ v: PROTOCOL_VERSION, type: "act", code, version, ref });
}

/** The lobby operations (and "done for this bout"), each a chat button's counterpart. */
export type LobbyOpName =
  | "join"
  | "leave"
  | "add_ai"
  | "remove_ai"
  | "ai_open"
  | "ai_host"
  | "start"
  | "rematch"
  | "auto_pass_on"
  | "auto_pass_off";
export type AiLevel = "easy" | "normal" | "hard";

export interface LobbyExtra {
  /** For add_ai only. */
  level?: AiLevel;
  /** For auto_pass_on/off: the table version the choice was made at. */
  version?: number;
}

/** `/durak new`'s main options; the server checks each (bot/activity/protocol.py, OpenTable). */
export interface OpenOptions {
  preset: string;
  seats: number;
  timer: number;
  ai_seats: number;
  ai_level: AiLevel;
  /** null: the server's language. */
  language: string | null;
  /** The rule options set; one not here is the preset's. */
  rules: Record<string, boolean | number>;
}

export function openFrame(options: OpenOptions, ref: string): string {
  return JSON.stringify({ v: PROTOCOL_VERSION, type: "open", ...options, ref });
}

export function lobbyFrame(op: LobbyOpName, ref: string, extra: LobbyExtra = {}): string {
  return JSON.stringify({ v: PROTOCOL_VERSION, type: "lobby", op, ...extra, ref });
}

export type CoachOpName = "review" | "hint" | "puzzle" | "puzzle_move" | "puzzle_close";

/** `version`: for hint; `code` and `ply`: for puzzle_move. */
export interface CoachExtra {
  version?: number;
  code?: number;
  ply?: number;
}

export function coachFrame(op: CoachOpName, ref: string, extra: CoachExtra = {}): string {
  return JSON.stringify({ v: PROTOCOL_VERSION, type: "coach", op, ...extra, ref });
}
