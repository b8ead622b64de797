// Rich Presence: what Discord shows under the user's name while they are at the table
// ("3 of 4 seats, bout 7"), through the SDK's setActivity (scope rpc.activities.write, asked
// at sign-in: auth.ts says why and what happens when it is refused). Sent only when the words
// change and the scope was granted; a refusal changes nothing at the table.

import type { DiscordSDK } from "@discord/embedded-app-sdk";
import { presenceGranted } from "./auth";
import type { Table } from "./protocol";
import { tr } from "./texts";

let shown = "";

/** The presence line for a table, or "" for none (no table, a finished or closed one). */
export function presenceLine(table: Table | null): string {
  if (!table) return "";
  const n = table.players.length;
  if (table.status === "lobby") return tr("activity.presence_lobby", { n, max: table.max_seats });
  if (table.status === "running" && table.game) return tr("activity.presence_game", { n, max: table.max_seats, bout: table.game.bout ?? 1 });
  return "";
}

export function updatePresence(sdk: DiscordSDK | null, table: Table | null): void {
  const line = presenceLine(table);
  if (!sdk || !line || line === shown || !presenceGranted()) return;
  shown = line;
  sdk.commands
    .setActivity({ activity: { type: 0, state: line, party: { size: [table?.players.length ?? 0, table?.max_seats ?? 0] } } })
    .catch((error: unknown) => console.warn("rich presence", error));
}
