// Seat pictures: a human's Discord avatar, else their initial; "AI" on an AI seat.
//
// The frame carries the avatar hash beside the user id; the picture's URL is built here, as a
// path of the Activity's own origin: inside Discord only mapped prefixes are reachable (facts
// sheet §3), and the URL mapping `/cdn` → `cdn.discordapp.com` (docs/activity.md, "The URL
// mapping") routes it to Discord's CDN. The id and the hash are checked for their shapes, so
// a frame can never steer the path elsewhere.

import { h } from "./dom";
import type { Player } from "./protocol";

const USER_ID = /^\d{1,20}$/;
const HASH = /^(a_)?[0-9a-f]{32}$/;
/** Pictures that failed to load: their seats show initials from then on. */
const failed = new Set<string>();

export function avatarUrl(player: Player | undefined): string | null {
  const id = player?.user_id;
  const hash = player?.avatar;
  if (!id || !hash || !USER_ID.test(id) || !HASH.test(hash)) return null;
  return `cdn/avatars/${id}/${hash}.png?size=64`;
}

function initials(name: string): string {
  return (name.trim()[0] ?? "?").toUpperCase();
}

export function avatarEl(player: Player | undefined, name: string): HTMLElement {
  const box = h("div", { class: "avatar", "aria-hidden": "true" });
  if (player?.ai) {
    box.append("AI");
    return box;
  }
  const url = avatarUrl(player);
  if (url === null || failed.has(url)) {
    box.append(initials(name));
    return box;
  }
  const img = h("img", { src: url, alt: "", draggable: "false" });
  img.addEventListener("error", () => {
    failed.add(url);
    img.replaceWith(initials(name));
  });
  box.append(img);
  return box;
}
