// One WebSocket to the table, kept open: a dropped socket reconnects with the welcome's
// single-use resume token; a refused token (a restarted server, an expired token) signs in
// again through Discord, silently. A socket the server ended for good (the user left the
// instance, a newer window replaced this one, the instance is full) is not reopened. A move
// is kept until it is answered: one whose socket closed first goes again on the next socket
// if the table is still where it was chosen (docs/activity.md, "Client").

import { serverUrl } from "./auth";
import {
  actFrame,
  coachFrame,
  helloFrame,
  lobbyFrame,
  openFrame,
  parseServerFrame,
  type CoachExtra,
  type CoachOpName,
  type LobbyExtra,
  type LobbyOpName,
  type OpenOptions,
  type ServerFrame,
  type Table,
} from "./protocol";

export interface ConnectionEvents {
  frame(frame: ServerFrame): void;
  /** true while the socket is down and being reopened. */
  reconnecting(down: boolean): void;
  /** The server ended the socket for good; `text`: its last error frame's, if any. */
  stopped(text: string): void;
}

const CLOSE_UNAUTHORIZED = 4001;
/** Not in the instance any more, replaced by a newer window, the instance full
 * (docs/activity.md, "Limits"): reopening would only be refused again, or push out the newer
 * window in turn. */
const CLOSE_FINAL = new Set([4003, 4004, 4005]);

export class Connection {
  private ws: WebSocket | null = null;
  private token: string | null;
  private retries = 0;
  private refs = 0;
  /** A lobby operation or an opening asked for while the socket was down: sent once it is
   * back (the server checks it against the table as it is then). */
  private queued: string | null = null;
  /** The move sent last and not answered yet (by a table frame of another version, or an
   * error frame), and the socket it went on (null: none yet, the socket was down). */
  private move: { frame: string; ref: string; table: string; version: number; on: WebSocket | null } | null = null;
  /** The text of the last error frame, shown when the server ends the socket for good. */
  private lastError = "";

  constructor(
    session: string,
    private readonly freshSession: () => Promise<string>,
    private readonly events: ConnectionEvents,
  ) {
    this.token = session;
  }

  open(): void {
    const url = serverUrl("ws");
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(url);
    this.ws = ws;
    const token = this.token;
    this.token = null; // single use either way
    ws.onopen = () => ws.send(helloFrame(token ?? ""));
    ws.onmessage = (event: MessageEvent<string>) => {
      const frame = parseServerFrame(event.data);
      if (!frame) return;
      if (frame.type === "error") {
        this.lastError = frame.text;
        if (!frame.ref || frame.ref === this.move?.ref) this.move = null; // refused
      }
      if (frame.type === "welcome") {
        this.token = frame.resume;
        this.retries = 0;
        this.events.reconnecting(false);
      }
      if (frame.type === "table" && ws === this.ws) this.settle(ws, frame.table);
      this.events.frame(frame);
      if (frame.type === "welcome" && this.queued !== null) {
        ws.send(this.queued);
        this.queued = null;
      }
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (CLOSE_FINAL.has(event.code)) {
        this.events.stopped(this.lastError);
        return;
      }
      this.events.reconnecting(true);
      const unauthorized = event.code === CLOSE_UNAUTHORIZED || this.token === null;
      const delay = Math.min(10_000, 500 * 2 ** this.retries++);
      window.setTimeout(() => void this.reopen(unauthorized), delay);
    };
  }

  private async reopen(signInAgain: boolean): Promise<void> {
    if (signInAgain) {
      try {
        this.token = await this.freshSession();
      } catch {
        const delay = Math.min(10_000, 500 * 2 ** this.retries++);
        window.setTimeout(() => void this.reopen(true), delay);
        return;
      }
    }
    this.open();
  }

  /** Whether a move is on its way: sent (or to be sent once the socket is back) and not
   * answered yet. */
  get waiting(): boolean {
    return this.move !== null;
  }

  /** Sends a move chosen at ``version`` of table ``table``, now or once the socket is back;
   * returns its ref (echoed by an error frame). */
  act(code: number, version: number, table: string): string {
    const ref = `a${++this.refs}`;
    const frame = actFrame(code, version, ref);
    const ws = this.ws && this.ws.readyState === WebSocket.OPEN ? this.ws : null;
    this.move = { frame, ref, table, version, on: ws };
    ws?.send(frame);
    return ref;
  }

  /** A table frame on the live socket ``ws``: the move on its way is answered once the table
   * is at another version (or another table); while it is still at the move's, a move that
   * did not go on this socket (its socket closed before the answer, or none was open) goes
   * now. The server checks it against the table's version as always, so it counts once. */
  private settle(ws: WebSocket, table: Table | null): void {
    const move = this.move;
    if (move === null) return;
    if (table === null || table.id !== move.table || table.version !== move.version) {
      this.move = null;
    } else if (move.on !== ws) {
      move.on = ws;
      ws.send(move.frame);
    }
  }

  /** A lobby operation (or "done for this bout"), sent or kept like an action. */
  lobby(op: LobbyOpName, extra: LobbyExtra = {}): string {
    const ref = `l${++this.refs}`;
    this.send(lobbyFrame(op, ref, extra));
    return ref;
  }

  /** Open a table in this channel (`/durak new`), sent or kept like an action. */
  openTable(options: OpenOptions): string {
    const ref = `o${++this.refs}`;
    this.send(openFrame(options, ref));
    return ref;
  }

  /** A coach request (the review, a hint, the daily puzzle), sent or kept like an action. */
  coach(op: CoachOpName, extra: CoachExtra = {}): string {
    const ref = `c${++this.refs}`;
    this.send(coachFrame(op, ref, extra));
    return ref;
  }

  private send(frame: string): void {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(frame);
    else this.queued = frame;
  }
}
