// One line of the table's log for each event of its feed (events come
// by seat, cut for the viewer: a hidden card is never in them).

import { cardsText } from "./cards.js";

const BLINDS = { small: "small blind", big: "big blind", over: "over blind", extra: "blind" };

export function describe(e, name) {
  const who = () => name(e.seat);
  const timed = e.timed_out ? " (time)" : "";
  switch (e.type) {
    case "hand.started":
      return `Hand starts; ${name(e.button)} has the button`;
    case "hand.ante_posted":
      return `${who()} posts ante ${e.amount}`;
    case "hand.blind_posted":
      return `${who()} posts ${BLINDS[e.blind] || e.blind} ${e.amount}${e.dead ? " (dead)" : ""}`;
    case "hand.cards_dealt":
      return "Cards dealt";
    case "hand.folded":
      return `${who()} folds${timed}`;
    case "hand.checked":
      return `${who()} checks${timed}`;
    case "hand.called":
      return `${who()} calls ${e.amount}`;
    case "hand.bet_placed":
      return `${who()} bets ${e.to}`;
    case "hand.raised":
      return `${who()} raises to ${e.to}`;
    case "hand.bet_returned":
      return `${e.amount} returned to ${who()}`;
    case "hand.betting_started":
      return e.round === 0 ? "Betting" : `Betting after draw ${e.round}`;
    case "hand.cards_drawn": {
      const n = e.cards ? e.cards.length : e.count;
      return n ? `${who()} draws ${n}` : null;
    }
    case "hand.draw_started":
      return "The draw";
    case "hand.discarded": {
      const n = e.cards ? e.cards.length : e.count;
      return n ? `${who()} discards ${n}` : `${who()} stands pat${timed}`;
    }
    case "hand.parole_offered":
      return `${who()} offers Parole`;
    case "hand.parole_accepted":
      return `${who()} accepts Parole`;
    case "hand.parole_declined":
      return `${who()} declines Parole${timed}`;
    case "hand.showdown_started":
      return "Showdown";
    case "hand.shown":
      return `${who()} shows ${cardsText(e.cards || [])}`;
    case "hand.mucked":
      return `${who()} mucks`;
    case "hand.pot_awarded":
      return `${e.shares.map((s) => `${name(s.seat)} wins ${s.amount}`).join(", ")}${e.pot ? ` (side pot ${e.pot})` : ""}`;
    case "hand.ended":
      return "Hand over";
    case "table.player_seated":
      return `${who()} sits down`;
    case "table.player_left":
      return `${who()} leaves`;
    case "table.sat_out":
      return `${who()} sits out`;
    case "table.sat_in":
      return `${who()} is back`;
    case "table.topped_up":
      return `${who()} tops up`;
    case "table.time_bank_used":
      return `${who()} uses the time bank`;
    default:
      return null;
  }
}
