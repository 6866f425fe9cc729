// One tournament: its structure and prizes, the clock, standings, the
// player's entry and table; register, unregister, rebuy and add-on; for
// directors, the controls.  Live from ws/tournaments/<id>/ (each update
// frame brings the API's view again).

import { Feed, api, commandId, rows, session } from "./api.js";
import { fill, form, h, notice, when } from "./dom.js";
import { bigClock, glance, ordinal } from "./glance.js";
import { gameName } from "./lobby.js";
import { tr } from "./i18n.js";

function isDirector() {
  return (session.me?.roles || []).includes("tournament_director");
}

export async function tournamentView(id) {
  const body = h("div");
  const directorBox = h("div.director");
  const el = h("section.tournament", { id: "tournament" }, body);
  let timer = null;
  let view = null;
  let standingsNow = [];

  const command = async (name, body = {}) => {
    try {
      await api("POST", `tournaments/${id}/${name}/`, { command_id: commandId(), ...body });
      await load();
    } catch (e) {
      notice(e.message, "error");
    }
  };

  const load = async () => {
    view = await api("GET", `tournaments/${id}/`);
    standingsNow = rows(await api("GET", `tournaments/${id}/standings/`));
    draw(standingsNow);
  };

  const clockLine = () => {
    const c = view.clock;
    if (!c) return view.status === "registering" ? tr("tour.starts", { when: view.sit_and_go ? tr("lobby.when_full") : when(view.starts_at) }) : tr(`tournament.status.${view.status}`);
    const left = c.ends_at ? Math.max(0, Math.round((Date.parse(c.ends_at) - Date.now()) / 1000)) : c.seconds_left;
    const mmss = left === null || left === undefined ? "" : `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    const next = c.next_level ? ` · ${tr("tour.next", { small: c.next_level.small_blind, big: c.next_level.big_blind })}` : "";
    const state = c.paused ? ` · ${tr("glance.paused")}` : c.on_break ? ` · ${tr("tour.on_break")}` : "";
    const time = mmss ? ` · ${tr("tour.left", { time: mmss })}` : ` · ${tr("glance.last_level")}`;
    const ante = c.ante ? ` ${tr("table.ante", { ante: c.ante })}` : "";
    return `${tr("tour.level", { level: c.level })}: ${c.small_blind}/${c.big_blind}${ante}${time}${next}${state}`;
  };

  const price = () => (view.bounty ? `${view.buy_in}+${view.bounty.amount}+${view.fee}` : `${view.buy_in}+${view.fee}`);
  const bountyLine = () => {
    const b = view.bounty;
    if (!b) return "";
    return b.progressive ? ` · ${tr("tour.bounty_pko", { amount: b.amount, percent: b.paid_now_percent })}` : ` · ${tr("tour.bounty_knockout", { amount: b.amount })}`;
  };

  const dealBox = (standings) => {
    const deal = view.deal;
    if (!deal) return null;
    const named = Object.fromEntries(standings.map((s) => [s.player, s.name]));
    const me = session.me?.id;
    const mine = deal.amounts.find((a) => a.player === me);
    const answer = deal.status === "offered" && mine && !deal.accepted.includes(me);
    return h(
      "div.deal",
      { id: "deal" },
      h("h2", {}, deal.status === "offered" ? tr("tour.deal_offered", { kind: deal.kind.replace("_", "-") }) : tr("tour.deal_made")),
      h("ul", {}, deal.amounts.map((a) => h("li", {}, `${named[a.player] || tr("tour.player", { id: a.player })}: ${a.amount}`, deal.accepted.includes(a.player) ? ` · ${tr("tour.deal_accepted")}` : ""))),
      deal.left_to_play ? h("p", {}, tr("tour.left_to_play_line", { amount: deal.left_to_play })) : null,
      answer ? h("p.actions", {}, h("button.primary", { id: "deal-accept", onclick: () => command("deal-accept") }, tr("tour.deal_accept")), h("button", { id: "deal-decline", onclick: () => command("deal-decline") }, tr("tour.deal_decline"))) : null,
    );
  };

  const entryLine = (you, standings) => {
    if (view.status === "finished" || view.status === "cancelled") {
      const mine = standings.find((s) => s.player === session.me?.id);
      return mine ? tr("tour.you_finished", { place: ordinal(mine.place) }) : tr("tour.over");
    }
    if (view.status === "registering") return tr("tour.registered", { paid: you.paid });
    const head = view.bounty ? ` · ${tr("tour.bounty_you", { bounty: you.bounty, won: you.bounty_won })}` : "";
    return you.in ? `${tr("tour.you_in", { stack: you.stack })}${head}` : `${tr("tour.you_out")}${view.bounty ? ` ${tr("tour.bounties_won", { won: you.bounty_won })}` : ""}`;
  };

  // Before the start: who registered of the seats there are; after it:
  // who is left of the entries.
  const playersLine = () => {
    if (view.status !== "registering") return tr("tour.players_left", { left: view.players_left ?? view.entries, entries: view.entries });
    const seats = view.sit_and_go ? tr("tour.seats", { n: view.max_players }) : tr("tour.players_range", { min: view.min_players, max: view.max_players });
    return tr("tour.registered_of", { entries: view.entries, seats });
  };

  const draw = (standings) => {
    if (isDirector()) drawClockButtons();
    const you = view.you;
    const me = session.me;
    const buttons = [];
    if (me && view.registration_open && (!you || !you.in)) buttons.push(h("button.primary", { id: "register", onclick: () => command("register") }, `${tr("tour.register")} (${price()})`));
    if (me && you && view.status === "registering") buttons.push(h("button", { id: "unregister", onclick: () => command("unregister") }, tr("tour.unregister")));
    if (you?.may_rebuy) buttons.push(h("button", { onclick: () => command("rebuy") }, tr("tour.rebuy")));
    if (you?.may_add_on) buttons.push(h("button", { onclick: () => command("add-on") }, tr("tour.add_on")));

    fill(
      body,
      h("h1", {}, view.name),
      view.flight_event ? h("p", { id: "flight-event" }, h("a", { href: `#/flight-events/${view.flight_event.id}` }, tr("flights.event", { name: view.flight_event.name }))) : null,
      h("p.hint", {}, `${gameName(view.game, view.betting)} · ${tr("tour.buy_in_price", { price: price() })} · ${tr("tour.stack", { stack: view.starting_stack })}`, bountyLine(), view.satellite_target ? ` · ${tr("tour.satellite_to", { target: view.satellite_target })}` : ""),
      h("p.clock", { id: "tournament-clock" }, clockLine()),
      glance(view, standings, me),
      h("p", { id: "tournament-players" }, `${playersLine()} · ${tr("tour.prize_pool", { pool: view.prize_pool })}${view.guarantee ? ` (${tr("tour.guaranteed", { amount: view.guarantee })})` : ""}`),
      you
        ? h("p", { id: "your-entry" }, entryLine(you, standings), you.table_id ? [" · ", h("a", { href: `#/tables/${you.table_id}` }, tr("tour.your_table", { table: you.table, seat: you.seat }))] : "")
        : null,
      h("p.actions", {}, buttons),
      view.status === "running" ? h("h2", {}, tr("hands.tables")) : null,
      h("ul", {}, (view.status === "running" ? view.tables_in_play : []).map((t) => h("li", {}, t.table_id ? h("a", { href: `#/tables/${t.table_id}` }, tr("table.numbered", { id: t.number })) : tr("table.numbered", { id: t.number }), ` (${t.players})`))),
      h("h2", {}, tr("tour.standings")),
      h(
        "ol",
        { id: "standings" },
        standings.map((s) =>
          h(
            "li",
            { value: s.place },
            `${s.name}${s.stack !== undefined && s.stack !== null ? ` ${s.stack}` : ""}`,
            view.bounty ? h("span.bounty", {}, ` · ${tr("tour.bounty_standing", { bounty: s.bounty, won: s.bounty_won })}`) : null,
            isDirector() ? h("span.hint", {}, ` (${tr("tour.player", { id: s.player })})`) : null,
          ),
        ),
      ),
      dealBox(standings),
      h("h2", {}, tr("tour.prizes")),
      h("ol", {}, view.prizes.map((p) => h("li", {}, p.cash ? `${p.cash}` : "", p.ticket ? ` ${tr("glance.seat_in", { target: view.satellite_target || tr("glance.target_tournament") })}` : "", p.consolation ? ` ${tr("tour.consolation", { target: p.consolation })}` : ""))),
      isDirector() ? directorBox : null,
      h(
        "details.structure",
        { id: "structure" },
        h("summary", {}, tr("tour.structure", { n: view.structure.levels.length })),
        h(
          "div.scroll",
          {},
          h(
            "table.list",
            {},
            h("thead", {}, h("tr", {}, [tr("lobby.col.level"), tr("lobby.col.blinds"), tr("tour.ante"), tr("tour.minutes")].map((c) => h("th", { scope: "col" }, c)))),
            h("tbody", {}, view.structure.levels.map((l) => h("tr", {}, h("td", {}, l.level), h("td", {}, `${l.small_blind}/${l.big_blind}`), h("td", {}, l.ante), h("td", {}, l.minutes)))),
          ),
        ),
      ),
    );
  };

  // The director's panel: built once (what he types stays), its clock
  // buttons drawn again with each update (Pause or Resume, as applies).
  const clockButtons = h("div.actions");
  const drawClockButtons = () => {
    const paused = Boolean(view.clock?.paused);
    fill(
      clockButtons,
      view.status === "running"
        ? [
            paused
              ? h("button", { id: "resume", onclick: () => command("resume") }, tr("tour.resume"))
              : h("button", { id: "pause", onclick: () => command("pause") }, tr("tour.pause")),
            h("button", { onclick: () => command("add-time", { seconds: 60 }) }, tr("tour.add_minute")),
          ]
        : null,
      ["finished", "cancelled"].includes(view.status)
        ? null
        : h("button.danger", { id: "cancel", onclick: () => confirm(tr("tour.cancel_confirm")) && command("cancel") }, tr("tour.cancel")),
    );
  };
  const nameOf = (player) => standingsNow.find((x) => x.player === player)?.name || tr("tour.player", { id: player });
  const disqualify = form(
    [{ name: "player", label: tr("cashier.player_number"), type: "number", min: 1 }],
    tr("tour.disqualify"),
    (v) => confirm(tr("tour.disqualify_confirm", { name: nameOf(v.player), id: v.player })) && command("disqualify", v),
    { id: "disqualify-form" },
  );
  disqualify.querySelector("button[type=submit]").className = "danger";
  fill(
    directorBox,
    h("h2", {}, tr("tour.director")),
    clockButtons,
    h(
      "div.director-forms",
      {},
      form(
        [
          { name: "player", label: tr("cashier.player_number"), type: "number", min: 1 },
          { name: "table", label: tr("tour.to_table"), type: "number", min: 1 },
          { name: "seat", label: tr("tour.seat"), type: "number", min: 1 },
        ],
        tr("tour.move"),
        (v) => command("move", v),
        { id: "move-form" },
      ),
      disqualify,
      form(
        [
          { name: "kind", label: tr("tour.deal_kind"), value: "icm" },
          { name: "left_to_play", label: tr("tour.left_to_play"), type: "number", min: 0, value: 0 },
        ],
        tr("tour.deal_offer"),
        (v) => command("deal-propose", { kind: v.kind, left_to_play: Number(v.left_to_play) || 0 }),
        { id: "deal-form" },
      ),
    ),
  );

  await load();
  const feed = new Feed(`tournaments/${id}/`, {
    onFrame: (frame) => {
      if (frame.type === "update") load().catch(() => {});
    },
  });
  timer = setInterval(() => {
    const node = document.getElementById("tournament-clock");
    if (node && view) node.textContent = clockLine();
    const big = document.getElementById("big-clock");
    if (big && view) big.textContent = bigClock(view);
  }, 1000);
  return {
    el,
    stop: () => {
      feed.close();
      clearInterval(timer);
    },
  };
}
