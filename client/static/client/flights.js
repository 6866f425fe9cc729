// A multi-flight event: its starting flights (field, mark, where each
// stopped, its bags, whether Day 2 has taken it in), Day 2 (ready, its
// players, chips and pool, the level it resumes at) and, for a player, the
// flights he may still enter and his bags, the one that goes through marked.

import { api, commandId } from "./api.js";
import { fill, h, notice } from "./dom.js";
import { tr } from "./i18n.js";

const when = (iso) => (iso ? new Date(iso).toLocaleString() : "");

export async function flightEventView(id) {
  const el = h("section.flight-event", {});
  const render = async () => fill(el, ...eventParts(await api("GET", `flight-events/${id}/`), enter));
  const enter = async (flight) => {
    try {
      await api("POST", `tournaments/${flight.id}/register/`, { command_id: commandId() });
      notice(tr("flights.entered", { label: flight.label }));
      await render();
    } catch (e) {
      notice(e.message, "error");
    }
  };
  await render();
  return { el };
}

/** The page's parts for ``event``; ``enter(flight)`` buys an entry. */
function eventParts(event, enter) {
  const stopped = (f) => (f.stopped ? tr("flights.stopped_at", { level: f.stopped_level, bags: f.bags, chips: f.chips_bagged }) : tr(`tournament.status.${f.status}`));
  const row = (f) =>
    h(
      "tr",
      { "data-flight": f.flight },
      h("td", {}, h("a", { href: `#/tournaments/${f.id}` }, f.label)),
      h("td", {}, when(f.starts_at)),
      h("td.num", {}, f.entries),
      h("td.num", {}, f.players_left),
      h("td.num", {}, f.mark),
      h("td.num", {}, f.prize_pool),
      h("td.state", {}, stopped(f), f.registration_open && f.status === "running" ? ` · ${tr("flights.late_open")}` : ""),
      h("td", {}, f.carried ? tr("flights.carried") : ""),
      h("td", {}, f.may_enter ? h("button.primary", { onclick: () => enter(f) }, tr("flights.enter")) : ""),
    );
  const head = [tr("flights.col_flight"), tr("flights.col_starts"), tr("flights.col_entries"), tr("flights.col_left"), tr("flights.col_mark"), tr("flights.col_pool"), tr("flights.col_state"), tr("flights.col_day_two"), ""];
  const d2 = event.day_two;
  const dayTwo = h(
    "section.day-two",
    { id: "day-two" },
    h("h2", {}, h("a", { href: `#/tournaments/${d2.id}` }, tr("flights.day_two"))),
    h("p", {}, d2.ready || d2.status !== "scheduled" ? tr(`tournament.status.${d2.status}`) : tr("flights.waiting", { carried: d2.flights_carried, flights: event.flights.length }), " · ", tr("flights.starts", { when: when(d2.started_at || d2.starts_at) })),
    h("p", {}, tr("flights.day_two_line", { players: d2.players, chips: d2.chips, forfeited: d2.forfeited_chips, pool: d2.prize_pool })),
    d2.resume_level ? h("p", {}, tr("flights.resumes", { level: d2.resume_level })) : null,
  );
  const you = event.you;
  const bag = (b) => h("li", { "data-bag": b.flight }, tr("flights.bag", { label: b.label, stack: b.stack }), " ", b.goes_through ? h("strong", {}, tr("flights.goes_through")) : h("em", {}, tr("flights.forfeited")));
  const yours = you
    ? h("section.your-bags", { id: "your-bags" }, h("h2", {}, tr("flights.your_bags")), you.bags.length ? h("ul", {}, you.bags.map(bag)) : h("p", {}, tr("flights.no_bags")))
    : null;
  const rules = tr(event.carry === "best" ? "flights.rules_best" : "flights.rules_latest", { percent: event.advance_percent }) + " " + tr(event.re_entry ? "flights.re_entry_yes" : "flights.re_entry_no");
  return [
    h("h1", {}, event.name),
    h("p", {}, rules),
    h("p", {}, tr("flights.pool", { pool: event.prize_pool })),
    h("table.list", { id: "flights" }, h("thead", {}, h("tr", {}, head.map((c) => h("th", { scope: "col" }, c)))), h("tbody", {}, event.flights.map(row))),
    dayTwo,
    yours,
  ];
}

/** The events as links, for the staff page and a tournament's page. */
export function flightEventLink(event) {
  return h("a", { href: `#/flight-events/${event.id}` }, event.name);
}
