// Cards as the page shows them.  Only a card the server sent face up has
// a face (and a data-card attribute); every other is a back.

import { h } from "./dom.js";
import { tr } from "./i18n.js";

const SUITS = { s: ["♠", "suit.spades"], h: ["♥", "suit.hearts"], d: ["♦", "suit.diamonds"], c: ["♣", "suit.clubs"] };
const RANKS = { T: "10", J: "J", Q: "Q", K: "K", A: "A" };

export function cardName(code) {
  if (code.startsWith("X")) return tr("card.joker");
  const [symbol, suit] = SUITS[code[1]];
  return `${RANKS[code[0]] || code[0]}${symbol} (${tr(suit)})`;
}

/** A face-up card; `props` may make it a button (the draw). */
export function face(code, props = {}) {
  if (code.startsWith("X")) {
    return h("span.card.face.joker", { dataset: { card: code }, role: "img", "aria-label": tr("card.joker"), title: tr("card.joker"), ...props }, "★");
  }
  const [symbol] = SUITS[code[1]];
  const red = code[1] === "h" || code[1] === "d";
  return h(
    `span.card.face${red ? ".red" : ""}`,
    { dataset: { card: code }, role: "img", "aria-label": cardName(code), ...props },
    h("span.rank", {}, RANKS[code[0]] || code[0]),
    h("span.suit", {}, symbol),
  );
}

/** A card seen from behind. */
export function back() {
  return h("span.card.back", { role: "img", "aria-label": tr("card.hidden") });
}

export function cardsText(codes) {
  return codes.map((c) => (c.startsWith("X") ? "★" : `${RANKS[c[0]] || c[0]}${SUITS[c[1]][0]}`)).join(" ");
}

const ORDER = "23456789TJQKA";
const plural = (rank) => tr(`rank.plural.${rank}`);
const single = (rank) => tr(`rank.${rank}`);

/** The ranks of a shown hand by how many of each, most first, then highest. */
function groups(codes) {
  const counts = new Map();
  for (const c of codes) if (!c.startsWith("X")) counts.set(c[0], (counts.get(c[0]) || 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || ORDER.indexOf(b[0]) - ORDER.indexOf(a[0]));
}

/** The top card of a straight: a wheel (A-2-3-4-5, or A-7-8-9-10 in a
 * 32-card deck) is topped by its second card, the ace playing low. */
function straightTop(ranks) {
  const sorted = [...ranks].sort((a, b) => ORDER.indexOf(b) - ORDER.indexOf(a));
  const wheel = sorted[0] === "A" && sorted[1] !== "K";
  return wheel ? sorted[1] : sorted[0];
}

function category(codes) {
  const g = groups(codes);
  const shape = g.map(([, n]) => n).join("");
  const flush = codes.length === 5 && new Set(codes.map((c) => c[1])).size === 1;
  if (shape === "41") return "four-of-a-kind";
  if (shape === "32") return "full-house";
  if (shape === "311") return "three-of-a-kind";
  if (shape === "221") return "two-pair";
  if (shape === "2111") return "one-pair";
  const idx = g.map(([r]) => ORDER.indexOf(r)).sort((a, b) => a - b);
  const run = idx.every((x, i) => i === 0 || x === idx[i - 1] + 1);
  const wheel = idx.at(-1) === 12 && (idx.slice(0, 4).join() === "0,1,2,3" || idx.slice(0, 4).join() === "5,6,7,8");
  const straight = codes.length === 5 && (run || wheel);
  if (straight && flush) return "straight-flush";
  if (flush) return "flush";
  if (straight) return "straight";
  return "high-card";
}

/**
 * A shown hand in words with its ranks: "one pair, kings", "two pair,
 * aces and sevens", "flush, queen high"; `low` names a lowball hand by
 * its two highest cards ("eight-six low").  `name` is the server's
 * category when it gave one.
 */
export function handText(codes, name = null, low = false) {
  const g = groups(codes);
  if (!g.length) return name ? tr(`hand.${name}`) : "";
  if (low && g.length === 5) return tr("hand.low", { first: single(g[0][0]), second: single(g[1][0]) });
  const kind = name || category(codes);
  const [a, b] = [g[0]?.[0], g[1]?.[0]];
  const detail = {
    "one-pair": () => plural(a),
    "two-pair": () => tr("hand.two_ranks", { first: plural(a), second: plural(b) }),
    "three-of-a-kind": () => plural(a),
    "four-of-a-kind": () => plural(a),
    "full-house": () => tr("hand.full_of", { first: plural(a), second: plural(b) }),
    "high-card": () => single(a),
    flush: () => tr("hand.high", { rank: single(a) }),
    straight: () => tr("hand.high", { rank: single(straightTop(g.map(([r]) => r))) }),
    "straight-flush": () => tr("hand.high", { rank: single(straightTop(g.map(([r]) => r))) }),
  }[kind];
  return detail ? `${tr(`hand.${kind}`)}, ${detail()}` : tr(`hand.${kind}`);
}

/** Lowball games name a shown hand by its highest cards ("eight-six low"). */
export function isLowball(game) {
  return /^(2-7|a-5)-/.test(game || "");
}
