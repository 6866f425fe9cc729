// Cards as the page shows them.  Only a card the server sent face up has
// a face (and a data-card attribute); every other is a back.

import { h } from "./dom.js";

const SUITS = { s: ["♠", "spades"], h: ["♥", "hearts"], d: ["♦", "diamonds"], c: ["♣", "clubs"] };
const RANKS = { T: "10", J: "J", Q: "Q", K: "K", A: "A" };

export function cardName(code) {
  if (code.startsWith("X")) return "joker";
  const [symbol, suit] = SUITS[code[1]];
  return `${RANKS[code[0]] || code[0]}${symbol} (${suit})`;
}

/** A face-up card; `props` may make it a button (the draw). */
export function face(code, props = {}) {
  if (code.startsWith("X")) {
    return h("span.card.face.joker", { dataset: { card: code }, title: "joker", ...props }, "★");
  }
  const [symbol] = SUITS[code[1]];
  const red = code[1] === "h" || code[1] === "d";
  return h(
    `span.card.face${red ? ".red" : ""}`,
    { dataset: { card: code }, "aria-label": cardName(code), ...props },
    h("span.rank", {}, RANKS[code[0]] || code[0]),
    h("span.suit", {}, symbol),
  );
}

/** A card seen from behind. */
export function back() {
  return h("span.card.back", { "aria-label": "hidden card" });
}

export function cardsText(codes) {
  return codes.map((c) => (c.startsWith("X") ? "★" : `${RANKS[c[0]] || c[0]}${SUITS[c[1]][0]}`)).join(" ");
}
