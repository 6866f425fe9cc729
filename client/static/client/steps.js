// A step satellite chain as its director sees it: each step's price,
// consolation steps, tournaments and tickets outstanding, and the target.

import { api } from "./api.js";
import { h, notice } from "./dom.js";

export async function stepChainView(id) {
  const chain = await api("GET", `step-chains/${id}/`);
  const tournament = (t) => h("li", {}, h("a", { href: `#/tournaments/${t.id}` }, t.name), ` (${t.status}, ${t.entries} entries)`);
  const step = (s) =>
    h(
      "tr",
      { "data-step": s.step },
      h("td", {}, `Step ${s.step}`),
      h("td.num", {}, s.price),
      h("td", {}, s.consolation.length ? s.consolation.map((n) => `step ${n}`).join(", ") : "none"),
      h("td.num.outstanding", {}, s.tickets_outstanding),
      h("td", {}, h("ul", {}, s.tournaments.map(tournament))),
    );
  const close = async () => {
    try {
      await api("POST", `step-chains/${id}/close/`);
      notice("The chain is closed: its tickets are cashed out.");
      location.reload();
    } catch (e) {
      notice(e.message, "error");
    }
  };
  const head = ["Step", "Price", "Consolation", "Tickets out", "Tournaments"];
  const el = h(
    "section.step-chain",
    {},
    h("h1", {}, chain.name),
    h("p", {}, `Tickets expire ${new Date(chain.expires_at).toLocaleString()}`, chain.closed ? " (closed)" : ""),
    h("table.list", { id: "steps" }, h("thead", {}, h("tr", {}, head.map((c) => h("th", { scope: "col" }, c)))), h("tbody", {}, chain.steps.map(step))),
    h(
      "p",
      { id: "step-target" },
      "Target: ",
      h("a", { href: `#/tournaments/${chain.target.id}` }, chain.target.name),
      ` (entry ${chain.target.price}; ${chain.target.tickets_outstanding} tickets out)`,
    ),
    chain.closed ? null : h("button", { onclick: close, disabled: !chain.expired }, "Close the chain and cash out its tickets"),
  );
  return { el };
}
