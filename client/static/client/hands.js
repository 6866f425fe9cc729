// Hand histories: a table's hands, one hand replayed step by step, and
// the deck-commitment check (docs/fair-deal.md) run here, in the browser,
// with WebCrypto's SHA-256: each card this viewer may see is proved to
// have sat at its place of a deck committed to before anyone acted.

import { api, rows } from "./api.js";
import { cardsText, face, handText, isLowball } from "./cards.js";
import { fill, h, when } from "./dom.js";
import { describe } from "./events.js";
import { tr } from "./i18n.js";

export async function handsView() {
  const table = new URLSearchParams(location.hash.split("?")[1] || "").get("table");
  const tables = rows(await api("GET", "tables/"));
  const list = h("tbody");
  const pick = h(
    "nav",
    { "aria-label": tr("hands.tables") },
    h("ul.picks", {}, tables.map((t) => h("li", {}, h("a.pick", { href: `#/hands?table=${t.id}`, "aria-current": String(t.id) === table ? "page" : null }, t.name || tr("table.numbered", { id: t.id }))))),
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
              h("td", {}, x.phase ? tr(`hand_phase.${x.phase}`) : ""),
              h("td", {}, when(x.started_at)),
            ),
          )
        : h("tr", {}, h("td", { colspan: 3 }, tr("hands.none"))),
    );
  }
  const el = h(
    "section.hands",
    {},
    h("h1", {}, tr("table.hand_history")),
    pick,
    table ? h("table.list", { id: "hand-list" }, h("thead", {}, h("tr", {}, [tr("lobby.col.hand"), tr("hands.phase"), tr("hands.started")].map((c) => h("th", {}, c)))), list) : h("p.hint", {}, tr("hands.pick_table")),
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
  const name = (seat) => names.get(seat) || tr("table.seat_n", { seat });
  const low = isLowball(hand.events.find((e) => e.type === "hand.started")?.rules?.game);
  const lines = hand.events.map((e) => describeFull(e, name, low));
  let step = lines.length - 1;
  const list = h("ol.steps", { id: "steps" });
  const position = h("span", { id: "step" });
  const draw = () => {
    fill(list, lines.slice(0, step + 1).map((l, i) => h(i === step ? "li.current" : "li", {}, l)));
    position.textContent = tr("hands.step", { step: step + 1, of: lines.length });
  };
  const go = (to) => {
    step = Math.max(0, Math.min(lines.length - 1, to));
    draw();
  };
  const verdict = h("p.verify", { id: "verify-result", "aria-live": "polite" }, tr("hands.checking"));
  draw();
  verifyHand(hand).then((r) => {
    verdict.className = `verify ${r.ok ? "ok" : "bad"}`;
    verdict.textContent = r.message;
  });
  const el = h(
    "section.hand",
    {},
    h("h1", { id: "hand-title" }, `${hand.table_name || tr("table.numbered", { id: hand.table })}, ${tr("table.hand_number", { number: hand.number })}`),
    h("p.hint", {}, h("a", { href: `#/tables/${hand.table}` }, hand.table_name || tr("table.numbered", { id: hand.table })), ` · ${tr("hands.hand_id", { id: hand.id })} · ${tr(`hand_phase.${hand.phase}`)} · ${when(hand.started_at)}`),
    h("h2", {}, tr("hands.fair_deal")),
    h("p.hint", {}, `${tr("hands.commitment")} `, h("code", {}, hand.roots[0] || hand.commitment || tr("glance.no_break"))),
    verdict,
    h("h2", {}, tr("hands.replay")),
    h(
      "p.pager",
      {},
      h("button", { onclick: () => go(0) }, `« ${tr("hands.start")}`),
      h("button", { id: "step-back", onclick: () => go(step - 1) }, `◀ ${tr("hands.back")}`),
      h("button", { id: "step-next", onclick: () => go(step + 1) }, `${tr("glance.next")} ▶`),
      h("button", { onclick: () => go(lines.length - 1) }, `${tr("hands.end")} »`),
      " ",
      position,
    ),
    list,
    h("p", {}, h("a", { href: `#/hands?table=${hand.table}` }, `← ${tr("hands.of_table")}`), " ", h("a", { href: `/api/hands/${hand.id}/phh/` }, tr("hands.phh"))),
  );
  return { el };
}

function describeFull(e, name, low) {
  if (e.type === "hand.shown" && e.cards?.length) return `${tr("log.shows", { name: name(e.seat), cards: cardsText(e.cards) })}: ${handText(e.cards, null, low)}`;
  if (e.type === "hand.cards_dealt") {
    const mine = e.hands.filter((x) => x.cards);
    return mine.length ? tr("hands.dealt", { hands: mine.map((x) => `${name(x.seat)} ${cardsText(x.cards)}`).join("; ") }) : tr("log.dealt");
  }
  if (e.type === "hand.cards_drawn" && e.cards) return tr("log.draws", { name: name(e.seat), n: cardsText(e.cards) });
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
    return { ok: false, message: tr("verify.no_commitment") };
  }
  if (!crypto.subtle) return { ok: false, message: tr("verify.no_webcrypto") };
  const sizes = treeSizes(hand);
  let good = 0;
  for (const o of hand.openings) {
    const root = hand.roots[o.tree];
    if (root === undefined || !(await verifyOpening(o, root, sizes[o.tree] ?? 0))) {
      return { ok: false, message: tr("verify.mismatch", { card: o.card, at: `${o.tree}/${o.index}` }) };
    }
    good += 1;
  }
  const opened = new Set(hand.openings.map((o) => o.card));
  const missing = [...seenCards(hand)].filter((c) => !opened.has(c));
  if (missing.length) return { ok: false, message: tr("verify.no_proof", { cards: cardsText(missing) }) };
  if (!good) return { ok: true, message: tr("verify.nothing") };
  return { ok: true, message: `✔ ${tr("verify.ok", { n: good })}` };
}

export { face };
