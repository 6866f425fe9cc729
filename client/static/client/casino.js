// A casino table (Casino Draw Poker against the house): the boxes, the
// dealer, the player's bet, exchanges and decision, and each box's payout.
//
// What is drawn is always the table view the server gives this viewer
// (GET casino/tables/<id>/, or the answer to his own command): another
// box's cards and the dealer's before he turns them up never reach the
// page, so they are drawn as backs from their counts.  The table's
// stream says when something happened; the view is fetched again then
// (`watch`), as the pot-game table does.

import { Feed, api, commandId, session } from "./api.js";
import { face, back } from "./cards.js";
import { fill, h, notice } from "./dom.js";
import { feedStatus, tr } from "./i18n.js";

const KEYS = { e: "exchange", s: "stand", p: "play", f: "fold" };
const REFRESH_MS = 50; // frames of one command come together: one fetch for them

/** A share as a percentage, to two places: 0.0116 → "1.16%". */
export function percent(share) {
  return `${(share * 100).toFixed(2)}%`;
}

export function handName(hand) {
  // The casino's pay table says "pair" where the poker tables say "one-pair".
  return hand ? tr(`hand.${hand === "pair" ? "one-pair" : hand}`) : "";
}

const OUTCOMES = ["fold", "not-qualified", "win", "lose", "push"];

/** How a box's round ended, in words: "dealer did not qualify · paid 110". */
export function outcomeText(result, won) {
  return `${OUTCOMES.includes(result) ? tr(`outcome.${result}`) : result || ""} · ${tr("outcome.paid", { won })}`;
}

/** Whether view `a` shows the table before `b` did (a late poll answer). */
function older(a, b) {
  const at = (v) => [v.table.version, v.round?.number ?? 0, v.round?.version ?? 0];
  const [x, y] = [at(a), at(b)];
  for (let i = 0; i < x.length; i += 1) if (x[i] !== y[i]) return x[i] < y[i];
  return false;
}

/**
 * The table's views, as its stream (ws/casino/tables/<id>/) says: the
 * snapshot's view, then after each event (or this viewer's private frame)
 * the view fetched again; the feed resumes from the last position it saw
 * after a drop.  Each view goes to `show`.  Returns `{feed, refresh, stop}`.
 */
function watch(tableId, show, onStatus) {
  let stopped = false;
  let timer = null;
  const refresh = () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      try {
        const view = await api("GET", `casino/tables/${tableId}/`);
        if (!stopped) show(view);
      } catch (e) {
        if (!stopped) notice(e.message, "error");
      }
    }, REFRESH_MS);
  };
  const feed = new Feed(`casino/tables/${tableId}/`, {
    resume: true,
    onStatus,
    onFrame: (frame) => {
      if (frame.type === "snapshot" && frame.view) show(frame.view);
      else if (frame.type === "event" || frame.type === "private") refresh();
    },
  });
  return {
    feed,
    refresh,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      feed.close();
    },
  };
}

function secondsLeft(iso) {
  return Math.max(0, Math.ceil((Date.parse(iso) - Date.now()) / 1000));
}

export async function casinoView(tableId) {
  const c = { view: null, selected: new Set(), busy: false, menuKey: null, lastBet: null };
  const [first, published] = await Promise.all([
    api("GET", `casino/tables/${tableId}/`),
    api("GET", `casino/tables/${tableId}/strategy/`),
  ]);

  const el = h("section.casino-page", { id: "casino-page", dataset: { table: tableId } });
  const head = h("header.table-head");
  const dealer = h("div.dealer", { id: "dealer", "aria-label": tr("casino.the_dealer") });
  const boxes = h("ol.boxes", { id: "boxes", "aria-label": tr("staff.boxes") });
  const clock = h("p.casino-clock", { id: "casino-clock", "aria-live": "off" });
  const controls = h("div.controls", { id: "casino-controls", "aria-label": tr("table.your_actions") });
  const payouts = h("div.result", { id: "payouts", "aria-live": "polite" });
  // What the sit and leave keys did, said to screen readers.
  const seatSaid = h("p.sr-only", { id: "casino-seat-announce", role: "status", "aria-live": "polite" });
  el.append(head, seatSaid, h("div.casino-felt", {}, dealer, boxes), clock, controls, payouts);

  function show(view) {
    if (c.view && older(view, c.view)) return;
    // A poll that brings nothing new draws nothing (a card picked keeps its focus).
    const seen = JSON.stringify(view);
    if (seen === c.seen) return;
    c.seen = seen;
    const before = c.view?.round;
    if (!view.round || before?.id !== view.round.id || before?.phase !== view.round.phase) c.selected.clear();
    c.view = view;
    window.pokerCasino = { state: c, feed: source?.feed }; // for tests and the curious: nothing hidden in it
    draw();
  }

  const status = h("span.status", { id: "casino-status" }, tr("feed.connecting"));
  const source = watch(tableId, show, (s) => {
    status.textContent = feedStatus(s);
    status.dataset.state = s;
  });

  // ------------------------------------------------------------ rendering

  function mine() {
    const round = c.view.round;
    return round?.boxes.find((b) => b.box === round.your_box) || null;
  }

  function legal() {
    return c.view.round?.legal || null;
  }

  function running() {
    const round = c.view.round;
    return Boolean(round && round.phase !== "complete");
  }

  function draw() {
    drawHead();
    drawDealer();
    drawBoxes();
    drawClock();
    drawControls();
    drawPayouts();
  }

  function drawHead() {
    const t = c.view.table;
    fill(
      head,
      h("h1", {}, t.name, " ", h("span.status", {}, tr(`table.status.${t.status}`)), " ", status),
      h(
        "p.meta",
        {},
        `${tr("casino.game")} · ${tr("staff.bets", { min: t.min_bet, max: t.max_bet })} · ${tr(t.jokers === 1 ? "casino.joker" : "casino.jokers", { n: t.jokers })} · ${tr("casino.round", { number: t.round_number || "–" })}`,
      ),
      h(
        "p.meta",
        { id: "casino-house-edge" },
        published.house_edge === null ? `${tr("casino.edge_unpublished")} · ` : `${tr("casino.edge_against_best", { edge: percent(published.house_edge) })} · `,
        h("a", { href: `#/casino/${tableId}/strategy`, id: "strategy-card-link" }, tr("casino.strategy_link")),
      ),
    );
  }

  function cardsOf(codes, count, props = () => ({})) {
    if (codes) return codes.map((code) => face(code, props(code)));
    return Array.from({ length: count }, () => back());
  }

  function drawDealer() {
    const d = c.view.round?.dealer;
    if (!d) {
      fill(dealer, h("h2", {}, tr("casino.dealer")), h("p.hint", {}, tr("casino.waiting_bets")));
      return;
    }
    fill(
      dealer,
      h("h2", {}, tr("casino.dealer")),
      h("div.cards", { id: "dealer-cards" }, cardsOf(d.cards, d.card_count)),
      d.hand ? h("p.hand", { id: "dealer-hand" }, handName(d.hand), d.qualifies === false ? ` — ${tr("casino.not_qualifies")}` : d.qualifies ? ` — ${tr("casino.qualifies")}` : "") : null,
      d.discarded && d.discarded.length
        ? h("p.discarded", { id: "dealer-discarded" }, `${tr("casino.exchanged")} `, h("span.cards.small", {}, d.discarded.map((code) => face(code))))
        : null,
    );
  }

  function drawBoxes() {
    const t = c.view.table;
    const round = c.view.round;
    const seats = new Map(c.view.boxes.map((b) => [b.box, b]));
    const inRound = new Map((round?.boxes || []).map((b) => [b.box, b]));
    const items = [];
    const firstFree = freeBox();
    for (let n = 1; n <= t.boxes; n += 1) {
      const seat = seats.get(n);
      const played = inRound.get(n);
      const me = n === c.view.your_box;
      const toAct = running() && round.to_act === n;
      const cls = `li.box${me ? ".me" : ""}${toAct ? ".to-act" : ""}${played?.folded ? ".folded" : ""}`;
      if (!seat && !played) {
        const canSit = session.me && !c.view.your_box;
        items.push(
          h(
            `${cls}.empty`,
            { dataset: { box: n } },
            h("span.name", {}, tr("casino.box", { n })),
            canSit
              ? h("button.sit", { onclick: () => command("sit", { box: n }) }, tr("casino.sit_in_box", { n }), n === firstFree ? [" ", h("kbd", {}, "T")] : null)
              : h("span.hint", {}, tr("casino.empty")),
          ),
        );
        continue;
      }
      const name = seat?.name || played?.name;
      const exchanging = me && legal()?.actions.includes("exchange");
      items.push(
        h(
          cls,
          { dataset: { box: n } },
          h("span.name", {}, tr("casino.box_of", { n, name })),
          played
            ? h(
                "div.cards",
                {},
                cardsOf(played.cards, played.card_count, (code) =>
                  exchanging
                    ? {
                        role: "button",
                        tabindex: 0,
                        class: `card face${"hd".includes(code[1]) ? " red" : ""}${c.selected.has(code) ? " selected" : ""}`,
                        "aria-pressed": String(c.selected.has(code)),
                        onclick: () => toggle(code),
                        onkeydown: (e) => {
                          if (e.key === "Enter" || e.key === " ") {
                            e.preventDefault();
                            toggle(code);
                          }
                        },
                      }
                    : {},
                ),
              )
            : null,
          played
            ? h("span.stakes", {}, tr("table.ante", { ante: played.ante }), played.bet ? ` · ${tr("casino.bet", { bet: played.bet })}` : "", played.exchanges ? ` · ${tr("casino.exchanged_n", { n: played.exchanges })}` : "")
            : seat?.bet
              ? h("span.stakes", {}, tr("casino.bet_next", { bet: seat.bet }))
              : null,
          played?.hand ? h("span.hand", {}, handName(played.hand)) : null,
          played?.result ? h("span.outcome", {}, outcomeText(played.result, played.won)) : null,
          seat?.sitting_out ? h("span.state", {}, tr("felt.sitting_out")) : null,
          seat?.leaving ? h("span.state", {}, tr("felt.leaving")) : null,
        ),
      );
    }
    fill(boxes, items);
  }

  function drawClock() {
    const k = c.view.clock;
    if (!k) {
      fill(clock);
      return;
    }
    const left = secondsLeft(k.expires);
    fill(clock, k.kind === "bet-window" ? tr("casino.bets_close", { left }) : tr("casino.box_decides", { box: k.box, left }));
  }

  function toggle(code) {
    if (c.selected.has(code)) c.selected.delete(code);
    else if (c.selected.size < (legal()?.max_exchange ?? 5)) c.selected.add(code);
    c.menuKey = null;
    const focused = document.activeElement?.dataset?.card;
    draw();
    if (focused) boxes.querySelector(`[data-card="${focused}"]`)?.focus(); // a keyboard user keeps his place
  }

  function actionButton(action, label, key, extra = {}) {
    return h(`button.act${action === "play" ? ".primary" : action === "fold" ? ".danger" : ""}`, { id: `casino-${action}`, onclick: () => act(action), ...extra }, label, h("kbd", {}, key));
  }

  function drawControls() {
    const v = c.view;
    const l = legal();
    const seat = v.boxes.find((b) => b.box === v.your_box);
    const key = JSON.stringify([Boolean(session.me), v.your_box, v.table.version, v.round?.id, v.round?.version, l, [...c.selected], seat?.bet, seat?.sitting_out]);
    if (key === c.menuKey) return;
    c.menuKey = key;
    if (!session.me) {
      fill(controls, h("p.hint", {}, `${tr("table.watching")} `, h("a", { href: "#/login" }, tr("auth.login")), ` ${tr("table.to_play")}`));
      return;
    }
    if (!seat) {
      fill(controls, h("p.hint", {}, tr("casino.pick_box")));
      return;
    }
    const parts = [];
    if (l) {
      const n = c.selected.size;
      const buttons = [];
      if (l.actions.includes("exchange")) {
        const most = l.max_exchange ?? 5;
        buttons.push(
          actionButton("exchange", tr("casino.exchange_n", { n, stake: l.stake }), "E", { disabled: n === 0 || n > most }),
        );
      }
      if (l.actions.includes("stand")) buttons.push(actionButton("stand", tr("casino.stand"), "S"));
      if (l.actions.includes("play")) buttons.push(actionButton("play", tr("casino.play", { stake: l.stake }), "P"));
      if (l.actions.includes("fold")) buttons.push(actionButton("fold", tr("action.fold"), "F"));
      parts.push(
        l.actions.includes("exchange")
          ? h("p.hint", {}, (l.max_exchange ?? 5) === 1 ? tr("casino.pick_one") : tr("casino.pick_up_to", { n: l.max_exchange ?? 5 }))
          : null,
        h("div.actions", { id: "casino-actions" }, buttons),
      );
    } else if (running() && mine()) {
      parts.push(h("p.hint", {}, tr("casino.waiting_others")));
    }
    if (!running() || !mine()) {
      const t = v.table;
      const amount = h("input", { id: "casino-amount", type: "number", min: t.min_bet, max: t.max_bet, value: seat.bet || c.lastBet || t.min_bet, "aria-label": tr("action.bet") });
      parts.push(
        h(
          "form.amount",
          {
            id: "casino-bet",
            onsubmit: (e) => {
              e.preventDefault();
              c.lastBet = Number(amount.value);
              command("bet", { amount: c.lastBet });
            },
          },
          h("label.inline", { for: "casino-amount" }, tr("action.bet")),
          amount,
          h("span.bounds", {}, tr("casino.bounds", { min: t.min_bet, max: t.max_bet })),
          h("button.primary", { type: "submit", disabled: seat.sitting_out }, seat.bet ? tr("casino.change_bet") : tr("action.bet")),
          seat.bet ? h("span.hint", { id: "bet-placed" }, ` ${tr("casino.bet_placed", { bet: seat.bet })}`) : null,
        ),
      );
    }
    parts.push(
      h(
        "div.seat-commands",
        {},
        seat.sitting_out
          ? h("button", { id: "casino-sit-in", onclick: () => command("sit-in") }, tr("table.sit_in"))
          : h("button", { id: "casino-sit-out", onclick: () => command("sit-out") }, tr("table.sit_out")),
        h("button.danger", { id: "casino-leave", onclick: () => command("leave") }, `${tr("table.leave")} `, h("kbd", {}, "L")),
      ),
    );
    fill(controls, parts);
  }

  // What became of ANTE and BET (RULES.md 5): a box beating a qualifying
  // dealer gets its ANTE back unpaid and its BET paid by the table.
  function stakesSettled(b) {
    switch (b.result) {
      case "win":
        return tr("casino.settled_win", { ante: b.ante, bet: b.bet, won: b.won - b.ante - b.bet });
      case "not-qualified":
        return tr("casino.settled_not_qualified", { ante: b.ante, bet: b.bet, won: b.won - b.ante - b.bet });
      case "push":
        return tr("casino.settled_push");
      case "lose":
        return tr("casino.settled_lose", { ante: b.ante, bet: b.bet });
      case "fold":
        return tr("casino.settled_fold", { ante: b.ante });
      default:
        return "";
    }
  }

  function drawPayouts() {
    const round = c.view.round;
    if (!round || round.phase !== "complete") {
      fill(payouts);
      return;
    }
    fill(
      payouts,
      h("h2", {}, tr("casino.payouts", { number: round.number })),
      h(
        "ul.awards",
        { id: "casino-awards" },
        round.boxes.map((b) =>
          h(
            `li${b.won > 0 ? ".winner" : ""}`,
            { dataset: { box: b.box } },
            `${tr("casino.box_named", { n: b.box, name: b.name })}: ${outcomeText(b.result, b.won)}${b.hand ? ` (${handName(b.hand)})` : ""} — ${stakesSettled(b)}`,
          ),
        ),
      ),
    );
  }

  // ------------------------------------------------------------- commands

  async function send(path, body) {
    if (c.busy) return;
    c.busy = true;
    try {
      show(await api("POST", `casino/tables/${tableId}/${path}/`, { command_id: commandId(), ...body }));
    } catch (e) {
      notice(e.message, "error");
      if (e.body?.current) show(e.body.current);
      else source.refresh();
    } finally {
      c.busy = false;
    }
  }

  function command(name, body = {}) {
    return send(name, body);
  }

  function act(action) {
    const round = c.view.round;
    const l = legal();
    if (!round || !l || !l.actions.includes(action)) return;
    const body = { round: round.id, version: round.version };
    if (action === "exchange") {
      if (c.selected.size === 0) return;
      body.cards = [...c.selected];
    }
    return send(action, body);
  }

  /** The first box nobody sits in or plays (null: none). */
  function freeBox() {
    const taken = new Set([...c.view.boxes.map((b) => b.box), ...(c.view.round?.boxes || []).map((b) => b.box)]);
    return Array.from({ length: c.view.table.boxes }, (_, i) => i + 1).find((n) => !taken.has(n)) ?? null;
  }

  /** T: sit in the first free box; L: leave.  Each says what it did. */
  function seatKey(key) {
    if (!session.me || !c.view) return false;
    const mine = c.view.your_box;
    if (key === "t") {
      if (mine) return false;
      const n = freeBox();
      seatSaid.textContent = n ? tr("casino.key_sit", { n }) : tr("table.key_no_seat");
      if (n) command("sit", { box: n });
      return true;
    }
    if (!mine) return false;
    seatSaid.textContent = tr("table.key_leave");
    command("leave");
    return true;
  }

  function onKey(e) {
    if (e.target.closest?.("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
    if (["t", "l"].includes(e.key.toLowerCase())) {
      if (seatKey(e.key.toLowerCase())) e.preventDefault();
      return;
    }
    const action = KEYS[e.key.toLowerCase()];
    if (action && legal()?.actions.includes(action)) {
      e.preventDefault();
      act(action);
    }
  }
  document.addEventListener("keydown", onKey);

  // The clock's countdown moves by itself.
  const ticker = setInterval(() => c.view && drawClock(), 250);

  show(first);
  return {
    el,
    stop: () => {
      source.stop();
      clearInterval(ticker);
      document.removeEventListener("keydown", onKey);
      if (window.pokerCasino?.state === c) delete window.pokerCasino;
    },
  };
}
