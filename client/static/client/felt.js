// The felt: seats around the table, their cards, stacks, badges, bets and
// clock, and the pot in the middle.  Drawn from the table view alone
// (plus what the page knows: the blinds and the cards picked to throw).

import { back, face } from "./cards.js";
import { fill, h } from "./dom.js";
import { tr } from "./i18n.js";

const BLIND_LABEL = { small: "blind.sb", big: "blind.bb", over: "blind.ob", extra: "blind.post" };

/** How far from the centre a seat's bet lies, across and down, as a share
 * of the seat's own distance (a phone's side seats are close to the pot). */
const BET_REACH = { wide: [0.55, 0.55], phone: [0.3, 0.55] };

/** A phone's felt stands upright: the seats keep inside the screen. */
export const PHONE = window.matchMedia("(max-width: 760px)");

/**
 * Draw the felt of `view` into `el`.  `o`: what the table page knows
 * beyond the view — the blinds posted this hand (`blinds`, by seat), the
 * cards picked to throw (`selected`), whether the viewer is drawing now
 * (`drawing`), whether he may sit (`canSit`), the names (`seatName`) and
 * what clicks do (`onSit(seat)`, `onToggle(card)`).
 */
export function drawFelt(el, view, o) {
  const tb = view.table;
  const hand = view.hand;
  const seats = tb.seats;
  const mine = view.you?.seat ?? null;
  const bySeat = new Map(view.seats.map((s) => [s.seat, s]));
  const inHand = new Map((hand?.players || []).map((p) => [p.seat, p]));
  const clock = view.clock;
  const nodes = [];
  // A phone's felt stands upright: the seats keep inside the screen.
  const [rx, ry] = PHONE.matches ? [30, 40] : [41, 38];
  for (let n = 1; n <= seats; n += 1) {
    const angle = (2 * Math.PI * (n - (mine || 1))) / seats;
    const style = { left: `${50 + rx * Math.sin(angle)}%`, top: `${50 + ry * Math.cos(angle)}%` };
    const seat = bySeat.get(n);
    if (!seat) {
      const sit = o.canSit && mine === null && tb.status === "open";
      nodes.push(
        h(
          "div.seat.empty",
          { style, dataset: { seat: n } },
          sit ? h("button.sit", { onclick: () => o.onSit(n), "aria-label": tr("felt.sit_in_seat", { seat: n }) }, tr("felt.sit_n", { seat: n })) : h("span.hint", {}, tr("felt.seat_n", { seat: n })),
        ),
      );
      continue;
    }
    const player = inHand.get(n);
    const toAct = hand && hand.to_act === n && !["complete", "dealing"].includes(hand.phase);
    const classes = ["seat"];
    if (n === mine) classes.push("me");
    if (toAct) classes.push("to-act");
    if (player?.folded) classes.push("folded");
    const badges = [];
    if (hand && hand.button === n) badges.push(h("span.badge.button", { title: tr("felt.button") }, tr("felt.button_badge")));
    if (hand && o.blinds[n]) badges.push(h(`span.badge.blind.${o.blinds[n]}`, {}, BLIND_LABEL[o.blinds[n]] ? tr(BLIND_LABEL[o.blinds[n]]) : o.blinds[n]));
    const state = [];
    if (player?.folded) state.push(tr("felt.folded"));
    if (player?.all_in) state.push(tr("felt.all_in"));
    if (seat.sitting_out) state.push(tr("felt.sitting_out"));
    if (seat.leaving) state.push(tr("felt.leaving"));
    if (seat.waiting_for_big_blind) state.push(tr("felt.waiting_bb"));
    if (player?.mucked) state.push(tr("felt.mucked"));
    if (hand?.phase === "draw" && player?.last_discard_count >= 0) {
      state.push(player.last_discard_count ? tr("felt.drew", { n: player.last_discard_count }) : tr("felt.stood_pat"));
    }
    nodes.push(
      h(
        `div.${classes.join(".")}`,
        { style, dataset: { seat: n }, role: "group", "aria-label": tr("felt.seat_label", { seat: n, name: seat.screen_name }) },
        h("div.cards", {}, seatCards(player, n === mine && o.drawing, o)),
        h("div.plate", {}, h("span.name", {}, seat.screen_name), h("span.stack", { dataset: { stack: n } }, player && hand.phase !== "complete" ? player.stack : seat.stack)),
        h("div.badges", {}, badges, state.length ? h("span.state", {}, state.join(", ")) : null),
        toAct && clock && clock.seat === n ? h("div.clock", { dataset: { clock: n } }, clockText(clock)) : null,
      ),
    );
    // The bet lies in front of its seat, between it and the pot, clear of
    // the neighbours' cards (on a phone's narrow felt too).
    if (player && player.bet && hand.phase === "betting") {
      const [bx, by] = PHONE.matches ? BET_REACH.phone : BET_REACH.wide;
      const front = { left: `${50 + bx * rx * Math.sin(angle)}%`, top: `${50 + by * ry * Math.cos(angle)}%` };
      nodes.push(h("div.bet", { style: front, dataset: { bet: n }, title: tr("felt.bet_title", { name: seat.screen_name }) }, player.bet));
    }
  }
  const centre = h(
    "div.centre",
    {},
    hand
      ? [
          h("div.pot", { id: "pot" }, tr("felt.pot", { pot: hand.pot })),
          potsLine(hand),
          h("div.phase", { id: "phase" }, phaseText(hand, o.seatName)),
        ]
      : h("div.phase", { id: "phase" }, view.seats.length < 2 ? tr("felt.waiting_players") : tr("felt.next_hand_soon")),
  );
  fill(el, centre, nodes);
  // Laid out only once on the page: a felt drawn before it is shown settles then.
  if (el.isConnected) settleBets(el);
  else requestAnimationFrame(() => el.isConnected && settleBets(el));
}

const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** Where the felt is small (a tile, a phone), move each bet nearer the pot
 * or aside until it covers no seat's cards or plate and not the pot. */
function settleBets(el) {
  const obstacles = [...el.querySelectorAll(".seat .cards, .seat .plate, #pot, #phase, .centre .pot, .centre .phase")].map((e) => e.getBoundingClientRect());
  for (const bet of el.querySelectorAll(".bet")) {
    const [x, y] = [parseFloat(bet.style.left), parseFloat(bet.style.top)];
    const free = () => !obstacles.some((o) => o.width && meets(bet.getBoundingClientRect(), o));
    if (free()) continue;
    let placed = false;
    for (const f of [0.85, 0.7, 1.15, 0.55]) {
      for (const dx of [0, 9, -9, 18, -18, 27, -27]) {
        bet.style.left = `${50 + (x - 50) * f + dx}%`;
        bet.style.top = `${50 + (y - 50) * f}%`;
        if ((placed = free())) break;
      }
      if (placed) break;
    }
    if (!placed) {
      bet.style.left = `${x}%`;
      bet.style.top = `${y}%`;
    }
  }
}

// Side pots once someone is all-in, each contested by two or more (a
// part of a bet nobody has called yet is in the total, no pot of its own;
// before anyone is all-in the layers of the bets are no side pots yet).
function potsLine(hand) {
  if (!hand.players.some((p) => p.all_in)) return null;
  const pots = hand.pots.filter((p) => p.eligible.length > 1);
  if (pots.length < 2) return null;
  return h("div.pots", {}, pots.map((p, i) => (i ? tr("felt.side_pot", { n: i, amount: p.amount }) : tr("felt.main_pot", { amount: p.amount }))).join(" · "));
}

function seatCards(player, drawing, o) {
  if (!player || player.folded || player.mucked) return [];
  if (player.cards) {
    return player.cards.map((code) =>
      face(
        code,
        drawing
          ? {
              role: "button",
              tabindex: 0,
              class: `card face${"hd".includes(code[1]) ? " red" : ""}${o.selected.has(code) ? " selected" : ""}`,
              "aria-pressed": String(o.selected.has(code)),
              onclick: () => o.onToggle(code),
              onkeydown: (e) => {
                if (e.key === " " || e.key === "Enter") {
                  e.preventDefault();
                  o.onToggle(code);
                }
              },
            }
          : {},
      ),
    );
  }
  return Array.from({ length: player.card_count }, back);
}

function phaseText(hand, seatName) {
  if (hand.phase === "betting") return hand.round === 0 ? tr("phase.before_draw") : tr("phase.betting_round", { round: hand.round + 1 });
  if (hand.phase === "draw") return tr("phase.draw");
  if (hand.phase === "parole") return tr("phase.parole", { name: seatName(hand.parole_by) });
  if (hand.phase === "showdown") return tr("phase.showdown");
  if (hand.phase === "complete") return tr("phase.complete");
  return hand.phase;
}

/** The countdown of a clock: the action time, the bet window, the time bank. */
export function clockText(clock) {
  const now = Date.now();
  const deadline = Date.parse(clock.deadline);
  const expires = Date.parse(clock.expires || clock.deadline);
  const betUntil = clock.bet_until ? Date.parse(clock.bet_until) : null;
  const secs = (ms) => Math.max(0, Math.ceil(ms / 1000));
  if (now < deadline) {
    const bet = betUntil && now < betUntil ? ` · ${tr("clock.bet", { seconds: secs(betUntil - now) })}` : betUntil ? ` · ${tr("clock.bet_closed")}` : "";
    return `${secs(deadline - now)}s${bet}`;
  }
  if (now < expires) return tr("table.time_bank", { seconds: secs(expires - now) });
  return tr("clock.time");
}
