// The turn timer's countdown. A table frame says how many seconds were left as the server
// built it (`deadline_in`); the client counts down from the moment it arrived with its own
// monotonic clock, so a phone whose wall clock is off still shows the right time.

let endsAt: number | null = null;
let total = 0;

/** A table frame arrived: its seconds left (null: no timer running) and the table's timer. */
export function setDeadline(left: number | null | undefined, turnTimer: number | undefined): void {
  endsAt = left === null || left === undefined ? null : performance.now() + left * 1000;
  total = Math.max(turnTimer ?? 0, left ?? 0);
}

/** Whole seconds left (rounded up, so 0 shows only once the time is up), or null. */
export function secondsLeft(now = performance.now()): number | null {
  return endsAt === null ? null : Math.max(0, Math.ceil((endsAt - now) / 1000));
}

export function clockText(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${m}:${String(s).padStart(2, "0")}`;
}

/** A countdown element; `tickClocks` keeps every one of them current. */
export function clockEl(kind: "seat" | "status"): HTMLElement {
  const el = document.createElement("span");
  el.className = `clock ${kind}-clock`;
  el.dataset.clock = kind;
  el.setAttribute("role", "timer");
  paint(el, performance.now());
  return el;
}

function paint(el: HTMLElement, now: number): void {
  const left = secondsLeft(now);
  if (left === null) return;
  const text = el.dataset.clock === "status" ? `⏱ ${clockText(left)}` : clockText(left);
  if (el.textContent !== text) el.textContent = text;
  el.classList.toggle("low", left <= 10);
  const fraction = endsAt === null || total <= 0 ? 0 : Math.max(0, Math.min(1, (endsAt - now) / (total * 1000)));
  el.style.setProperty("--left", fraction.toFixed(3));
}

export function tickClocks(root: ParentNode): void {
  const now = performance.now();
  for (const el of root.querySelectorAll<HTMLElement>("[data-clock]")) paint(el, now);
}
