// A running tournament at a glance: the level and a big clock, the next
// break, the blinds now and next (the over blind too, in 32 Card Draw),
// players left of entries, the stacks, the payouts by place and the
// player's own place and stack.

import { h } from "./dom.js";
import { tr } from "./i18n.js";

const mmss = (s) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;

/** Seconds left on the clock now (null: it does not run down). */
export function secondsLeft(clock) {
  if (!clock) return null;
  if (clock.ends_at) return Math.max(0, Math.round((Date.parse(clock.ends_at) - Date.now()) / 1000));
  return clock.seconds_left ?? null;
}

/** The big clock's text. */
export function bigClock(view) {
  const c = view.clock;
  if (!c) return tr(`tournament.status.${view.status}`);
  const left = secondsLeft(c);
  if (c.paused) return `${left === null ? "" : mmss(left)} ${tr("glance.paused")}`.trim();
  return left === null ? tr("glance.last_level") : mmss(left);
}

function blinds(level, game) {
  if (!level) return "–";
  const over = game === "32-card-draw" ? ` · ${tr("blind.ob")} ${2 * level.big_blind}` : "";
  return `${level.small_blind}/${level.big_blind}${over}${level.ante ? ` · ${tr("table.ante", { ante: level.ante })}` : ""}`;
}

/** The next break after the level in force: "after level 4, in about 23:10". */
function nextBreak(view) {
  const c = view.clock;
  const br = (view.structure.breaks || []).find((b) => b.after_level >= c.level);
  if (!br) return tr("glance.no_break");
  const perMinute = view.structure.minute_seconds || 60;
  let seconds = secondsLeft(c) ?? 0;
  for (const l of view.structure.levels) if (l.level > c.level && l.level <= br.after_level) seconds += l.minutes * perMinute;
  return tr("glance.next_break", { level: br.after_level, minutes: br.minutes, in: mmss(seconds) });
}

export function ordinal(n) {
  const form = n % 100 >= 11 && n % 100 <= 13 ? "other" : { 1: "one", 2: "two", 3: "few" }[n % 10] || "other";
  return tr(`ordinal.${form}`, { n });
}

/** The panel for a running tournament (null before and after). */
export function glance(view, standings, me) {
  const c = view.clock;
  if (!c) return null;
  const live = standings.filter((s) => s.in !== false && s.stack > 0);
  const stacks = live.map((s) => s.stack);
  const sum = stacks.reduce((a, b) => a + b, 0);
  const mine = me ? standings.find((s) => s.player === me.id) : null;
  const item = (term, value, id) => [h("dt", {}, term), h("dd", id ? { id } : {}, value)];
  return h(
    "section.glance",
    { id: "glance", "aria-label": tr("glance.label") },
    h("div.big-clock", { id: "big-clock", role: "timer", "aria-live": "off" }, bigClock(view)),
    h(
      "dl",
      {},
      item(tr("lobby.col.level"), c.on_break ? tr("glance.level_break", { level: c.level }) : String(c.level), "glance-level"),
      item(tr("lobby.col.blinds"), blinds(c, view.game), "glance-blinds"),
      item(tr("glance.next"), blinds(c.next_level, view.game), "glance-next"),
      item(tr("glance.next_break_term"), nextBreak(view), "glance-break"),
      item(tr("lobby.col.players"), tr("glance.players_left", { left: view.players_left ?? live.length, entries: view.entries }), "glance-players"),
      stacks.length
        ? item(tr("glance.stacks"), tr("glance.stacks_value", { average: Math.round(sum / stacks.length), largest: Math.max(...stacks), smallest: Math.min(...stacks) }), "glance-stacks")
        : null,
      mine && mine.in !== false ? item(tr("glance.you"), tr("glance.you_value", { place: ordinal(mine.place), of: live.length, stack: mine.stack }), "glance-you") : null,
    ),
    h(
      "div.payouts",
      {},
      h("h2", {}, tr("glance.payouts")),
      h(
        "ol",
        { id: "glance-payouts" },
        view.prizes.map((p) => h("li", {}, `${ordinal(p.place)}: `, p.cash ? `${p.cash}` : "", p.cash && p.ticket ? ` ${tr("glance.and")} ` : "", p.ticket ? tr("glance.seat_in", { target: view.satellite_target || tr("glance.target_tournament") }) : "")),
      ),
    ),
  );
}
