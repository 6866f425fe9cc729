// A casino table's strategy card: its pay table, its published house edge
// (against the best player) and the best response in a few plain lines,
// as the server stores them for the table's configuration
// (GET casino/tables/<id>/strategy/; its pay table from the lowest line).

import { api } from "./api.js";
import { h } from "./dom.js";
import { handName, percent } from "./casino.js";

export async function casinoCardView(tableId) {
  const s = await api("GET", `casino/tables/${tableId}/strategy/`);
  const el = h(
    "section.card-panel.narrow",
    { id: "strategy-card" },
    h("h1", {}, `Strategy card · ${s.name}`),
    h(
      "p",
      { id: "strategy-house-edge" },
      s.house_edge === null
        ? "The house edge of this table is not published."
        : `The house keeps ${percent(s.house_edge)} of the original bet on average against a player who plays this card.`,
    ),
    h("ol", { id: "strategy-lines" }, s.strategy_card.map((line) => h("li", {}, line))),
    h("h2", {}, "Pay table (BET wins, N to 1)"),
    h(
      "table",
      { id: "strategy-pay-table" },
      h("tbody", {}, Object.entries(s.pay_table).map(([hand, pays]) => h("tr", {}, h("td", {}, handName(hand)), h("td", {}, `${pays}:1`)))),
    ),
    h("p", {}, `${s.jokers} joker${s.jokers === 1 ? "" : "s"} in the deck; the dealer qualifies with a pair of jacks or better.`),
    h("p", {}, h("a", { href: `#/casino/${tableId}` }, "Back to the table")),
  );
  return { el };
}
