// One tournament: its structure and prizes, the clock, standings, the
// player's entry and table; register, unregister, rebuy and add-on; for
// directors, the controls.  Live from ws/tournaments/<id>/ (each update
// frame brings the API's view again).

import { Feed, api, commandId, rows, session } from "./api.js";
import { fill, form, h, notice, when } from "./dom.js";
import { bigClock, glance } from "./glance.js";
import { gameName } from "./lobby.js";

function isDirector() {
  return (session.me?.roles || []).includes("tournament_director");
}

function ordinal(n) {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${tail}`;
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
    if (!c) return view.status === "registering" ? `Starts ${view.sit_and_go ? "when full" : when(view.starts_at)}` : view.status.replaceAll("_", " ");
    const left = c.ends_at ? Math.max(0, Math.round((Date.parse(c.ends_at) - Date.now()) / 1000)) : c.seconds_left;
    const mmss = left === null || left === undefined ? "" : `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    const next = c.next_level ? ` · next ${c.next_level.small_blind}/${c.next_level.big_blind}` : "";
    const state = c.paused ? " · paused" : c.on_break ? " · on break" : "";
    const time = mmss ? ` · ${mmss} left` : " · last level";
    return `Level ${c.level}: ${c.small_blind}/${c.big_blind}${c.ante ? ` ante ${c.ante}` : ""}${time}${next}${state}`;
  };

  const price = () => (view.bounty ? `${view.buy_in}+${view.bounty.amount}+${view.fee}` : `${view.buy_in}+${view.fee}`);
  const bountyLine = () => {
    const b = view.bounty;
    if (!b) return "";
    return b.progressive ? ` · progressive knockout: bounty ${b.amount}, ${b.paid_now_percent}% of a head paid at once` : ` · knockout: bounty ${b.amount}`;
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
      h("h2", {}, deal.status === "offered" ? `Deal offered (${deal.kind.replace("_", "-")}): play waits for every answer` : "Deal made"),
      h("ul", {}, deal.amounts.map((a) => h("li", {}, `${named[a.player] || `player ${a.player}`}: ${a.amount}`, deal.accepted.includes(a.player) ? " · accepted" : ""))),
      deal.left_to_play ? h("p", {}, `Left to play for: ${deal.left_to_play}, to the winner`) : null,
      answer ? h("p.actions", {}, h("button.primary", { id: "deal-accept", onclick: () => command("deal-accept") }, "Accept the deal"), h("button", { id: "deal-decline", onclick: () => command("deal-decline") }, "Decline")) : null,
    );
  };

  const entryLine = (you, standings) => {
    if (view.status === "finished" || view.status === "cancelled") {
      const mine = standings.find((s) => s.player === session.me?.id);
      return mine ? `You finished ${ordinal(mine.place)}.` : "It is over.";
    }
    if (view.status === "registering") return `You are registered (paid ${you.paid}).`;
    const head = view.bounty ? ` · bounty on you ${you.bounty} · bounties won ${you.bounty_won}` : "";
    return you.in ? `You are in: stack ${you.stack}${head}` : `You are out.${view.bounty ? ` Bounties won ${you.bounty_won}.` : ""}`;
  };

  // Before the start: who registered of the seats there are; after it:
  // who is left of the entries.
  const playersLine = () => {
    if (view.status !== "registering") return `Players left ${view.players_left ?? view.entries} of ${view.entries} entries`;
    const seats = view.sit_and_go ? `${view.max_players} seats` : `${view.min_players}–${view.max_players} players`;
    return `Registered ${view.entries} of ${seats}`;
  };

  const draw = (standings) => {
    if (isDirector()) drawClockButtons();
    const you = view.you;
    const me = session.me;
    const buttons = [];
    if (me && view.registration_open && (!you || !you.in)) buttons.push(h("button.primary", { id: "register", onclick: () => command("register") }, `Register (${price()})`));
    if (me && you && view.status === "registering") buttons.push(h("button", { id: "unregister", onclick: () => command("unregister") }, "Unregister"));
    if (you?.may_rebuy) buttons.push(h("button", { onclick: () => command("rebuy") }, "Rebuy"));
    if (you?.may_add_on) buttons.push(h("button", { onclick: () => command("add-on") }, "Add-on"));

    fill(
      body,
      h("h1", {}, view.name),
      h("p.hint", {}, `${gameName(view.game, view.betting)} · buy-in ${price()} · stack ${view.starting_stack}`, bountyLine(), view.satellite_target ? ` · satellite to tournament ${view.satellite_target}` : ""),
      h("p.clock", { id: "tournament-clock" }, clockLine()),
      glance(view, standings, me),
      h("p", { id: "tournament-players" }, `${playersLine()} · prize pool ${view.prize_pool}${view.guarantee ? ` (${view.guarantee} guaranteed)` : ""}`),
      you
        ? h("p", { id: "your-entry" }, entryLine(you, standings), you.table_id ? [" · ", h("a", { href: `#/tables/${you.table_id}` }, `your table (${you.table}, seat ${you.seat})`)] : "")
        : null,
      h("p.actions", {}, buttons),
      view.status === "running" ? h("h2", {}, "Tables") : null,
      h("ul", {}, (view.status === "running" ? view.tables_in_play : []).map((t) => h("li", {}, t.table_id ? h("a", { href: `#/tables/${t.table_id}` }, `Table ${t.number}`) : `Table ${t.number}`, ` (${t.players})`))),
      h("h2", {}, "Standings"),
      h(
        "ol",
        { id: "standings" },
        standings.map((s) =>
          h(
            "li",
            { value: s.place },
            `${s.name}${s.stack !== undefined && s.stack !== null ? ` ${s.stack}` : ""}`,
            view.bounty ? h("span.bounty", {}, ` · bounty ${s.bounty} · won ${s.bounty_won}`) : null,
            isDirector() ? h("span.hint", {}, ` (player ${s.player})`) : null,
          ),
        ),
      ),
      dealBox(standings),
      h("h2", {}, "Prizes"),
      h("ol", {}, view.prizes.map((p) => h("li", {}, p.cash ? `${p.cash}` : "", p.ticket ? ` a seat in ${view.satellite_target || "the target tournament"}` : "", p.consolation ? ` a ticket into ${p.consolation}` : ""))),
      isDirector() ? directorBox : null,
      h(
        "details.structure",
        { id: "structure" },
        h("summary", {}, `Structure (${view.structure.levels.length} levels)`),
        h(
          "div.scroll",
          {},
          h(
            "table.list",
            {},
            h("thead", {}, h("tr", {}, ["Level", "Blinds", "Ante", "Minutes"].map((c) => h("th", { scope: "col" }, c)))),
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
              ? h("button", { id: "resume", onclick: () => command("resume") }, "Resume")
              : h("button", { id: "pause", onclick: () => command("pause") }, "Pause"),
            h("button", { onclick: () => command("add-time", { seconds: 60 }) }, "+1 min"),
          ]
        : null,
      ["finished", "cancelled"].includes(view.status)
        ? null
        : h("button.danger", { id: "cancel", onclick: () => confirm("Cancel this tournament?") && command("cancel") }, "Cancel tournament"),
    );
  };
  const nameOf = (player) => standingsNow.find((x) => x.player === player)?.name || `player ${player}`;
  const disqualify = form(
    [{ name: "player", label: "Player number", type: "number", min: 1 }],
    "Disqualify",
    (v) => confirm(`Disqualify ${nameOf(v.player)} (player ${v.player})? He is out of the tournament.`) && command("disqualify", v),
    { id: "disqualify-form" },
  );
  disqualify.querySelector("button[type=submit]").className = "danger";
  fill(
    directorBox,
    h("h2", {}, "Director"),
    clockButtons,
    h(
      "div.director-forms",
      {},
      form(
        [
          { name: "player", label: "Player number", type: "number", min: 1 },
          { name: "table", label: "To table", type: "number", min: 1 },
          { name: "seat", label: "Seat", type: "number", min: 1 },
        ],
        "Move player",
        (v) => command("move", v),
        { id: "move-form" },
      ),
      disqualify,
      form(
        [
          { name: "kind", label: "Deal (icm, chip_chop)", value: "icm" },
          { name: "left_to_play", label: "Left to play for", type: "number", min: 0, value: 0 },
        ],
        "Offer a deal",
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
