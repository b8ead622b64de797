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

/** Rich Presence's scope: the SDK's `setActivity` needs it ("Required scopes:
 * [rpc.activities.write]" in @discord/embedded-app-sdk 2.5.0, commands/setActivity; Discord's
 * guide "Using Rich Presence with the Embedded App SDK", section "rpc.activities.write Scope",
 * asks for it in `authorize` beside `identify`). Discord's OAuth2 scope table also calls it
 * "requires Discord approval" (for the desktop RPC server), so an application may be refused
 * it: then the sign-in goes on with `identify` alone and the table shows no presence, rather
 * than the Activity failing to sign in at all (docs/activity.md, "Rich Presence"). */
const PRESENCE_SCOPE = "rpc.activities.write";

/** The scopes asked for, the same at every sign-in of this page: with `prompt: 'none'`
 * Discord skips its consent screen only when the user already authorized exactly these
 * scopes ("If set to none, it will skip the authorization screen", discord-api-docs,
 * topics/oauth2 "Authorization Code Grant"), so a silent sign-in again (a restart, an expired
 * token) asks nothing new: the scope set changes at most once, when the presence scope is
 * refused, and then only to fewer scopes. */
let scopes: ("identify" | typeof PRESENCE_SCOPE)[] = ["identify", PRESENCE_SCOPE];
let granted: string[] = [];

/** Whether the signed-in user granted Rich Presence (`setActivity` is refused without it). */
export function presenceGranted(): boolean {
  return granted.includes(PRESENCE_SCOPE);
}

/** An OAuth2 error that names the scope (Discord answers `invalid_scope` for a scope the
 * application may not ask for); a user who declines the consent is not asked again here. */
function scopeRefused(error: unknown): boolean {
  const message = typeof error === "object" && error !== null ? (error as { message?: unknown }).message : undefined;
  return typeof message === "string" && message.includes("invalid_scope");
}

async function authorizeCode(sdk: DiscordSDK, id: string): Promise<string> {
  const ask = () => sdk.commands.authorize({ client_id: id, response_type: "code", state: "", prompt: "none", scope: scopes });
  try {
    return (await ask()).code;
  } catch (error) {
    if (!scopes.includes(PRESENCE_SCOPE) || !scopeRefused(error)) throw error;
    console.warn("rich presence scope refused; signing in without it", error);
    scopes = ["identify"];
    return (await ask()).code;
  }
}

/** A fresh session token for the WebSocket. `prompt: 'none'`: after the first consent,
 * signing in again (a restart, an expired token) needs no click. */
export async function signIn(sdk: DiscordSDK, id: string): Promise<string> {
  const code = await authorizeCode(sdk, id);
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
  const auth = await sdk.commands.authenticate({ access_token: body.access_token });
  granted = auth.scopes.map(String);
  return body.session;
}
