// One line of the table's log for each event of its feed (events come
// by seat, cut for the viewer: a hidden card is never in them).

import { cardsText } from "./cards.js";
import { tr } from "./i18n.js";

const BLINDS = { small: "log.small_blind", big: "log.big_blind", over: "log.over_blind", extra: "log.blind" };

export function describe(e, name) {
  const who = () => name(e.seat);
  const timed = e.timed_out ? ` ${tr("log.timed")}` : "";
  const said = (key, params = {}) => tr(key, { name: who(), ...params });
  switch (e.type) {
    case "hand.started":
      return tr("log.hand_started", { name: name(e.button) });
    case "hand.ante_posted":
      return said("log.ante", { amount: e.amount });
    case "hand.blind_posted":
      return said(e.dead ? "log.blind_dead" : "log.blind_posted", { blind: BLINDS[e.blind] ? tr(BLINDS[e.blind]) : e.blind, amount: e.amount });
    case "hand.cards_dealt":
      return tr("log.dealt");
    case "hand.folded":
      return `${said("log.folds")}${timed}`;
    case "hand.checked":
      return `${said("log.checks")}${timed}`;
    case "hand.called":
      return said("log.calls", { amount: e.amount });
    case "hand.bet_placed":
      return said("log.bets", { amount: e.to });
    case "hand.raised":
      return said("log.raises", { amount: e.to });
    case "hand.bet_returned":
      return said("log.returned", { amount: e.amount });
    case "hand.betting_started":
      return e.round === 0 ? tr("log.betting") : tr("log.betting_after", { round: e.round });
    case "hand.cards_drawn": {
      const n = e.cards ? e.cards.length : e.count;
      return n ? said("log.draws", { n }) : null;
    }
    case "hand.draw_started":
      return tr("log.draw");
    case "hand.discarded": {
      const n = e.cards ? e.cards.length : e.count;
      return n ? said("log.discards", { n }) : `${said("log.stands_pat")}${timed}`;
    }
    case "hand.parole_offered":
      return said("log.parole_offered");
    case "hand.parole_accepted":
      return said("log.parole_accepted");
    case "hand.parole_declined":
      return `${said("log.parole_declined")}${timed}`;
    case "hand.showdown_started":
      return tr("phase.showdown");
    case "hand.shown":
      return said("log.shows", { cards: cardsText(e.cards || []) });
    case "hand.mucked":
      return said("log.mucks");
    case "hand.pot_awarded":
      return `${e.shares.map((s) => tr("log.wins", { name: name(s.seat), amount: s.amount })).join(", ")}${e.pot ? ` (${tr("log.side_pot", { pot: e.pot })})` : ""}`;
    case "hand.ended":
      return tr("phase.complete");
    case "table.player_seated":
      return said("log.sits_down");
    case "table.player_left":
      return said("log.leaves");
    case "table.sat_out":
      return said("log.sits_out");
    case "table.sat_in":
      return said("log.is_back");
    case "table.topped_up":
      return said("log.tops_up");
    case "table.time_bank_used":
      return said("log.time_bank");
    default:
      return null;
  }
}
