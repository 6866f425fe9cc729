// The director's form to create a tournament (POST tournaments/): every
// option the API takes, each refusal shown next to the field it names.
//
// Fields are named by their path in the API's body ("rebuys.chips"), so a
// refusal's `fields` (nested objects from the input checks, dotted paths
// from the rules) finds its input by the same name.

import { api } from "./api.js";
import { fill, h, showRefusal } from "./dom.js";
import { GAMES } from "./lobby.js";

const BETTING = ["no-limit", "pot-limit", "fixed-limit"];
const PRESETS = { standard: "Standard (preset)", satellite: "32-card-draw satellite (preset)", custom: "Custom levels" };

/** Inputs by group: [path, label, options]; `optional` ones left empty are left out. */
const GROUPS = [
  [
    "Tournament",
    [
      ["name", "Tournament name", { type: "text", value: "" }],
      ["game", "Game", { choices: GAMES }],
      ["betting", "Betting", { choices: Object.fromEntries(BETTING.map((b) => [b, b])) }],
      ["buy_in", "Buy-in", { value: 10 }],
      ["fee", "Fee", { value: 0 }],
      ["guarantee", "Guaranteed prize pool", { optional: true }],
      ["starting_stack", "Starting stack", { value: 1500 }],
      ["min_players", "Players min", { value: 2 }],
      ["max_players", "Players max", { value: 9 }],
      ["table_size", "Seats per table", { optional: true }],
    ],
  ],
  [
    "Start",
    [
      ["start", "Start", { choices: { "sit-and-go": "Sit-and-go (when full)", scheduled: "Scheduled" } }],
      ["starts_at", "Starts at", { type: "datetime-local", optional: true }],
      ["late_registration_level", "Late registration until level", { optional: true }],
      ["re_entries", "Re-entries per player", { value: 0 }],
    ],
  ],
  [
    "Blinds",
    [
      ["structure.preset", "Structure", { choices: PRESETS }],
      ["structure.minutes", "Minutes per level (preset)", { value: 20, optional: true }],
      ["structure.levels", "Levels (custom: one a line, small/big[/ante] minutes)", { type: "textarea", optional: true }],
      ["structure.minute_seconds", "Seconds in a clock minute", { value: 60 }],
      ["ante_by", "Antes paid by", { choices: { all: "all", "big-blind": "big blind" } }],
      ["tie_break", "Odd chip", { choices: { suit: "by suit", split: "split" } }],
    ],
  ],
  [
    "Rebuys and add-on (optional)",
    [
      ["rebuys.until_level", "Rebuys until level", { optional: true }],
      ["rebuys.chips", "Rebuy chips", { optional: true }],
      ["rebuys.price", "Rebuy price", { optional: true }],
      ["rebuys.max_rebuys", "Most rebuys", { optional: true }],
      ["rebuys.threshold", "Rebuy at or below", { optional: true }],
      ["rebuys.add_on_chips", "Add-on chips", { optional: true }],
      ["rebuys.add_on_price", "Add-on price", { optional: true }],
    ],
  ],
  [
    "Satellite (optional)",
    [
      ["satellite.target", "Seats into tournament #", { optional: true }],
      ["satellite.seats", "Seats", { optional: true }],
    ],
  ],
  [
    "Bounties (optional)",
    [
      ["bounty.amount", "Bounty per entry", { optional: true }],
      ["bounty.progressive", "Bounty kind", { choices: { false: "knockout", true: "progressive (PKO)" } }],
      ["bounty.paid_now_percent", "PKO: % of a head paid at once", { value: 50 }],
    ],
  ],
  [
    "Clocks (optional, seconds)",
    [
      ["clocks.action_seconds", "Action clock", { optional: true }],
      ["clocks.draw_seconds", "Draw clock", { optional: true }],
      ["clocks.time_bank_seconds", "Time bank", { optional: true }],
      ["clocks.time_bank_refill_hands", "Time bank refill (hands)", { optional: true }],
    ],
  ],
];

/** "10/20 15" or "10/20/5 15" as a level; anything else is sent as it is
 * read, so the API names what is wrong with it. */
function level(line) {
  const m = line.trim().match(/^(\d+)\s*\/\s*(\d+)(?:\s*\/\s*(\d+))?(?:\s+(\d+))?$/);
  if (!m) return { small_blind: line.trim() };
  const out = { small_blind: Number(m[1]), big_blind: Number(m[2]) };
  if (m[3] !== undefined) out.ante = Number(m[3]);
  if (m[4] !== undefined) out.minutes = Number(m[4]);
  return out;
}

function put(body, path, value) {
  const keys = path.split(".");
  let at = body;
  for (const k of keys.slice(0, -1)) at = at[k] ??= {};
  at[keys.at(-1)] = value;
}

/** The request body from the inputs' values. */
function body(values) {
  const out = {};
  for (const [path, raw] of Object.entries(values)) {
    if (["start", "structure.preset", "structure.levels", "starts_at"].includes(path) || raw === "") continue;
    const text = ["name", "game", "betting", "ante_by", "tie_break"].includes(path);
    if (path === "bounty.progressive") put(out, path, raw === "true");
    else put(out, path, text || !/^-?\d+$/.test(raw) ? raw : Number(raw));
  }
  if (out.bounty?.amount === undefined) delete out.bounty;
  out.sit_and_go = values.start === "sit-and-go";
  if (!out.sit_and_go) out.starts_at = values.starts_at ? new Date(values.starts_at).toISOString() : null;
  out.structure ??= {};
  if (values["structure.preset"] === "custom") {
    delete out.structure.minutes;
    out.structure.levels = values["structure.levels"].split("\n").filter((l) => l.trim()).map(level);
  } else {
    out.structure.preset = values["structure.preset"];
  }
  return out;
}

/** "structure.levels[1].big_blind" -> "structure.levels[1]" -> "structure.levels" -> "structure" -> "". */
function parent(path) {
  const up = path.replace(/(\.[^.[]*|\[\d+\])$/, "");
  return up === path ? "" : up;
}

/** The form; `created(tournament)` runs after the API made one. */
export function tournamentForm(created) {
  const slots = new Map(); // path -> the error line under its input
  const inputs = new Map();
  const el = h("form.stack", { id: "create-tournament", novalidate: true });
  for (const [title, fields] of GROUPS) {
    const set = h("fieldset", {}, h("legend", {}, title));
    for (const [path, label, opts] of fields) {
      const id = `ct-${path.replace(/\W/g, "-")}`;
      const error = h("p.error.field-error", { id: `${id}-error`, dataset: { field: path } });
      const common = { id, name: path, "aria-describedby": `${id}-error` };
      let input;
      if (opts.choices) input = h("select", common, Object.entries(opts.choices).map(([k, v]) => h("option", { value: k }, v)));
      else if (opts.type === "textarea") input = h("textarea", { ...common, rows: 4, placeholder: "10/20 15\n20/40 15" });
      else input = h("input", { ...common, type: opts.type || "number", value: opts.value ?? "", min: opts.type ? undefined : 0 });
      set.append(h("label", { for: id }, label), input, error);
      slots.set(path, error);
      inputs.set(path, input);
    }
    el.append(set);
  }
  const general = h("p.error", { role: "alert", id: "create-tournament-error" });
  el.append(h("button.primary", { type: "submit" }, "Create tournament"), general);

  const show = () => {
    const custom = inputs.get("structure.preset").value === "custom";
    inputs.get("structure.levels").disabled = !custom;
    inputs.get("structure.minutes").disabled = custom;
    inputs.get("starts_at").disabled = inputs.get("start").value !== "scheduled";
  };
  el.addEventListener("change", show);
  show();

  /** The slot for a path: its own, else its nearest parent's, else the form's. */
  const slotFor = (path) => {
    const alias = { sit_and_go: "start", starts_at: "start", structure: "structure.preset" };
    for (let p = path; p; p = parent(p)) {
      const own = slots.get(alias[p] || p);
      if (own) return own;
    }
    return general;
  };

  el.addEventListener("submit", async (event) => {
    event.preventDefault();
    for (const slot of [...slots.values(), general]) fill(slot);
    const values = {};
    for (const [path, input] of inputs) if (!input.disabled) values[path] = input.value;
    values["structure.levels"] ??= "";
    try {
      created(await api("POST", "tournaments/", body(values)));
    } catch (e) {
      showRefusal(e, slotFor, general, "Not created: see the fields marked above.");
    }
  });
  return el;
}
