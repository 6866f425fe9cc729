// A casino table's strategy card: its pay table, its published house edge
// (against the best player) and the best response in a few plain lines,
// as the server stores them for the table's configuration
// (GET casino/tables/<id>/strategy/; its pay table from the lowest line),
// each line worded here from its kind and values.

import { api } from "./api.js";
import { h } from "./dom.js";
import { tr } from "./i18n.js";
import { handName, percent } from "./casino.js";

/** One line of the card in the page's language, from its kind and values
 * (a line the server could not read back comes as its English text). */
function cardLine({ kind, values }) {
  if (kind === "text") return values.text;
  const params = { ...values };
  if (values.hand) params.hand = tr(`card.hand.${values.hand}`);
  if (values.rank) params.ranks = tr(`rank.plural.${values.rank}`);
  return tr(`card.line.${kind}`, params);
}

export async function casinoCardView(tableId) {
  const s = await api("GET", `casino/tables/${tableId}/strategy/`);
  const el = h(
    "section.card-panel.narrow",
    { id: "strategy-card" },
    h("h1", {}, tr("card.title", { name: s.name })),
    h(
      "p",
      { id: "strategy-house-edge" },
      s.house_edge === null
        ? tr("card.unpublished")
        : tr("card.house_keeps", { edge: percent(s.house_edge) }),
    ),
    h("ol", { id: "strategy-lines" }, s.strategy_lines.map((line) => h("li", {}, cardLine(line)))),
    h("h2", {}, tr("card.pay_table")),
    h(
      "table",
      { id: "strategy-pay-table" },
      h("tbody", {}, Object.entries(s.pay_table).map(([hand, pays]) => h("tr", {}, h("td", {}, handName(hand)), h("td", {}, `${pays}:1`)))),
    ),
    h("p", {}, tr(s.jokers === 1 ? "card.deck_one_joker" : "card.deck_jokers", { count: s.jokers })),
    h("p", {}, h("a", { href: `#/casino/${tableId}` }, tr("card.back"))),
  );
  return { el };
}
