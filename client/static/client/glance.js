// A running tournament at a glance: the level and a big clock, the next
// break, the blinds now and next (the over blind too, in 32 Card Draw),
// players left of entries, the stacks, the payouts by place and the
// player's own place and stack.

import { h } from "./dom.js";

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
  if (!c) return view.status.replaceAll("_", " ");
  const left = secondsLeft(c);
  if (c.paused) return `${left === null ? "" : mmss(left)} paused`.trim();
  return left === null ? "last level" : mmss(left);
}

function blinds(level, game) {
  if (!level) return "–";
  const over = game === "32-card-draw" ? ` · OB ${2 * level.big_blind}` : "";
  return `${level.small_blind}/${level.big_blind}${over}${level.ante ? ` · ante ${level.ante}` : ""}`;
}

/** The next break after the level in force: "after level 4, in about 23:10". */
function nextBreak(view) {
  const c = view.clock;
  const br = (view.structure.breaks || []).find((b) => b.after_level >= c.level);
  if (!br) return "none";
  const perMinute = view.structure.minute_seconds || 60;
  let seconds = secondsLeft(c) ?? 0;
  for (const l of view.structure.levels) if (l.level > c.level && l.level <= br.after_level) seconds += l.minutes * perMinute;
  return `after level ${br.after_level} (${br.minutes} min), in about ${mmss(seconds)}`;
}

function ordinal(n) {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${tail}`;
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
    { id: "glance", "aria-label": "At a glance" },
    h("div.big-clock", { id: "big-clock", role: "timer", "aria-live": "off" }, bigClock(view)),
    h(
      "dl",
      {},
      item("Level", c.on_break ? `${c.level} (break)` : String(c.level), "glance-level"),
      item("Blinds", blinds(c, view.game), "glance-blinds"),
      item("Next", blinds(c.next_level, view.game), "glance-next"),
      item("Next break", nextBreak(view), "glance-break"),
      item("Players", `${view.players_left ?? live.length} left of ${view.entries} entries`, "glance-players"),
      stacks.length
        ? item("Stacks", `average ${Math.round(sum / stacks.length)} · largest ${Math.max(...stacks)} · smallest ${Math.min(...stacks)}`, "glance-stacks")
        : null,
      mine && mine.in !== false ? item("You", `${ordinal(mine.place)} of ${live.length}, stack ${mine.stack}`, "glance-you") : null,
    ),
    h(
      "div.payouts",
      {},
      h("h2", {}, "Payouts"),
      h(
        "ol",
        { id: "glance-payouts" },
        view.prizes.map((p) => h("li", {}, `${ordinal(p.place)}: `, p.cash ? `${p.cash}` : "", p.cash && p.ticket ? " and " : "", p.ticket ? `a seat in ${view.satellite_target || "the target tournament"}` : "")),
      ),
    ),
  );
}
