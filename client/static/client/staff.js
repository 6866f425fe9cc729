// Staff tools: open a cash table, close one between hands; the same for
// casino tables, with the house edge of each configuration against the best
// player (a table opens only when it is at least the floor), and the
// house's bankroll (what it holds, what the open boxes could cost it; a
// cashier funds it); a tournament director creates tournaments.

import { api, commandId, rows, session } from "./api.js";
import { fill, form, h, notice } from "./dom.js";
import { percent } from "./casino.js";
import { GAMES } from "./lobby.js";
import { tournamentForm } from "./tournament_form.js";

export async function staffView() {
  const list = h("ul", { id: "staff-tables" });
  const load = async () => {
    const tables = rows(await api("GET", "tables/")).filter((t) => t.status === "open" && !t.tournament);
    fill(
      list,
      tables.map((t) =>
        h(
          "li",
          {},
          h("a", { href: `#/tables/${t.id}` }, t.name || `Table ${t.id}`),
          ` (${t.players_seated}/${t.seats}) `,
          h("button.danger", { onclick: () => close(t.id) }, "Close"),
        ),
      ),
    );
  };
  const close = async (id) => {
    try {
      await api("POST", `tables/${id}/close/`, { command_id: commandId() });
      notice(`Table ${id} closes after its hand.`);
      await load();
    } catch (e) {
      notice(e.message, "error");
    }
  };
  const game = h("select", { name: "game", id: "open-game" }, Object.entries(GAMES).map(([k, v]) => h("option", { value: k }, v)));
  const betting = h("select", { name: "betting", id: "open-betting" }, ["no-limit", "pot-limit", "fixed-limit"].map((b) => h("option", { value: b }, b)));
  const open = form(
    [
      { name: "name", label: "Name" },
      { name: "small_blind", label: "Small blind", type: "number", min: 1, value: 1 },
      { name: "big_blind", label: "Big blind", type: "number", min: 1, value: 2 },
    ],
    "Open table",
    async (v) => {
      const table = await api("POST", "tables/", { ...v, game: game.value, betting: betting.value });
      notice(`Opened ${table.table.name}.`);
      await load();
    },
    { id: "open-table" },
  );
  open.prepend(h("label", { for: "open-game" }, "Game"), game, h("label", { for: "open-betting" }, "Betting"), betting);

  const casinoList = h("ul", { id: "staff-casino-tables" });
  const loadCasinos = async () => {
    const tables = rows(await api("GET", "casino/tables/")).filter((t) => t.status === "open");
    fill(
      casinoList,
      tables.map((t) =>
        h(
          "li",
          {},
          h("a", { href: `#/casino/${t.id}` }, t.name),
          ` (${t.players_seated}/${t.boxes}, bets ${t.min_bet}–${t.max_bet}) `,
          h("button.danger", { onclick: () => closeCasino(t.id) }, "Close"),
        ),
      ),
    );
  };
  const closeCasino = async (id) => {
    try {
      await api("POST", `casino/tables/${id}/close/`, { command_id: commandId() });
      notice(`Casino table ${id} closes after its round.`);
      await loadCasinos();
    } catch (e) {
      notice(e.message, "error");
    }
  };
  const figures = (m) =>
    `model ${percent(m.model_edge)}, simulated ${percent(m.simulated_edge)} (95% CI ${percent(m.simulated_confidence[0])} to ${percent(m.simulated_confidence[1])}), largest payout ${m.largest_payout} B`;
  const mathList = h("ul", { id: "staff-casino-math" });
  const openedMath = h("p", { id: "opened-casino-math" });
  const loadMath = async () => {
    const stored = await api("GET", "casino/math/");
    fill(
      mathList,
      stored.map((m) =>
        h(
          "li",
          { dataset: { digest: m.digest } },
          `${m.jokers} joker${m.jokers === 1 ? "" : "s"}, pair to five of a kind pay ${Object.values(m.pay_table).join("/")}: ${figures(m)}${m.model_edge < m.floor || m.simulated_confidence[0] < m.floor ? " — below the floor" : ""}`,
        ),
      ),
    );
  };
  const openCasino = form(
    [
      { name: "name", label: "Name" },
      { name: "jokers", label: "Jokers", type: "number", min: 0, max: 4, value: 2 },
      { name: "min_bet", label: "Minimum bet", type: "number", min: 1, value: 10 },
      { name: "max_bet", label: "Maximum bet", type: "number", min: 1, value: 100 },
      { name: "boxes", label: "Boxes", type: "number", min: 1, max: 4, value: 4 },
      { name: "bet_seconds", label: "Betting window (s)", type: "number", min: 1, max: 600, value: 20 },
      { name: "decision_seconds", label: "Decision clock (s)", type: "number", min: 1, max: 600, value: 20 },
    ],
    "Open casino table",
    async (v) => {
      const view = await api("POST", "casino/tables/", v);
      notice(`Opened ${view.table.name}.`);
      fill(openedMath, `${view.table.name}: house edge ${figures(view.house_math)}`);
      await loadCasinos();
    },
    { id: "open-casino" },
  );
  const house = h("p", { id: "staff-bankroll" });
  const loadBankroll = async () => {
    const b = await api("GET", "casino/bankroll/");
    fill(house, `Balance ${b.balance} · open boxes could cost at most ${b.exposure}`);
  };
  const fund = form(
    [
      { name: "amount", label: "Amount", type: "number", min: 1 },
      { name: "memo", label: "Note", required: false },
    ],
    "Fund the bankroll",
    async (v) => {
      const b = await api("POST", "casino/bankroll/", { amount: v.amount, transfer_id: commandId(), ...(v.memo ? { memo: v.memo } : {}) });
      notice(`The bankroll holds ${b.balance}.`);
      await loadBankroll();
    },
    { id: "fund-bankroll" },
  );
  await Promise.all([load(), loadCasinos(), loadMath(), loadBankroll()]);
  const sections = [
    ["cash", "Cash tables", [h("h2", {}, "Open a table"), open, h("h2", {}, "Open tables"), list]],
    [
      "casino",
      "Casino tables",
      [
        h("h2", {}, "Open a casino table"),
        openCasino,
        openedMath,
        h("h3", {}, "House edge against the best player, by configuration"),
        h("p.hint", {}, "A table opens only with a configuration listed here at or above the floor; others: manage.py casino_math --store."),
        mathList,
        h("h2", {}, "Casino tables"),
        casinoList,
        h("h2", {}, "House bankroll"),
        house,
        fund,
      ],
    ],
  ];
  if ((session.me?.roles || []).includes("tournament_director")) {
    const made = h("ul", { id: "staff-tournaments" });
    const created = (t) => {
      made.append(h("li", {}, h("a", { href: `#/tournaments/${t.id}` }, t.name), ` (#${t.id}, ${t.status.replaceAll("_", " ")})`));
      notice(`Created ${t.name}.`);
    };
    const chains = await api("GET", "step-chains/");
    const chain = (c) => h("li", {}, h("a", { href: `#/step-chains/${c.id}` }, c.name), ` (${c.steps.length} steps into ${c.target.name})`);
    sections.push([
      "tournaments",
      "Tournaments",
      [h("h2", {}, "Create a tournament"), tournamentForm(created), made, h("h2", {}, "Step satellite chains"), h("ul", { id: "staff-step-chains" }, chains.map(chain))],
    ]);
  }
  const el = h("section.staff", {}, h("h1", {}, "Staff"), tabs(sections));
  return { el };
}

/** Sections as tabs (WAI-ARIA's tabs pattern): one shown at a time, the
 * arrow keys move between the tabs. */
function tabs(sections) {
  const list = h("div.tabs", { role: "tablist", "aria-label": "Staff sections" });
  const panels = [];
  const buttons = [];
  const select = (i, focus = false) => {
    buttons.forEach((b, j) => {
      b.setAttribute("aria-selected", String(i === j));
      b.tabIndex = i === j ? 0 : -1;
      panels[j].hidden = i !== j;
    });
    if (focus) buttons[i].focus();
  };
  sections.forEach(([id, label, content], i) => {
    const button = h(
      "button.tab",
      {
        type: "button",
        role: "tab",
        id: `tab-${id}`,
        "aria-controls": `panel-${id}`,
        onclick: () => select(i),
        onkeydown: (e) => {
          const step = { ArrowRight: 1, ArrowLeft: -1 }[e.key];
          if (step) select((i + step + sections.length) % sections.length, true);
        },
      },
      label,
    );
    buttons.push(button);
    panels.push(h("div.tab-panel.card-panel", { role: "tabpanel", id: `panel-${id}`, "aria-labelledby": `tab-${id}` }, content));
    list.append(button);
  });
  select(0);
  return h("div", {}, list, panels);
}
