// Plays Discord's parent frame for the Activity, over postMessage, as
// /work/shared/DISCORD_ACTIVITY_FACTS.md §2 (and the SDK's own tests) describe: no
// DiscordSDKMock, the real SDK path. Served from the client's own origin (the SDK accepts
// messages from its own location.origin).
//
//   /harness/?scenario=seat-defend[&shot=1][&platform=mobile][&deny=rpc.activities.write]
//
// `scenario` becomes the instance id; the harness server (serve.py) answers POST /api/token
// and the WebSocket with that scenario's recorded frames. `shot=1` hides the log (screenshots).
// Everything exchanged is kept in `window.harness.messages` for tests.
//
// Against the bot's real server (scripts/live_check.py): `client=<its origin>` loads the client
// from there, and AUTHORIZE answers a code from `GET /harness/code?user=<user>` on this page's
// own server, which asks the fake Discord for it. The page must then be served from
// http://localhost:3333, the one non-Discord parent origin the SDK accepts messages from.

const HANDSHAKE = 0, FRAME = 1;
const params = new URLSearchParams(location.search);
const scenario = params.get("scenario") ?? "seat-defend";
const platform = params.get("platform") ?? "desktop";
const client = params.get("client") ?? location.origin;
const clientOrigin = new URL(client).origin;
const user = params.get("user");
if (params.get("shot")) document.body.classList.add("shot");

const iframe = document.getElementById("activity");
const logEl = document.getElementById("log");
const harness = (window.harness = { messages: [], commands: [], authorized: [], ready: false });
// `deny=<scope>`: Discord refuses that scope to this application (an OAuth2 invalid_scope
// error, as it answers a scope that needs its approval), e.g. `deny=rpc.activities.write`.
const denied = params.getAll("deny");
let grantedScopes = ["identify"];

const USER = { id: user ?? "101", username: "olga", discriminator: "0", avatar: null, public_flags: 0, global_name: "Olga" };

function log(direction, message) {
  harness.messages.push({ direction, message });
  logEl.textContent += `${direction} ${JSON.stringify(message)}\n`;
}

function send(message) {
  log("→", message);
  iframe.contentWindow.postMessage(message, clientOrigin);
}

/** An OAuth2 failure, answered with Discord's RPC error code for it (5000). */
class OAuthError extends Error {}

// Replies must match the SDK's response schemas exactly, or the command never settles.
async function reply(cmd, args, clientId) {
  switch (cmd) {
    case "AUTHORIZE":
      harness.authorized.push(args.scope ?? []);
      if ((args.scope ?? []).some((scope) => denied.includes(scope))) {
        throw new OAuthError("OAuth2 Error: invalid_scope: The requested scope is invalid, unknown, or malformed.");
      }
      grantedScopes = args.scope ?? ["identify"];
      if (user) {
        const answer = await fetch(`/harness/code?user=${user}`);
        if (!answer.ok) throw new Error(`no code: ${answer.status}`);
        return { code: await answer.text() };
      }
      return { code: `harness-code-${scenario}` };
    case "AUTHENTICATE":
      return {
        access_token: args.access_token,
        user: USER,
        scopes: grantedScopes,
        expires: new Date(Date.now() + 604800e3).toISOString(),
        application: { description: "", icon: null, id: clientId, name: "Durak" },
      };
    case "SUBSCRIBE":
    case "UNSUBSCRIBE":
      return { evt: args.evt ?? null };
    case "CAPTURE_LOG":
    case "SET_CONFIG":
      return null;
    default:
      return undefined;
  }
}

let clientId = "";
// The listener first, then the iframe's src (facts §2, step 2).
window.addEventListener("message", async (event) => {
  if (event.source !== iframe.contentWindow) return;
  const [opcode, body] = event.data ?? [];
  log("←", event.data);
  if (opcode === HANDSHAKE) {
    clientId = body.client_id;
    harness.handshake = body;
    send([FRAME, { cmd: "DISPATCH", evt: "READY", nonce: null, data: { v: 1, config: { api_endpoint: "//discord.com/api", environment: "production" } } }]);
    harness.ready = true;
  } else if (opcode === FRAME) {
    harness.commands.push(body.cmd);
    let data;
    try {
      data = await reply(body.cmd, body.args ?? {}, clientId);
    } catch (error) {
      // e.g. no code while the bot that serves this page restarts: an error, as Discord
      // answers a failed command, so the client's promise settles and it tries again
      const data = error instanceof OAuthError ? { code: 5000, message: error.message } : { code: 1000, message: `harness: ${error}` };
      send([FRAME, { cmd: body.cmd, evt: "ERROR", nonce: body.nonce, data }]);
      return;
    }
    if (data === undefined) {
      send([FRAME, { cmd: body.cmd, evt: "ERROR", nonce: body.nonce, data: { code: 1000, message: `harness: ${body.cmd} is not played` } }]);
    } else {
      send([FRAME, { cmd: body.cmd, evt: null, nonce: body.nonce, data }]);
    }
  }
});

const query = new URLSearchParams({ frame_id: "harness-frame", instance_id: scenario, platform, guild_id: "1", channel_id: "2" });
iframe.src = `${client}/?${query}`;
