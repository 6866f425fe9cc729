// The director's form to create a tournament (POST tournaments/): every
// option the API takes, each refusal shown next to the field it names.
//
// Fields are named by their path in the API's body ("rebuys.chips"), so a
// refusal's `fields` (nested objects from the input checks, dotted paths
// from the rules) finds its input by the same name.

import { api } from "./api.js";
import { fill, h, showRefusal } from "./dom.js";
import { GAMES } from "./lobby.js";
import { tr } from "./i18n.js";

const BETTING = ["no-limit", "pot-limit", "fixed-limit"];
const PRESETS = { standard: tr("tform.preset.standard"), satellite: tr("tform.preset.satellite"), custom: tr("tform.preset.custom") };

/** Inputs by group: [path, label, options]; `optional` ones left empty are left out. */
const GROUPS = [
  [
    tr("tform.group.tournament"),
    [
      ["name", tr("tform.name"), { type: "text", value: "" }],
      ["game", tr("tform.game"), { choices: GAMES }],
      ["betting", tr("tform.betting"), { choices: Object.fromEntries(BETTING.map((b) => [b, tr(`betting.${b}`)])) }],
      ["buy_in", tr("tform.buy_in"), { value: 10 }],
      ["fee", tr("tform.fee"), { value: 0 }],
      ["guarantee", tr("tform.guarantee"), { optional: true }],
      ["starting_stack", tr("tform.starting_stack"), { value: 1500 }],
      ["min_players", tr("tform.min_players"), { value: 2 }],
      ["max_players", tr("tform.max_players"), { value: 9 }],
      ["table_size", tr("tform.table_size"), { optional: true }],
    ],
  ],
  [
    tr("tform.group.start"),
    [
      ["start", tr("tform.start"), { choices: { "sit-and-go": tr("tform.sit_and_go"), scheduled: tr("tform.scheduled") } }],
      ["starts_at", tr("tform.starts_at"), { type: "datetime-local", optional: true }],
      ["late_registration_level", tr("tform.late_registration_level"), { optional: true }],
      ["re_entries", tr("tform.re_entries"), { value: 0 }],
    ],
  ],
  [
    tr("tform.group.blinds"),
    [
      ["structure.preset", tr("tform.structure_preset"), { choices: PRESETS }],
      ["structure.minutes", tr("tform.structure_minutes"), { value: 20, optional: true }],
      ["structure.levels", tr("tform.structure_levels"), { type: "textarea", optional: true }],
      ["structure.minute_seconds", tr("tform.structure_minute_seconds"), { value: 60 }],
      ["ante_by", tr("tform.ante_by"), { choices: { all: tr("tform.ante_all"), "big-blind": tr("log.big_blind") } }],
      ["tie_break", tr("tform.tie_break"), { choices: { suit: tr("tform.by_suit"), split: tr("tform.split") } }],
    ],
  ],
  [
    tr("tform.group.rebuys"),
    [
      ["rebuys.until_level", tr("tform.rebuys_until_level"), { optional: true }],
      ["rebuys.chips", tr("tform.rebuys_chips"), { optional: true }],
      ["rebuys.price", tr("tform.rebuys_price"), { optional: true }],
      ["rebuys.max_rebuys", tr("tform.rebuys_max_rebuys"), { optional: true }],
      ["rebuys.threshold", tr("tform.rebuys_threshold"), { optional: true }],
      ["rebuys.add_on_chips", tr("tform.rebuys_add_on_chips"), { optional: true }],
      ["rebuys.add_on_price", tr("tform.rebuys_add_on_price"), { optional: true }],
    ],
  ],
  [
    tr("tform.group.satellite"),
    [
      ["satellite.target", tr("tform.satellite_target"), { optional: true }],
      ["satellite.seats", tr("tform.satellite_seats"), { optional: true }],
    ],
  ],
  [
    tr("tform.group.bounties"),
    [
      ["bounty.amount", tr("tform.bounty_amount"), { optional: true }],
      ["bounty.progressive", tr("tform.bounty_kind"), { choices: { false: tr("tform.bounty_knockout"), true: tr("tform.bounty_pko") } }],
      ["bounty.paid_now_percent", tr("tform.bounty_paid_now"), { value: 50 }],
    ],
  ],
  [
    tr("tform.group.clocks"),
    [
      ["clocks.action_seconds", tr("tform.clocks_action_seconds"), { optional: true }],
      ["clocks.draw_seconds", tr("tform.clocks_draw_seconds"), { optional: true }],
      ["clocks.time_bank_seconds", tr("tform.clocks_time_bank_seconds"), { optional: true }],
      ["clocks.time_bank_refill_hands", tr("tform.clocks_time_bank_refill_hands"), { optional: true }],
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
  el.append(h("button.primary", { type: "submit" }, tr("tform.create")), general);

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
      showRefusal(e, slotFor, general, tr("tform.see_fields"));
    }
  });
  return el;
}
