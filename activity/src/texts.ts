// User-facing words come from the bot's catalogues (bot/text/catalogues/*.toml), sent by the
// server in the welcome frame in the user's language. Before the first welcome the client
// shows no words of its own (a spinner, or the server's own error message).

let templates: Record<string, string> = {};

export function setTexts(texts: Record<string, string> | undefined): void {
  if (texts) templates = texts;
}

/** The template for `key` with `{name}` placeholders filled; chat markdown (`**`, `` ` ``)
 * dropped. A key the server did not send yields "" so no key name ever shows. */
export function tr(key: string, params: Record<string, string | number> = {}): string {
  const template = templates[key] ?? "";
  return template
    .replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole))
    .replace(/\*\*|`/g, "");
}
