// The JSON frames of protocol v1 (docs/activity.md, "Protocol"; bot/activity/protocol.py and
// table_frames.py). Fields this client does not know are ignored, as the protocol asks.

export const PROTOCOL_VERSION = 1;

export interface Player {
  name: string;
  user_id: string | null;
  ai: string | null;
  playing: "human" | "ai" | "away" | "left";
}

export interface ActionOffer {
  code: number;
  /** The engine's notation (`attack 10D`, `defend 9S 10S`, `take`, `pass`, `transfer 9D`). */
  text: string;
}

export interface GameResult {
  finishing_order: number[];
  durak: number | null;
  losers: number[];
  winners: number[];
}

export interface Game {
  seats: number;
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
}

export interface Table {
  id: string;
  status: "lobby" | "running" | "finished" | "abandoned";
  version: number;
  language: string;
  host: string;
  max_seats: number;
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

export type ServerFrame = WelcomeFrame | TableFrame | ErrorFrame;

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
  if (f.type === "welcome" || f.type === "table" || f.type === "error") return frame as ServerFrame;
  return null;
}

export function helloFrame(token: string): string {
  return JSON.stringify({ v: PROTOCOL_VERSION, type: "hello", token });
}

export function actFrame(code: number, version: number, ref: string): string {
  return JSON.stringify({ v: PROTOCOL_VERSION, type: "act", code, version, ref });
}
