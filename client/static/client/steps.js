// A step satellite chain as its director sees it: each step's price,
// consolation steps, tournaments and tickets outstanding, and the target.

import { api } from "./api.js";
import { h, notice } from "./dom.js";
import { tr } from "./i18n.js";

export async function stepChainView(id) {
  const chain = await api("GET", `step-chains/${id}/`);
  const tournament = (t) => h("li", {}, h("a", { href: `#/tournaments/${t.id}` }, t.name), ` (${tr("steps.tournament_state", { status: t.status, entries: t.entries })})`);
  const step = (s) =>
    h(
      "tr",
      { "data-step": s.step },
      h("td", {}, tr("steps.step_n", { n: s.step })),
      h("td.num", {}, s.price),
      h("td", {}, s.consolation.length ? s.consolation.map((n) => tr("steps.step_lower", { n })).join(", ") : tr("steps.none")),
      h("td.num.outstanding", {}, s.tickets_outstanding),
      h("td", {}, h("ul", {}, s.tournaments.map(tournament))),
    );
  const close = async () => {
    try {
      await api("POST", `step-chains/${id}/close/`);
      notice(tr("steps.closed_notice"));
      location.reload();
    } catch (e) {
      notice(e.message, "error");
    }
  };
  const head = [tr("steps.col_step"), tr("steps.col_price"), tr("steps.col_consolation"), tr("steps.col_tickets_out"), tr("lobby.tournaments")];
  const el = h(
    "section.step-chain",
    {},
    h("h1", {}, chain.name),
    h("p", {}, tr("steps.expire", { when: new Date(chain.expires_at).toLocaleString() }), chain.closed ? ` (${tr("steps.closed")})` : ""),
    h("table.list", { id: "steps" }, h("thead", {}, h("tr", {}, head.map((c) => h("th", { scope: "col" }, c)))), h("tbody", {}, chain.steps.map(step))),
    h(
      "p",
      { id: "step-target" },
      `${tr("steps.target")}: `,
      h("a", { href: `#/tournaments/${chain.target.id}` }, chain.target.name),
      ` (${tr("steps.target_line", { price: chain.target.price, out: chain.target.tickets_outstanding })})`,
    ),
    chain.closed ? null : h("button", { onclick: close, disabled: !chain.expired }, tr("steps.close")),
  );
  return { el };
}
