// Staff tools: open a cash table, close one between hands; a tournament
// director creates tournaments.

import { api, commandId, rows, session } from "./api.js";
import { fill, form, h, notice } from "./dom.js";
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
  await load();
  const el = h("section.card-panel.narrow", {}, h("h1", {}, "Staff"), h("h2", {}, "Open a table"), open, h("h2", {}, "Open tables"), list);
  if ((session.me?.roles || []).includes("tournament_director")) {
    const made = h("ul", { id: "staff-tournaments" });
    const created = (t) => {
      made.append(h("li", {}, h("a", { href: `#/tournaments/${t.id}` }, t.name), ` (#${t.id}, ${t.status.replaceAll("_", " ")})`));
      notice(`Created ${t.name}.`);
    };
    el.append(h("h2", {}, "Create a tournament"), tournamentForm(created), made);
  }
  return { el };
}
