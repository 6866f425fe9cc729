// The lobby, live: cash and casino tables and tournaments from ws/lobby/
// (a snapshot of the tables, then a line per change), tournaments first
// from the API.

import { Feed, api, rows, session } from "./api.js";
import { fill, h, when } from "./dom.js";
import { myTables, myTurns, onTurns } from "./turns.js";

export const GAMES = {
  "32-card-draw": "32 Card Draw",
  "five-card-draw": "Five Card Draw",
  "five-card-triple-draw": "Five Card Triple Draw",
  "2-7-single-draw": "2-7 Single Draw",
  "2-7-triple-draw": "2-7 Triple Draw",
  "a-5-single-draw": "A-5 Single Draw",
  "a-5-triple-draw": "A-5 Triple Draw",
};

export function gameName(game, betting) {
  const name = GAMES[game] || game;
  return betting ? `${name}, ${betting}` : name;
}

export async function lobbyView() {
  const tables = new Map();
  const tournaments = new Map();
  const casinos = new Map();
  for (const t of rows(await api("GET", "tournaments/"))) tournaments.set(t.id, t);
  const tableBody = h("tbody");
  const casinoBody = h("tbody");
  const tourBody = h("tbody");
  const status = h("span.status", { id: "lobby-status" }, "connecting");
  const tilesLink = h("p.tiles-link", { id: "tiles-link" });

  const drawTables = () => {
    const open = [...tables.values()].filter((t) => t.status !== "closed" && !t.tournament);
    const turns = new Set(myTurns().map((x) => x.id));
    const mine = myTables();
    fill(tilesLink, mine.length >= 2 ? h("a", { href: `#/tiles/${mine.slice(0, 4).join(",")}` }, `Tile my ${Math.min(4, mine.length)} tables`) : null);
    fill(
      tableBody,
      open.length
        ? open.map((t) =>
            h(
              turns.has(t.id) ? "tr.your-turn" : "tr",
              { dataset: { table: t.id } },
              h("td", {}, h("a", { href: `#/tables/${t.id}` }, t.name || `Table ${t.id}`), turns.has(t.id) ? h("span.turn-flag", {}, " Your turn") : null),
              h("td", {}, gameName(t.game, t.betting)),
              h("td", {}, `${t.small_blind}/${t.big_blind}${t.ante ? ` ante ${t.ante}` : ""}`),
              h("td", {}, `${t.players_seated}/${t.seats}`),
              h("td.num", {}, t.average_pot ?? "–"),
              h("td", {}, t.hand_number || "–"),
              h("td", {}, t.status),
            ),
          )
        : h("tr", {}, h("td", { colspan: 7 }, "No table is open.")),
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
        : h("tr", {}, h("td", { colspan: 5 }, "No casino table is open.")),
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
              h("td", {}, t.status.replaceAll("_", " ")),
              h("td", {}, `${t.entries}${t.max_players ? `/${t.max_players}` : ""}`),
              h("td", {}, `${t.buy_in}+${t.fee}${t.guarantee ? ` · ${t.guarantee} GTD` : ""}`),
              h("td", {}, t.sit_and_go ? "when full" : when(t.starts_at)),
              h("td", {}, t.level ?? "–"),
            ),
          )
        : h("tr", {}, h("td", { colspan: 7 }, "No tournament yet.")),
    );
  };

  const feed = new Feed("lobby/", {
    onStatus: (s) => (status.textContent = s),
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
      }
    },
  });
  drawTables();
  drawCasinos();
  drawTournaments();

  const el = h(
    "section.lobby",
    {},
    session.me ? null : h("p.hint", {}, h("a", { href: "#/signup" }, "Sign up"), " or ", h("a", { href: "#/login" }, "log in"), " to play; anyone may watch."),
    h("h1", {}, "Cash tables ", status),
    tilesLink,
    h(
      "div.scroll",
      {},
      h(
        "table.list",
        { id: "tables" },
        h("thead", {}, h("tr", {}, ["Table", "Game", "Blinds", "Seated", "Avg pot", "Hand", "Status"].map((c) => h("th", { scope: "col" }, c)))),
        tableBody,
      ),
    ),
    h("h1", {}, "Casino tables"),
    h(
      "div.scroll",
      {},
      h(
        "table.list",
        { id: "casino-tables" },
        h("thead", {}, h("tr", {}, ["Table", "Bets", "Jokers", "Boxes taken", "Round"].map((c) => h("th", { scope: "col" }, c)))),
        casinoBody,
      ),
    ),
    h("h1", {}, "Tournaments"),
    h(
      "div.scroll",
      {},
      h(
        "table.list",
        { id: "tournaments" },
        h("thead", {}, h("tr", {}, ["Tournament", "Game", "State", "Players", "Buy-in", "Start", "Level"].map((c) => h("th", { scope: "col" }, c)))),
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
