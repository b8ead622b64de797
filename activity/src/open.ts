// The form that opens a table where there is none (or only a finished game): `/durak new`'s
// main options. The choices come from the welcome frame; the server checks every value again
// (bot/activity/protocol.py, OpenTable) and answers a refusal with the chat's message.

import { h } from "./dom";
import type { AiLevel, NewTableChoices, OpenOptions, RuleOptionChoice } from "./protocol";
import { tr } from "./texts";
import type { ViewHandlers, ViewState } from "./view";

const LEVELS: AiLevel[] = ["easy", "normal", "hard"];
/** Whether the user unfolded the rule options (the form is drawn again on some changes). */
let rulesShown = false;

export function defaultOptions(choices: NewTableChoices): OpenOptions {
  return {
    preset: choices.presets.includes("classic") ? "classic" : (choices.presets[0] ?? "classic"),
    // a table of four to begin with (/durak new's lobby has room for the most); within range
    seats: Math.min(Math.max(4, choices.seats[0]), choices.seats[1]),
    timer: choices.timer,
    ai_seats: 0,
    ai_level: "normal",
    language: null,
    rules: {},
  };
}

/** A rule option's select: the preset's value, on or off, or one of its choices. */
function ruleField(option: RuleOptionChoice, form: OpenOptions): HTMLElement {
  const values: [string, string][] = option.choices.length
    ? option.choices.map((n): [string, string] => [String(n), String(n)])
    : [["true", tr("activity.open_rule_on")], ["false", tr("activity.open_rule_off")]];
  const current = option.name in form.rules ? String(form.rules[option.name]) : "";
  const control = select(`rule-${option.name}`, [["", tr("activity.open_rule_preset")], ...values], current, (v) => {
    if (v === "") delete form.rules[option.name];
    else form.rules[option.name] = option.choices.length ? Number(v) : v === "true";
  });
  return field(`rule-${option.name}`, tr(`opt.${option.name}`) || option.name, control);
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
}

function select(name: string, options: [string, string][], value: string, onChange: (value: string) => void): HTMLElement {
  const el = h("select", { name, id: `f-${name}`, "data-key": `f:${name}` }) as HTMLSelectElement;
  for (const [v, label] of options) el.append(h("option", { value: v, selected: v === value }, label));
  el.addEventListener("change", () => onChange(el.value));
  return el;
}

function field(name: string, label: string, control: HTMLElement): HTMLElement {
  return h("div", { class: "field" }, h("label", { for: `f-${name}` }, label), control);
}

/** The form; `back`: it replaces a finished game, to which a button returns. */
export function openForm(title: string, state: ViewState, handlers: ViewHandlers, back = false): HTMLElement {
  const choices = state.choices;
  const section = h("section", { class: "lobby open-table" }, h("p", { class: "status", role: "status" }, title));
  if (!choices) return section; // a server without the form's choices: nothing to offer
  const form = (state.form ??= defaultOptions(choices));
  const [fewest, most] = choices.seats;
  const set = (change: Partial<OpenOptions>) => {
    Object.assign(form, change);
    form.ai_seats = Math.min(form.ai_seats, form.seats - 1);
  };
  const timer = h("input", {
    type: "number",
    name: "timer",
    id: "f-timer",
    "data-key": "f:timer",
    min: "0",
    max: String(choices.max_timer),
    inputmode: "numeric",
    value: String(form.timer),
  }) as HTMLInputElement;
  timer.addEventListener("change", () => set({ timer: Math.max(0, Math.min(choices.max_timer, Math.round(Number(timer.value) || 0))) }));
  const fields = h(
    "div",
    { class: "fields" },
    field("preset", tr("activity.open_rules"), select("preset", choices.presets.map((p) => [p, tr(`preset.${p}`) || p]), form.preset, (v) => set({ preset: v }))),
    field("seats", tr("activity.open_seats"), select("seats", range(fewest, most).map((n) => [String(n), String(n)]), String(form.seats), (v) => {
      set({ seats: Number(v) });
      handlers.formChanged();
    })),
    field("timer", tr("activity.open_timer"), timer),
    field("ai_seats", tr("activity.open_ai"), select("ai_seats", range(0, form.seats - 1).map((n) => [String(n), String(n)]), String(form.ai_seats), (v) => set({ ai_seats: Number(v) }))),
    field("ai_level", tr("activity.open_ai_level"), select("ai_level", LEVELS.map((l) => [l, tr(`level.${l}`)]), form.ai_level, (v) => set({ ai_level: v as AiLevel }))),
    field("language", tr("activity.open_language"), select("language", [["", tr("activity.open_language_server")], ...choices.languages.map((l): [string, string] => [l, tr(`lang.${l}`) || l])], form.language ?? "", (v) => set({ language: v || null }))),
  );
  const rules = choices.rules ?? [];
  const ruleOptions = h(
    "details",
    { class: "rule-options", open: rulesShown || rules.some((option) => option.name in form.rules) },
    h("summary", { "data-key": "f:rules" }, tr("activity.open_rule_options")),
    h("div", { class: "fields" }, ...rules.map((option) => ruleField(option, form))),
  );
  ruleOptions.addEventListener("toggle", () => (rulesShown = (ruleOptions as HTMLDetailsElement).open));
  const submit = h("button", { type: "submit", class: "act start", "data-key": "o:open", disabled: state.pending }, tr("activity.open"));
  const ops = h("div", { class: "ops" }, submit);
  if (back) {
    const close = h("button", { type: "button", class: "act", "data-key": "o:back" }, tr("activity.open_back"));
    close.addEventListener("click", () => handlers.opening(false));
    ops.prepend(close);
  }
  const el = h("form", { class: "open-form" }, fields, ...(rules.length ? [ruleOptions] : []), ops);
  el.addEventListener("submit", (event) => {
    event.preventDefault();
    timer.dispatchEvent(new Event("change")); // a number typed but not yet committed counts
    handlers.open({ ...form, rules: { ...form.rules } });
  });
  section.append(el);
  return section;
}
