// The lobby, live: cash and casino tables and tournaments from ws/lobby/
// (a snapshot of the tables, then a line per change), tournaments first
// from the API, and what is coming up: the tournaments still to start at
// a set time, soonest first (those the schedules created say which).

import { Feed, api, rows, session } from "./api.js";
import { fill, h, when } from "./dom.js";
import { myTables, myTurns, onTurns } from "./turns.js";
import { feedStatus, tr } from "./i18n.js";

const GAME_KEYS = ["32-card-draw", "five-card-draw", "five-card-triple-draw", "2-7-single-draw", "2-7-triple-draw", "a-5-single-draw", "a-5-triple-draw"];

/** The games by key, named in the page's language. */
export const GAMES = Object.fromEntries(GAME_KEYS.map((key) => [key, tr(`game.${key}`)]));

export function gameName(game, betting) {
  const name = GAMES[game] || game;
  return betting ? `${name}, ${tr(`betting.${betting}`)}` : name;
}

export async function lobbyView() {
  const tables = new Map();
  const tournaments = new Map();
  const casinos = new Map();
  for (const t of rows(await api("GET", "tournaments/"))) tournaments.set(t.id, t);
  const coming = new Map();
  for (const t of rows(await api("GET", "tournaments/coming/"))) coming.set(t.id, t);
  const comingBody = h("tbody");
  const tableBody = h("tbody");
  const casinoBody = h("tbody");
  const tourBody = h("tbody");
  const status = h("span.status", { id: "lobby-status" }, tr("feed.connecting"));
  const tilesLink = h("p.tiles-link", { id: "tiles-link" });

  const drawTables = () => {
    const open = [...tables.values()].filter((t) => t.status !== "closed" && !t.tournament);
    const turns = new Set(myTurns().map((x) => x.id));
    const mine = myTables();
    fill(tilesLink, mine.length >= 2 ? h("a", { href: `#/tiles/${mine.slice(0, 4).join(",")}` }, tr("lobby.tile_mine", { n: Math.min(4, mine.length) })) : null);
    fill(
      tableBody,
      open.length
        ? open.map((t) =>
            h(
              turns.has(t.id) ? "tr.your-turn" : "tr",
              { dataset: { table: t.id } },
              h("td", {}, h("a", { href: `#/tables/${t.id}` }, t.name || tr("table.numbered", { id: t.id })), turns.has(t.id) ? h("span.turn-flag", {}, ` ${tr("turn.yours")}`) : null),
              h("td", {}, gameName(t.game, t.betting)),
              h("td", {}, `${t.small_blind}/${t.big_blind}${t.ante ? ` ${tr("table.ante", { ante: t.ante })}` : ""}`),
              h("td", {}, `${t.players_seated}/${t.seats}`),
              h("td.num", {}, t.average_pot ?? "–"),
              h("td", {}, t.hand_number || "–"),
              h("td", {}, tr(`table.status.${t.status}`)),
            ),
          )
        : h("tr", {}, h("td", { colspan: 7 }, tr("lobby.no_tables"))),
    );
  };
  const drawCasinos = () => {
    const open = [...casinos.values()].filter((t) => t.status !== "closed");
    fill(
      casinoBody,
      open.length
        ? open.map((t) =>
            h(
              "tr",
              { dataset: { casino: t.id } },
              h("td", {}, h("a", { href: `#/casino/${t.id}` }, t.name)),
              h("td", {}, `${t.min_bet}–${t.max_bet}`),
              h("td", {}, String(t.jokers)),
              h("td", {}, `${t.players_seated}/${t.boxes}`),
              h("td", {}, t.round_number || "–"),
            ),
          )
        : h("tr", {}, h("td", { colspan: 5 }, tr("lobby.no_casinos"))),
    );
  };
  const drawTournaments = () => {
    const list = [...tournaments.values()];
    fill(
      tourBody,
      list.length
        ? list.map((t) =>
            h(
              "tr",
              {},
              h("td", {}, h("a", { href: `#/tournaments/${t.id}` }, t.name)),
              h("td", {}, gameName(t.game, t.betting)),
              h("td", {}, tr(`tournament.status.${t.status}`)),
              h("td", {}, `${t.entries}${t.max_players ? `/${t.max_players}` : ""}`),
              h("td", {}, `${t.buy_in}+${t.fee}${t.guarantee ? ` · ${tr("lobby.guarantee", { amount: t.guarantee })}` : ""}`),
              h("td", {}, t.sit_and_go ? tr("lobby.when_full") : when(t.starts_at)),
              h("td", {}, t.level ?? "–"),
            ),
          )
        : h("tr", {}, h("td", { colspan: 7 }, tr("lobby.no_tournaments"))),
    );
  };

  const drawComing = () => {
    const list = [...coming.values()].sort((a, b) => a.starts_at.localeCompare(b.starts_at) || a.id - b.id);
    fill(
      comingBody,
      list.length
        ? list.map((t) =>
            h(
              "tr",
              { dataset: { tournament: t.id } },
              h("td", {}, when(t.starts_at)),
              h("td", {}, h("a", { href: `#/tournaments/${t.id}` }, t.name)),
              h("td", {}, gameName(t.game, t.betting)),
              h("td", {}, `${t.buy_in}+${t.fee}${t.guarantee ? ` · ${tr("lobby.guarantee", { amount: t.guarantee })}` : ""}`),
              h("td", {}, `${t.entries}${t.max_players ? `/${t.max_players}` : ""}`),
              h("td", {}, t.schedule || "–"),
            ),
          )
        : h("tr", {}, h("td", { colspan: 6 }, tr("lobby.nothing_coming"))),
    );
  };
  /** A tournament's change: still coming (a start to come, taking
   * entries), it is listed with its new line; started or called off, not. */
  const comingChanged = (t) => {
    const still = !t.sit_and_go && t.starts_at && ["scheduled", "registering"].includes(t.status) && new Date(t.starts_at) > new Date();
    if (still) coming.set(t.id, { ...coming.get(t.id), ...t });
    else coming.delete(t.id);
    drawComing();
  };

  const feed = new Feed("lobby/", {
    onStatus: (s) => (status.textContent = feedStatus(s)),
    onFrame: (frame) => {
      if (frame.type === "snapshot") {
        tables.clear();
        for (const t of frame.tables) tables.set(t.id, t);
        casinos.clear();
        for (const t of frame.casino_tables || []) casinos.set(t.id, t);
        drawTables();
        drawCasinos();
      } else if (frame.type === "lobby") {
        tables.set(frame.table.id, frame.table);
        drawTables();
      } else if (frame.type === "casino_lobby") {
        casinos.set(frame.table.id, frame.table);
        drawCasinos();
      } else if (frame.type === "tournament") {
        tournaments.set(frame.tournament.id, frame.tournament);
        drawTournaments();
        comingChanged(frame.tournament);
      }
    },
  });
  drawTables();
  drawCasinos();
  drawTournaments();
  drawComing();

  const el = h(
    "section.lobby",
    {},
    session.me ? null : h("p.hint", {}, h("a", { href: "#/signup" }, tr("auth.signup")), ` ${tr("lobby.or")} `, h("a", { href: "#/login" }, tr("lobby.log_in")), ` ${tr("lobby.to_play")}`),
    h("h1", {}, `${tr("lobby.cash_tables")} `, status),
    tilesLink,
    h(
      "div.scroll",
      {},
      h(
        "table.list",
        { id: "tables" },
        h("thead", {}, h("tr", {}, ["table", "game", "blinds", "seated", "avg_pot", "hand", "status"].map((c) => h("th", { scope: "col" }, tr(`lobby.col.${c}`))))),
        tableBody,
      ),
    ),
    h("h1", {}, tr("lobby.casino_tables")),
    h(
      "div.scroll",
      {},
      h(
        "table.list",
        { id: "casino-tables" },
        h("thead", {}, h("tr", {}, ["table", "bets", "jokers", "boxes_taken", "round"].map((c) => h("th", { scope: "col" }, tr(`lobby.col.${c}`))))),
        casinoBody,
      ),
    ),
    h("h1", {}, tr("lobby.coming_up")),
    h(
      "div.scroll",
      {},
      h(
        "table.list",
        { id: "coming-up" },
        h("thead", {}, h("tr", {}, ["start", "tournament", "game", "buy_in", "players", "schedule"].map((c) => h("th", { scope: "col" }, tr(`lobby.col.${c}`))))),
        comingBody,
      ),
    ),
    h("h1", {}, tr("lobby.tournaments")),
    h(
      "div.scroll",
      {},
      h(
        "table.list",
        { id: "tournaments" },
        h("thead", {}, h("tr", {}, ["tournament", "game", "state", "players", "buy_in", "start", "level"].map((c) => h("th", { scope: "col" }, tr(`lobby.col.${c}`))))),
        tourBody,
      ),
    ),
  );
  const off = onTurns(drawTables);
  return {
    el,
    stop: () => {
      feed.close();
      off();
    },
  };
}
