// A pot-game table: the felt, the player's cards and actions, the seat
// commands, and the table's feed (ws/tables/<id>/), which resumes from the
// last position it saw after a dropped connection.
//
// The feed says that something happened (and what, for the log); the
// table as this viewer may see it comes from the API (GET tables/<id>/,
// or the answer to his own command), so what is drawn is always what the
// server says he may see, legal actions included.

import { Feed, api, commandId, rows, session } from "./api.js";
import { cardName, cardsText, face, handText, isLowball } from "./cards.js";
import { fill, h, notice } from "./dom.js";
import { describe } from "./events.js";
import { PHONE, clockText, drawFelt as feltDraw } from "./felt.js";
import { gameName } from "./lobby.js";
import { seatedAt } from "./turns.js";
import { feedStatus, tr } from "./i18n.js";

const KEYS = { f: "fold", c: "check-call", r: "bet-raise", b: "bet-raise", d: "discard", s: "stand", t: "sit", l: "leave" };

/** Whether table view `a` shows the table before `b` did. */
function older(a, b) {
  const at = (v) => [v.table.version, v.hand?.number ?? 0, v.hand?.version ?? 0];
  const [x, y] = [at(a), at(b)];
  for (let i = 0; i < x.length; i += 1) if (x[i] !== y[i]) return x[i] < y[i];
  return false;
}

export async function tableView(tableId) {
  const t = {
    id: tableId,
    view: null,
    handId: null,
    blinds: {},
    selected: new Set(),
    log: [],
    logged: 0,
    busy: false,
    refreshTimer: null,
    amount: null,
  };
  t.view = await api("GET", `tables/${tableId}/`);

  const el = h("section.table-page", { id: "table-page", dataset: { table: tableId } });
  const head = h("header.table-head");
  const felt = h("div.felt", { id: "felt" });
  const controls = h("div.controls", { id: "controls", "aria-label": tr("table.your_actions") });
  const seatBar = h("div.seat-bar", { id: "seat-bar" });
  const result = h("div.result", { id: "result", "aria-live": "polite" });
  const logList = h("ol.log", { id: "log", "aria-label": tr("table.hand_log"), reversed: true });
  const status = h("span.status", { id: "feed-status" }, tr("feed.connecting"));
  const announce = h("p.sr-only", { id: "announce", role: "status", "aria-live": "polite" });
  // What the sit and leave keys did, said apart from the hand's sentence.
  const seatSaid = h("p.sr-only", { id: "seat-announce", role: "status", "aria-live": "polite" });
  el.append(head, announce, seatSaid, h("div.table-main", {}, felt, h("aside.side", {}, result, h("h2", {}, tr("table.log")), logList)), controls, seatBar);

  // ---------------------------------------------------------------- feed

  const refresh = () => {
    clearTimeout(t.refreshTimer);
    t.refreshTimer = setTimeout(async () => {
      try {
        show(await api("GET", `tables/${tableId}/`));
      } catch (e) {
        notice(e.message, "error");
      }
    }, 50);
  };

  const feed = new Feed(`tables/${tableId}/`, {
    resume: true,
    onStatus: (s) => {
      status.textContent = feedStatus(s);
      status.dataset.state = s;
    },
    onFrame: (frame) => {
      if (frame.type === "snapshot") {
        show(frame.view);
      } else if (frame.type === "event" || frame.type === "private") {
        const event = frame.event;
        if (frame.type === "event") addLog(event);
        if (event.type === "hand.blind_posted") t.blinds[event.seat] = event.blind;
        if (event.type === "hand.started") t.blinds = {};
        refresh();
      }
    },
  });
  window.pokerTable = { feed, state: t }; // for tests and the curious: nothing hidden in it

  // ------------------------------------------------------------ rendering

  function seatName(seat) {
    const s = t.view?.seats.find((x) => x.seat === seat);
    if (s) return s.screen_name;
    const p = t.view?.hand?.players.find((x) => x.seat === seat);
    return p ? p.screen_name : tr("table.seat_n", { seat });
  }

  function addLog(event) {
    if (!describe(event, seatName)) return;
    t.logged += 1;
    t.log.push([t.logged, event]);
    if (t.log.length > 60) t.log.shift();
    drawLog();
  }

  // Lines are written when drawn: a player who just sat down has his name
  // in the view only once it is fetched.  The newest is on top, numbered
  // from the oldest (1) up.
  function drawLog() {
    fill(logList, t.log.map(([n, e]) => h("li", { value: n }, describe(e, seatName))).reverse());
  }

  async function loadBlinds(handId) {
    try {
      const detail = await api("GET", `hands/${handId}/`);
      const blinds = {};
      for (const e of detail.events) if (e.type === "hand.blind_posted") blinds[e.seat] = e.blind;
      if (t.handId === handId) {
        t.blinds = blinds;
        draw();
      }
    } catch {
      // blinds are decoration: the table plays without them
    }
  }

  // The hand before this one, as this viewer may see its history: what
  // was shown and who won stays on screen while the next hand plays.
  async function loadLastHand(handId) {
    try {
      const detail = await api("GET", `hands/${handId}/`);
      const names = new Map();
      const shown = [];
      const awards = [];
      for (const e of detail.events) {
        if (e.type === "hand.started") for (const p of e.players) names.set(p.seat, p.screen_name);
        if (e.type === "hand.shown") shown.push(e);
        if (e.type === "hand.pot_awarded") awards.push(e);
      }
      t.lastHand = { number: detail.number, names, shown, awards };
      drawResult();
    } catch {
      // history is decoration here: the table plays without it
    }
  }

  function show(view) {
    if (!view?.table) return;
    // Answers can cross: a view fetched before a command may arrive after
    // that command's answer.  The older of the two is not drawn.
    if (t.view && older(view, t.view)) return;
    const handId = view.hand?.id ?? null;
    if (handId !== t.handId) {
      if (t.handId) loadLastHand(t.handId);
      t.handId = handId;
      t.selected.clear();
      t.amount = null;
      if (handId) loadBlinds(handId);
    }
    t.view = view;
    if (session.me) seatedAt(tableId, (view.you?.seat ?? null) !== null);
    draw();
  }

  function mySeat() {
    return t.view.you?.seat ?? null;
  }

  // One sentence for screen readers, said again only when it changes:
  // whose turn, the pot, his cards, and his clock when it runs short.
  function drawAnnounce() {
    const hand = t.view.hand;
    if (!hand || hand.phase === "complete") {
      const text = hand ? tr("table.announce_over") : tr("table.announce_waiting");
      if (announce.textContent !== text) announce.textContent = text;
      return;
    }
    const me = hand.players.find((p) => p.seat === mySeat());
    const l = legal();
    const turn = l ? tr("table.announce_turn", { actions: l.actions.map((a) => tr(`action.${a}`)).join(", ") }) : hand.to_act ? tr("table.announce_to_act", { name: seatName(hand.to_act) }) : "";
    const cards = me?.cards ? ` ${tr("table.announce_cards", { cards: me.cards.map(cardName).join(", ") })}` : "";
    const text = `${turn} ${tr("table.announce_pot", { pot: hand.pot })}${cards}`.trim();
    if (announce.textContent !== text) announce.textContent = text;
  }

  function draw() {
    drawAnnounce();
    drawHead();
    drawFelt();
    drawControls();
    drawSeatBar();
    drawResult();
    drawLog();
  }

  // A knockout tournament's table shows the head on each player, read from
  // the tournament's standings once a hand (heads change only at a bust).
  let heads = null;
  let headsAt = null;
  async function loadHeads() {
    const tb = t.view.table;
    if (!tb.tournament || headsAt === tb.hand_number) return;
    headsAt = tb.hand_number;
    try {
      const standings = rows(await api("GET", `tournaments/${tb.tournament}/standings/`));
      const shown = standings.filter((s) => s.bounty);
      heads = shown.length ? Object.fromEntries(shown.map((s) => [s.player, s.bounty])) : null;
      drawHead();
    } catch {
      heads = null;
    }
  }

  function headsLine() {
    if (!heads) return null;
    const seated = t.view.seats.filter((s) => heads[s.player] !== undefined);
    return h("p.meta", { id: "bounties" }, `${tr("table.bounties")}: `, seated.map((s) => `${s.screen_name} ${heads[s.player]}`).join(" · "));
  }

  function drawHead() {
    const tb = t.view.table;
    const hand = t.view.hand;
    loadHeads();
    fill(
      head,
      h("h1", {}, tb.name || tr("table.numbered", { id: tb.id }), " ", status),
      h(
        "p.meta",
        {},
        `${gameName(tb.game, tb.betting)} · ${tr("table.blinds", { small: tb.small_blind, big: tb.big_blind })}`,
        tb.ante ? ` · ${tr("table.ante", { ante: tb.ante })}` : "",
        hand ? ` · ${tr("table.hand_number", { number: hand.number })}` : "",
        tb.status !== "open" ? ` · ${tr(`table.status.${tb.status}`)}` : "",
      ),
      headsLine(),
      h("p.links", {}, h("a", { href: "#/lobby" }, `← ${tr("nav.lobby")}`), " ", h("a", { href: `#/hands?table=${tb.id}` }, tr("table.hand_history"))),
    );
  }

  function drawFelt() {
    feltDraw(felt, t.view, {
      blinds: t.blinds,
      selected: t.selected,
      drawing: canDiscard(),
      canSit: Boolean(session.me),
      seatName,
      onSit: openSit,
      onToggle: toggle,
    });
  }

  // ---------------------------------------------------------- the actions

  // The menu as the server gave it, less bet and raise once the 32 Card
  // Draw bet window has closed since (the server would refuse them).
  function legal() {
    const l = t.view.hand?.legal || null;
    if (!l || betWindowOpen()) return l;
    return { ...l, actions: l.actions.filter((a) => a !== "bet" && a !== "raise") };
  }

  function betWindowOpen() {
    const until = t.view.clock?.bet_until;
    return !until || Date.now() < Date.parse(until);
  }

  function canDiscard() {
    return Boolean(legal()?.actions.includes("discard"));
  }

  function toggle(code) {
    if (t.selected.has(code)) t.selected.delete(code);
    else if (t.selected.size < (legal()?.max_discard ?? 5)) t.selected.add(code);
    draw();
  }

  async function act(action, extra = {}) {
    const hand = t.view.hand;
    if (!hand || t.busy) return;
    t.busy = true;
    try {
      const body = { hand: hand.id, version: hand.version, command_id: commandId(), action, ...extra };
      show(await api("POST", `tables/${tableId}/actions/`, body));
    } catch (e) {
      notice(e.message, "error");
      if (e.body?.current) show(e.body.current);
      else refresh();
    } finally {
      t.busy = false;
    }
  }

  function betBounds(l) {
    if (l.actions.includes("bet")) return ["bet", l.min_bet_to, l.max_bet_to];
    if (l.actions.includes("raise")) return ["raise", l.min_raise_to, l.max_raise_to];
    return null;
  }

  function drawControls() {
    const l = legal();
    const hand = t.view.hand;
    // Drawn again only when the menu changes: an amount being typed stays.
    const key = JSON.stringify([Boolean(session.me), hand?.id, hand?.version, hand?.to_act, l, [...t.selected]]);
    if (controls.dataset.key === key) return;
    controls.dataset.key = key;
    if (!session.me) {
      fill(controls, h("p.hint", {}, `${tr("table.watching")} `, h("a", { href: "#/login" }, tr("auth.login")), ` ${tr("table.to_play")}`));
      return;
    }
    if (!l || !hand) {
      const waiting = hand && hand.to_act !== null && !["complete"].includes(hand.phase) ? tr("table.waiting_for", { name: seatName(hand.to_act) }) : "";
      fill(controls, h("p.hint", { id: "waiting" }, waiting));
      return;
    }
    const buttons = [];
    const kbd = (k) => h("kbd", {}, k);
    if (l.actions.includes("fold")) buttons.push(h("button.act.fold", { id: "act-fold", onclick: () => act("fold") }, `${tr("action.fold")} `, kbd("F")));
    if (l.actions.includes("check")) buttons.push(h("button.act", { id: "act-check", onclick: () => act("check") }, `${tr("action.check")} `, kbd("C")));
    if (l.actions.includes("call")) buttons.push(h("button.act", { id: "act-call", onclick: () => act("call") }, `${tr("action.call")} ${l.call ?? ""} `, kbd("C")));
    const bounds = betBounds(l);
    if (bounds) {
      const [kind, low, high] = bounds;
      if (t.amount === null || t.amount < low || t.amount > high) t.amount = low;
      const betText = (amount) => `${tr(kind === "bet" ? "table.bet_amount" : "table.raise_to", { amount })} `;
      const label = h("span", {}, betText(t.amount));
      const button = h("button.act.primary", { id: `act-${kind}`, onclick: () => act(kind, { amount: t.amount }) }, label, kbd("R"));
      const sync = (value) => {
        const v = Math.min(high, Math.max(low, Math.round(Number(value) || low)));
        t.amount = v;
        label.textContent = betText(v);
        range.value = v;
        if (document.activeElement !== field) field.value = v;
      };
      const range = h("input", { type: "range", id: "amount-range", min: low, max: high, value: t.amount, "aria-label": tr("table.amount"), oninput: (e) => sync(e.target.value) });
      const field = h("input", {
        type: "number",
        id: "amount",
        min: low,
        max: high,
        value: t.amount,
        "aria-label": tr("table.amount_total"),
        oninput: (e) => sync(e.target.value),
        onkeydown: (e) => {
          if (e.key === "Enter") act(kind, { amount: t.amount });
        },
      });
      buttons.push(h("div.amount", {}, low === high ? null : [range, field, h("span.bounds", {}, `${low}–${high}`)], button));
    }
    if (l.actions.includes("parole")) buttons.push(h("button.act", { id: "act-parole", onclick: () => act("parole") }, tr("table.offer_parole")));
    if (l.actions.includes("accept")) buttons.push(h("button.act.primary", { id: "act-accept", onclick: () => act("accept") }, tr("table.accept_parole")));
    if (l.actions.includes("decline")) buttons.push(h("button.act", { id: "act-decline", onclick: () => act("decline") }, tr("table.decline_parole")));
    if (canDiscard()) {
      const n = t.selected.size;
      buttons.push(
        h("p.hint", {}, tr("table.discard_hint", { n: l.max_discard })),
        h("button.act.primary", { id: "act-discard", disabled: n === 0, onclick: () => act("discard", { cards: [...t.selected] }) }, `${tr("table.discard_n", { n })} `, kbd("D")),
      );
    }
    if (l.actions.includes("stand")) buttons.push(h("button.act", { id: "act-stand", onclick: () => act("stand") }, `${tr("action.stand")} `, kbd("S")));
    if (l.actions.includes("show")) buttons.push(h("button.act.primary", { id: "act-show", onclick: () => act("show") }, tr("action.show")));
    if (l.actions.includes("muck")) buttons.push(h("button.act", { id: "act-muck", onclick: () => act("muck") }, tr("action.muck")));
    fill(controls, h("div.actions", { role: "group", "aria-label": tr("turn.yours") }, buttons));
  }

  function onKey(e) {
    if (e.target.closest?.("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
    // Tiled tables: the keys are the focused table's.
    if (document.querySelectorAll(".table-page").length > 1 && !el.contains(document.activeElement)) return;
    const l = legal();
    // The draw by keys: 1-5 pick or put back that card, D throws them, S stands pat.
    if (l && canDiscard() && /^[1-5]$/.test(e.key)) {
      const code = t.view.hand.players.find((p) => p.seat === mySeat())?.cards?.[Number(e.key) - 1];
      if (code) {
        e.preventDefault();
        toggle(code);
      }
      return;
    }
    const what = KEYS[e.key.toLowerCase()];
    if (what === "sit" || what === "leave") {
      if (seatKey(what)) e.preventDefault();
      return;
    }
    if (!what || !l) return;
    e.preventDefault();
    if (what === "discard" && canDiscard() && t.selected.size) act("discard", { cards: [...t.selected] });
    if (what === "stand" && l.actions.includes("stand")) act("stand");
    if (what === "fold" && l.actions.includes("fold")) act("fold");
    else if (what === "check-call") {
      if (l.actions.includes("check")) act("check");
      else if (l.actions.includes("call")) act("call");
    } else if (what === "bet-raise") {
      const bounds = betBounds(l);
      if (bounds) act(bounds[0], { amount: t.amount ?? bounds[1] });
    }
  }
  /** T: the sit form at the first free seat, its buy-in focused (Enter
   * sits down); L: leave a cash table.  Each says what it did. */
  function seatKey(what) {
    if (!session.me || !t.view) return false;
    const mine = mySeat();
    const cash = !t.view.table.tournament;
    if (what === "sit") {
      if (mine !== null || t.view.table.status !== "open" || !cash) return false;
      const taken = new Set(t.view.seats.map((s) => s.seat));
      const seat = Array.from({ length: t.view.table.seats }, (_, i) => i + 1).find((n) => !taken.has(n));
      if (!seat) {
        seatSaid.textContent = tr("table.key_no_seat");
        return true;
      }
      openSit(seat);
      seatBar.querySelector("#buy-in")?.focus();
      seatSaid.textContent = tr("table.key_sit", { seat });
      return true;
    }
    if (mine === null || !cash) return false;
    seatSaid.textContent = tr("table.key_leave");
    seatCommand("leave");
    return true;
  }

  document.addEventListener("keydown", onKey);
  const relayout = () => t.view && drawFelt();
  PHONE.addEventListener("change", relayout);

  // ------------------------------------------------------ seat commands

  async function seatCommand(command, body = {}) {
    try {
      show(await api("POST", `tables/${tableId}/${command}/`, { command_id: commandId(), ...body }));
    } catch (e) {
      if (e.code === "insufficient_funds") {
        notice(`${e.message} ${tr("table.wallet_short")}`, "error");
      } else notice(e.message, "error");
    }
  }

  function openSit(seat) {
    t.sitSeat = seat;
    drawSeatBar();
  }

  function sitForm(seat) {
    const tb = t.view.table;
    const max = tb.max_buy_in ?? tb.min_buy_in * 5;
    return h(
        "form.sit-form",
        {
          id: "sit-form",
          dataset: { seat },
          onsubmit: (e) => {
            e.preventDefault();
            const data = new FormData(e.target);
            seatCommand("sit", { seat, buy_in: Number(data.get("buy_in")), wait_for_big_blind: data.get("wait") === "on" });
          },
        },
        h("label", { for: "buy-in" }, tr("table.buy_in_label", { seat, min: tb.min_buy_in, max: tb.max_buy_in ?? tr("table.no_max") })),
        h("input", { id: "buy-in", name: "buy_in", type: "number", min: tb.min_buy_in, max: tb.max_buy_in ?? undefined, value: Math.min(max, tb.min_buy_in * 2 > max ? max : tb.min_buy_in * 2) }),
        h("label.inline", {}, h("input", { type: "checkbox", name: "wait" }), ` ${tr("table.wait_for_bb")}`),
        h("button.primary", { type: "submit", id: "sit-confirm" }, tr("table.sit_down")),
        h("button", { type: "button", onclick: () => { t.sitSeat = null; drawSeatBar(); } }, tr("common.cancel")),
      );
  }

  function drawSeatBar() {
    const mine = mySeat();
    if (mine !== null) t.sitSeat = null;
    if (session.me && mine === null && t.sitSeat) {
      // Kept while the table moves on, with what was typed in it.
      const taken = t.view.seats.some((s) => s.seat === t.sitSeat);
      const open = seatBar.querySelector("#sit-form");
      if (!taken && open?.dataset.seat === String(t.sitSeat)) return;
      if (!taken) {
        seatBar.dataset.key = "";
        fill(seatBar, sitForm(t.sitSeat));
        return;
      }
      t.sitSeat = null;
    }
    if (!session.me || mine === null) {
      seatBar.dataset.key = "";
      const pick = h("p.hint", { id: "pick-seat" }, tr("table.pick_seat"), t.view.table.tournament ? null : [` ${tr("table.or_press")} `, h("kbd", {}, "T")]);
      fill(seatBar, session.me && t.view.table.status === "open" ? pick : null);
      return;
    }
    const seat = t.view.seats.find((s) => s.seat === mine);
    // Drawn again only when it changes: what the player is typing stays.
    const key = JSON.stringify([mine, seat.sitting_out, seat.stack, seat.top_up_queued, seat.time_bank, t.view.table.max_buy_in]);
    if (seatBar.dataset.key === key) return;
    seatBar.dataset.key = key;
    const cash = !t.view.table.tournament;
    const most = t.view.table.max_buy_in === null ? undefined : Math.max(0, t.view.table.max_buy_in - seat.stack);
    const topUp = h("input", { type: "number", id: "top-up-amount", min: 1, max: most, placeholder: most === undefined ? tr("table.chips") : tr("table.up_to", { most }), "aria-label": tr("table.top_up_amount") });
    fill(
      seatBar,
      h(
        "div.seat-commands",
        {},
        seat.sitting_out
          ? h("button", { id: "sit-in", onclick: () => seatCommand("sit-in") }, tr("table.sit_in"))
          : h("button", { id: "sit-out", onclick: () => seatCommand("sit-out") }, tr("table.sit_out")),
        // A tournament's chips come and go with the tournament alone.
        cash ? h("span.top-up", {}, topUp, h("button", { id: "top-up", onclick: () => topUp.value && seatCommand("top-up", { amount: Number(topUp.value) }) }, tr("table.top_up"))) : null,
        cash ? h("button.danger", { id: "leave", onclick: () => seatCommand("leave") }, `${tr("table.leave")} `, h("kbd", {}, "L")) : null,
        seat.top_up_queued ? h("span.hint", {}, ` ${tr("table.top_up_queued", { amount: seat.top_up_queued })}`) : null,
        seat.time_bank !== undefined ? h("span.hint", { id: "time-bank" }, ` ${tr("table.time_bank", { seconds: seat.time_bank })}`) : null,
      ),
    );
  }

  function drawResult() {
    const hand = t.view.hand;
    if (!hand || !(hand.awards.length || hand.phase === "showdown")) {
      const last = t.lastHand;
      if (!last) {
        fill(result);
        return;
      }
      const who = (seat) => last.names.get(seat) || tr("table.seat_n", { seat });
      fill(
        result,
        h("h2", {}, tr("table.last_hand", { number: last.number })),
        last.shown.length ? h("ol.shown", {}, last.shown.map((e) => h("li", {}, `${who(e.seat)}: `, h("span.cards.small", {}, e.cards.map((c) => face(c)))))) : null,
        h("ul.awards", { id: "awards" }, last.awards.map((a) => h("li.winner", {}, awardText(a, who)))),
      );
      return;
    }
    const shown = hand.showdown_order
      .map((seat) => hand.players.find((p) => p.seat === seat))
      .filter((p) => p && p.cards && p.shown);
    fill(
      result,
      h("h2", {}, hand.phase === "complete" ? tr("table.result") : tr("phase.showdown")),
      shown.length
        ? h(
            "ol.shown",
            {},
            shown.map((p) =>
              h("li", {}, `${p.screen_name}: `, h("span.cards.small", {}, p.cards.map((c) => face(c))), p.hand_name ? h("span.hand-name", {}, ` ${handText(p.cards, p.hand_name, isLowball(t.view.table.game))}`) : null),
            ),
          )
        : null,
      h(
        "ul.awards",
        { id: "awards" },
        hand.awards.map((a) =>
          h("li.winner", {}, awardText(a, seatName)),
        ),
      ),
    );
  }

  // The clock's countdown moves by itself.
  const ticker = setInterval(() => {
    const clock = t.view?.clock;
    if (!clock) return;
    const node = felt.querySelector(`[data-clock="${clock.seat}"]`);
    if (node) node.textContent = clockText(clock);
    const short = clock.seat === mySeat() && Date.parse(clock.deadline) - Date.now() < 10_000;
    if (short && t.warned !== clock.deadline) {
      t.warned = clock.deadline;
      announce.textContent = tr("table.ten_seconds");
    }
    drawControls(); // the bet window may have closed (drawn only if the menu changed)
  }, 250);

  show(t.view);
  return {
    el,
    stop: () => {
      feed.close();
      clearInterval(ticker);
      clearTimeout(t.refreshTimer);
      document.removeEventListener("keydown", onKey);
      PHONE.removeEventListener("change", relayout);
      if (window.pokerTable?.feed === feed) delete window.pokerTable;
    },
  };
}

/** A pot's award in words: who won how much, and which side pot. */
function awardText(award, name) {
  const wins = award.shares.map((s) => tr("log.wins", { name: name(s.seat), amount: s.amount })).join(", ");
  return award.pot ? `${wins} (${tr("log.side_pot", { pot: award.pot })})` : wins;
}

export { cardsText };
