// Hand histories: a table's hands, one hand replayed step by step, and
// the deck-commitment check (docs/fair-deal.md) run here, in the browser,
// with WebCrypto's SHA-256: each card this viewer may see is proved to
// have sat at its place of a deck committed to before anyone acted.

import { api, rows } from "./api.js";
import { cardsText, face, handText, isLowball } from "./cards.js";
import { fill, h, when } from "./dom.js";
import { describe } from "./events.js";

export async function handsView() {
  const table = new URLSearchParams(location.hash.split("?")[1] || "").get("table");
  const tables = rows(await api("GET", "tables/"));
  const list = h("tbody");
  const pick = h(
    "nav",
    { "aria-label": "Tables" },
    h("ul.picks", {}, tables.map((t) => h("li", {}, h("a.pick", { href: `#/hands?table=${t.id}`, "aria-current": String(t.id) === table ? "page" : null }, t.name || `Table ${t.id}`)))),
  );
  if (table) {
    const hands = rows(await api("GET", `hands/?table=${table}`));
    fill(
      list,
      hands.length
        ? hands.map((x) =>
            h(
              "tr",
              {},
              h("td", {}, h("a", { href: `#/hands/${x.id}` }, `#${x.number}`)),
              h("td", {}, x.phase || ""),
              h("td", {}, when(x.started_at)),
            ),
          )
        : h("tr", {}, h("td", { colspan: 3 }, "No hand yet.")),
    );
  }
  const el = h(
    "section.hands",
    {},
    h("h1", {}, "Hand history"),
    pick,
    table ? h("table.list", { id: "hand-list" }, h("thead", {}, h("tr", {}, ["Hand", "Phase", "Started"].map((c) => h("th", {}, c)))), list) : h("p.hint", {}, "Pick a table."),
  );
  return { el };
}

export async function handView(handId) {
  const hand = await api("GET", `hands/${handId}/`);
  window.lastHandChecked = hand; // what the check ran on, for the curious (and tests)
  const names = new Map();
  for (const e of hand.events) {
    if (e.type === "hand.started") for (const p of e.players) names.set(p.seat, p.screen_name);
  }
  const name = (seat) => names.get(seat) || `seat ${seat}`;
  const low = isLowball(hand.events.find((e) => e.type === "hand.started")?.rules?.game);
  const lines = hand.events.map((e) => describeFull(e, name, low));
  let step = lines.length - 1;
  const list = h("ol.steps", { id: "steps" });
  const position = h("span", { id: "step" });
  const draw = () => {
    fill(list, lines.slice(0, step + 1).map((l, i) => h(i === step ? "li.current" : "li", {}, l)));
    position.textContent = `step ${step + 1} of ${lines.length}`;
  };
  const go = (to) => {
    step = Math.max(0, Math.min(lines.length - 1, to));
    draw();
  };
  const verdict = h("p.verify", { id: "verify-result", "aria-live": "polite" }, "Checking the deal…");
  draw();
  verifyHand(hand).then((r) => {
    verdict.className = `verify ${r.ok ? "ok" : "bad"}`;
    verdict.textContent = r.message;
  });
  const el = h(
    "section.hand",
    {},
    h("h1", { id: "hand-title" }, `${hand.table_name || `Table ${hand.table}`}, hand #${hand.number}`),
    h("p.hint", {}, h("a", { href: `#/tables/${hand.table}` }, hand.table_name || `Table ${hand.table}`), ` · hand ${hand.id} · ${hand.phase} · ${when(hand.started_at)}`),
    h("h2", {}, "Fair deal"),
    h("p.hint", {}, "Commitment (root of the deck's Merkle tree): ", h("code", {}, hand.roots[0] || hand.commitment || "none")),
    verdict,
    h("h2", {}, "Replay"),
    h(
      "p.pager",
      {},
      h("button", { onclick: () => go(0) }, "« Start"),
      h("button", { id: "step-back", onclick: () => go(step - 1) }, "◀ Back"),
      h("button", { id: "step-next", onclick: () => go(step + 1) }, "Next ▶"),
      h("button", { onclick: () => go(lines.length - 1) }, "End »"),
      " ",
      position,
    ),
    list,
    h("p", {}, h("a", { href: `#/hands?table=${hand.table}` }, "← Hands of this table"), " ", h("a", { href: `/api/hands/${hand.id}/phh/` }, "PHH export")),
  );
  return { el };
}

function describeFull(e, name, low) {
  if (e.type === "hand.shown" && e.cards?.length) return `${name(e.seat)} shows ${cardsText(e.cards)}: ${handText(e.cards, null, low)}`;
  if (e.type === "hand.cards_dealt") {
    const mine = e.hands.filter((x) => x.cards);
    return mine.length ? `Dealt: ${mine.map((x) => `${name(x.seat)} ${cardsText(x.cards)}`).join("; ")}` : "Cards dealt";
  }
  if (e.type === "hand.cards_drawn" && e.cards) return `${name(e.seat)} draws ${cardsText(e.cards)}`;
  return describe(e, name) || e.type.replace(/^\w+\./, "").replaceAll("_", " ");
}

// ------------------------------------------------------------ the check

const bytes = (text) => new TextEncoder().encode(text);
const hex = (buf) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
const unhex = (s) => new Uint8Array(s.match(/../g).map((x) => parseInt(x, 16)));

async function sha256(...parts) {
  const size = parts.reduce((n, p) => n + p.length, 0);
  const all = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return new Uint8Array(await crypto.subtle.digest("SHA-256", all));
}

/** RFC 9162 2.1.3.2: does `path` prove `leaf` at `index` of a tree of `size` under `root`? */
export async function verifyPath(leaf, index, size, path, root) {
  if (index < 0 || index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const sibling of path) {
    if (sn === 0) return false;
    if (fn & 1 || fn === sn) {
      r = await sha256(Uint8Array.of(1), sibling, r);
      while (!(fn & 1) && fn !== 0) {
        fn >>= 1;
        sn >>= 1;
      }
    } else {
      r = await sha256(Uint8Array.of(1), r, sibling);
    }
    fn >>= 1;
    sn >>= 1;
  }
  return sn === 0 && hex(r) === root;
}

export async function verifyOpening(opening, root, size) {
  const leaf = await sha256(Uint8Array.of(0), bytes(`${opening.index}:${opening.card}:`), unhex(opening.salt));
  return verifyPath(leaf, opening.index, size, opening.path.map(unhex), root);
}

function treeSizes(hand) {
  const game = hand.events.find((e) => e.type === "hand.started")?.rules?.game || "";
  const sizes = [game === "32-card-draw" ? 32 : 52];
  for (const e of hand.events) if (e.type === "hand.muck_reshuffled") sizes.push(e.count);
  return sizes;
}

/** The cards of the hand this viewer saw face up (his own, those shown). */
function seenCards(hand) {
  const seen = new Set();
  for (const e of hand.events) {
    if (e.type === "hand.cards_dealt") for (const x of e.hands) for (const c of x.cards || []) seen.add(c);
    if ((e.type === "hand.cards_drawn" || e.type === "hand.shown") && e.cards) for (const c of e.cards) seen.add(c);
  }
  return seen;
}

export async function verifyHand(hand) {
  if (hand.commitment !== "merkle" && !(hand.roots || []).length) {
    return { ok: false, message: "This hand has no per-card commitment to check." };
  }
  if (!crypto.subtle) return { ok: false, message: "This browser has no WebCrypto here (it needs https or localhost)." };
  const sizes = treeSizes(hand);
  let good = 0;
  for (const o of hand.openings) {
    const root = hand.roots[o.tree];
    if (root === undefined || !(await verifyOpening(o, root, sizes[o.tree] ?? 0))) {
      return { ok: false, message: `Card ${o.card} at ${o.tree}/${o.index} does NOT match the commitment.` };
    }
    good += 1;
  }
  const opened = new Set(hand.openings.map((o) => o.card));
  const missing = [...seenCards(hand)].filter((c) => !opened.has(c));
  if (missing.length) return { ok: false, message: `No proof for ${cardsText(missing)}.` };
  if (!good) return { ok: true, message: "Nothing of this hand was shown to you, so there is nothing to check." };
  return { ok: true, message: `✔ All ${good} cards you saw are proved against the commitment.` };
}

export { face };
