// One WebSocket to the table, kept open: a dropped socket reconnects with the welcome's
// single-use resume token; a refused token (a restarted server, an expired token) signs in
// again through Discord, silently. A socket the server ended for good (the user left the
// instance, a newer window replaced this one, the instance is full) is not reopened.

import { serverUrl } from "./auth";
import {
  actFrame,
  helloFrame,
  lobbyFrame,
  openFrame,
  parseServerFrame,
  type LobbyExtra,
  type LobbyOpName,
  type OpenOptions,
  type ServerFrame,
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
  /** A move made while the socket was down: sent once it is back, so no click is lost (the
   * server still checks it against the table's version then). */
  private queued: string | null = null;
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
      if (frame.type === "error") this.lastError = frame.text;
      if (frame.type === "welcome") {
        this.token = frame.resume;
        this.retries = 0;
        this.events.reconnecting(false);
      }
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

  /** Sends an action, or keeps it for the next socket while offline (the latest one only);
   * returns its ref (echoed by an error frame). */
  act(code: number, version: number): string | null {
    const ref = `a${++this.refs}`;
    this.send(actFrame(code, version, ref));
    return ref;
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

  private send(frame: string): void {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(frame);
    else this.queued = frame;
  }
}
