// Staff tools: open a cash table, close one between hands; the same for
// casino tables, with the house edge of each configuration against the best
// player (a table opens only when it is at least the floor), and the
// house's bankroll (what it holds, what the open boxes could cost it; a
// cashier funds it); a tournament director creates tournaments and sets up
// the schedules that create them ahead of time.

import { api, commandId, rows, session } from "./api.js";
import { fill, form, h, notice } from "./dom.js";
import { percent } from "./casino.js";
import { schedulesPanel } from "./schedules.js";
import { GAMES } from "./lobby.js";
import { tournamentForm } from "./tournament_form.js";
import { tr } from "./i18n.js";

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
          h("a", { href: `#/tables/${t.id}` }, t.name || tr("table.numbered", { id: t.id })),
          ` (${t.players_seated}/${t.seats}) `,
          h("button.danger", { onclick: () => close(t.id) }, tr("staff.close")),
        ),
      ),
    );
  };
  const close = async (id) => {
    try {
      await api("POST", `tables/${id}/close/`, { command_id: commandId() });
      notice(tr("staff.table_closes", { id }));
      await load();
    } catch (e) {
      notice(e.message, "error");
    }
  };
  const game = h("select", { name: "game", id: "open-game" }, Object.entries(GAMES).map(([k, v]) => h("option", { value: k }, v)));
  const betting = h("select", { name: "betting", id: "open-betting" }, ["no-limit", "pot-limit", "fixed-limit"].map((b) => h("option", { value: b }, tr(`betting.${b}`))));
  const open = form(
    [
      { name: "name", label: tr("staff.name") },
      { name: "small_blind", label: tr("staff.small_blind"), type: "number", min: 1, value: 1 },
      { name: "big_blind", label: tr("staff.big_blind"), type: "number", min: 1, value: 2 },
    ],
    tr("staff.open_table"),
    async (v) => {
      const table = await api("POST", "tables/", { ...v, game: game.value, betting: betting.value });
      notice(tr("staff.opened", { name: table.table.name }));
      await load();
    },
    { id: "open-table" },
  );
  open.prepend(h("label", { for: "open-game" }, tr("lobby.col.game")), game, h("label", { for: "open-betting" }, tr("staff.betting")), betting);

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
          ` (${t.players_seated}/${t.boxes}, ${tr("staff.bets", { min: t.min_bet, max: t.max_bet })}) `,
          h("button.danger", { onclick: () => closeCasino(t.id) }, tr("staff.close")),
        ),
      ),
    );
  };
  const closeCasino = async (id) => {
    try {
      await api("POST", `casino/tables/${id}/close/`, { command_id: commandId() });
      notice(tr("staff.casino_closes", { id }));
      await loadCasinos();
    } catch (e) {
      notice(e.message, "error");
    }
  };
  const figures = (m) =>
    tr("staff.math_figures", { model: percent(m.model_edge), simulated: percent(m.simulated_edge), low: percent(m.simulated_confidence[0]), high: percent(m.simulated_confidence[1]), payout: m.largest_payout });
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
          `${tr(m.jokers === 1 ? "staff.math_one_joker" : "staff.math_jokers", { count: m.jokers, pays: Object.values(m.pay_table).join("/") })}: ${figures(m)}${m.model_edge < m.floor || m.simulated_confidence[0] < m.floor ? ` — ${tr("staff.below_floor")}` : ""}`,
        ),
      ),
    );
  };
  const openCasino = form(
    [
      { name: "name", label: tr("staff.name") },
      { name: "jokers", label: tr("staff.jokers"), type: "number", min: 0, max: 4, value: 2 },
      { name: "min_bet", label: tr("staff.min_bet"), type: "number", min: 1, value: 10 },
      { name: "max_bet", label: tr("staff.max_bet"), type: "number", min: 1, value: 100 },
      { name: "boxes", label: tr("staff.boxes"), type: "number", min: 1, max: 4, value: 4 },
      { name: "bet_seconds", label: tr("staff.bet_seconds"), type: "number", min: 1, max: 600, value: 20 },
      { name: "decision_seconds", label: tr("staff.decision_seconds"), type: "number", min: 1, max: 600, value: 20 },
    ],
    tr("staff.open_casino"),
    async (v) => {
      const view = await api("POST", "casino/tables/", v);
      notice(tr("staff.opened", { name: view.table.name }));
      fill(openedMath, tr("staff.opened_math", { name: view.table.name, figures: figures(view.house_math) }));
      await loadCasinos();
    },
    { id: "open-casino" },
  );
  const house = h("p", { id: "staff-bankroll" });
  const loadBankroll = async () => {
    const b = await api("GET", "casino/bankroll/");
    fill(house, tr("staff.bankroll_balance", { balance: b.balance, exposure: b.exposure }));
  };
  const fund = form(
    [
      { name: "amount", label: tr("staff.amount"), type: "number", min: 1 },
      { name: "memo", label: tr("staff.note"), required: false },
    ],
    tr("staff.fund_bankroll"),
    async (v) => {
      const b = await api("POST", "casino/bankroll/", { amount: v.amount, transfer_id: commandId(), ...(v.memo ? { memo: v.memo } : {}) });
      notice(tr("staff.bankroll_holds", { balance: b.balance }));
      await loadBankroll();
    },
    { id: "fund-bankroll" },
  );
  await Promise.all([load(), loadCasinos(), loadMath(), loadBankroll()]);
  const sections = [
    ["cash", tr("lobby.cash_tables"), [h("h2", {}, tr("staff.open_a_table")), open, h("h2", {}, tr("staff.open_tables")), list]],
    [
      "casino",
      tr("lobby.casino_tables"),
      [
        h("h2", {}, tr("staff.open_a_casino")),
        openCasino,
        openedMath,
        h("h3", {}, tr("staff.math_heading")),
        h("p.hint", {}, tr("staff.math_hint")),
        mathList,
        h("h2", {}, tr("lobby.casino_tables")),
        casinoList,
        h("h2", {}, tr("staff.house_bankroll")),
        house,
        fund,
      ],
    ],
  ];
  if ((session.me?.roles || []).includes("tournament_director")) {
    const made = h("ul", { id: "staff-tournaments" });
    const created = (t) => {
      made.append(h("li", {}, h("a", { href: `#/tournaments/${t.id}` }, t.name), ` (#${t.id}, ${tr(`tournament.status.${t.status}`)})`));
      notice(tr("staff.created", { name: t.name }));
    };
    const chains = await api("GET", "step-chains/");
    const chain = (c) => h("li", {}, h("a", { href: `#/step-chains/${c.id}` }, c.name), ` (${tr("staff.chain_steps", { count: c.steps.length, target: c.target.name })})`);
    const schedules = schedulesPanel();
    await schedules.load();
    sections.push([
      "tournaments",
      tr("lobby.tournaments"),
      [h("h2", {}, tr("staff.create_tournament")), tournamentForm(created), made, h("h2", {}, tr("staff.step_chains")), h("ul", { id: "staff-step-chains" }, chains.map(chain))],
    ]);
    sections.push(["schedules", tr("schedule.heading"), schedules.el]);
  }
  const el = h("section.staff", {}, h("h1", {}, tr("nav.staff")), tabs(sections));
  return { el };
}

/** Sections as tabs (WAI-ARIA's tabs pattern): one shown at a time, the
 * arrow keys move between the tabs. */
function tabs(sections) {
  const list = h("div.tabs", { role: "tablist", "aria-label": tr("staff.sections") });
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
