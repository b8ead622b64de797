// Discord's handshake and sign-in (docs/activity.md, "Sign-in and the security model"):
// ready → authorize (identify) → POST /api/token {code, instance_id} → authenticate.
// The server trusts none of it: it exchanges the code itself and checks the instance.

import { DiscordSDK } from "@discord/embedded-app-sdk";

export class SignInError extends Error {
  /** The server's catalogue key (`err.activity_auth`, ...), or "" when it gave none. */
  constructor(message: string, readonly reason: string) {
    super(message);
  }
}

/** The application's client id: filled into the page by the bot's server when it serves it
 * (a build-time `VITE_DISCORD_CLIENT_ID` is the fallback for `npm run dev`). */
export function clientId(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="discord-client-id"]');
  return meta?.content || (import.meta.env.VITE_DISCORD_CLIENT_ID as string | undefined) || "";
}

/** The server's `path` for this Activity's guild: `shard/<n>/<path>` when the bot runs as
 * several processes (the page says how many shards), which the URL mappings route to the
 * process of the guild's shard, Discord's `(guild_id >> 22) % shards` (a DM: shard 0). The
 * server refuses a sign-in meant for another process's guild (docs/activity.md, "Sharding"). */
export function serverUrl(path: string): URL {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="durak-shards"]');
  const shards = Number(meta?.content || "1");
  if (!Number.isInteger(shards) || shards <= 1) return new URL(path, document.baseURI);
  const guild = new URLSearchParams(window.location.search).get("guild_id") ?? "";
  const id = /^\d{1,20}$/.test(guild) ? BigInt(guild) : 0n;
  return new URL(`shard/${(id >> 22n) % BigInt(shards)}/${path}`, document.baseURI);
}

export async function startSdk(id: string): Promise<DiscordSDK> {
  // disableConsoleLogOverride: the SDK would otherwise forward console output to Discord.
  const sdk = new DiscordSDK(id, { disableConsoleLogOverride: true });
  await sdk.ready();
  return sdk;
}

/** A fresh session token for the WebSocket. `prompt: 'none'`: after the first consent,
 * signing in again (a restart, an expired token) needs no click. */
export async function signIn(sdk: DiscordSDK, id: string): Promise<string> {
  const { code } = await sdk.commands.authorize({
    client_id: id,
    response_type: "code",
    state: "",
    prompt: "none",
    // identify: who the user is (the server asks Discord); rpc.activities.write: Rich Presence
    scope: ["identify", "rpc.activities.write"],
  });
  const response = await fetch(serverUrl("api/token"), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, instance_id: sdk.instanceId }),
  });
  const body = (await response.json().catch(() => ({}))) as {
    access_token?: string;
    session?: string;
    error?: string;
    message?: string;
  };
  if (!response.ok || !body.access_token || !body.session) {
    throw new SignInError(body.message ?? "", body.error ?? "");
  }
  await sdk.commands.authenticate({ access_token: body.access_token });
  return body.session;
}
