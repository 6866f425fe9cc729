// Staff tools: open a cash table, close one between hands; the same for
// casino tables (the bankroll is the cashiers' to fund, through the API);
// a tournament director creates tournaments.

import { api, commandId, rows, session } from "./api.js";
import { fill, form, h, notice } from "./dom.js";
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
  const openCasino = form(
    [
      { name: "name", label: tr("staff.name") },
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
      await loadCasinos();
    },
    { id: "open-casino" },
  );
  await Promise.all([load(), loadCasinos()]);
  const sections = [
    ["cash", tr("lobby.cash_tables"), [h("h2", {}, tr("staff.open_a_table")), open, h("h2", {}, tr("staff.open_tables")), list]],
    ["casino", tr("lobby.casino_tables"), [h("h2", {}, tr("staff.open_a_casino")), openCasino, h("h2", {}, tr("lobby.casino_tables")), casinoList]],
  ];
  if ((session.me?.roles || []).includes("tournament_director")) {
    const made = h("ul", { id: "staff-tournaments" });
    const created = (t) => {
      made.append(h("li", {}, h("a", { href: `#/tournaments/${t.id}` }, t.name), ` (#${t.id}, ${tr(`tournament.status.${t.status}`)})`));
      notice(tr("staff.created", { name: t.name }));
    };
    sections.push(["tournaments", tr("lobby.tournaments"), [h("h2", {}, tr("staff.create_tournament")), tournamentForm(created), made]]);
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
