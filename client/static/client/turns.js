// Multi-tabling: the tables where the logged-in player sits, watched
// from any page, so that a table where it is his turn is flagged in the
// lobby and in the page's title, with an optional sound and desktop
// notification (both off until he turns them on).
//
// His tables are those his own stream (ws/me/) says he sat down at, and
// those a table page saw him seated at (kept in this browser); each is
// watched through its feed, and its view fetched when something happens.

import { Feed, api, session } from "./api.js";
import { tr } from "./i18n.js";

const TABLES_KEY = "pokerroom.tables";
const PREFS_KEY = "pokerroom.alerts";
const TITLE = document.title;

const watched = new Map(); // table id -> { feed, name, yours, timer }
const listeners = new Set();
let meFeed = null;

/** The player's alert choices: {sound, notify}, both false at first. */
export function alertPrefs() {
  try {
    return { sound: false, notify: false, ...JSON.parse(localStorage.getItem(PREFS_KEY) || "{}") };
  } catch {
    return { sound: false, notify: false };
  }
}

export function setAlertPrefs(prefs) {
  localStorage.setItem(PREFS_KEY, JSON.stringify({ ...alertPrefs(), ...prefs }));
}

/** The tables where it is his turn now: [{id, name}]. */
export function myTurns() {
  return [...watched].filter(([, w]) => w.yours).map(([id, w]) => ({ id, name: w.name }));
}

/** The tables he sits at (that this browser knows of). */
export function myTables() {
  return [...watched.keys()];
}

/** Call `listener()` whenever a table's turn changes; returns the undo. */
export function onTurns(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function remembered() {
  try {
    return new Set(JSON.parse(localStorage.getItem(TABLES_KEY) || "[]"));
  } catch {
    return new Set();
  }
}

function remember(ids) {
  localStorage.setItem(TABLES_KEY, JSON.stringify([...ids]));
}

/** A table page saw him seated (or not) at `id`. */
export function seatedAt(id, seated) {
  const ids = remembered();
  if (seated) ids.add(id);
  else ids.delete(id);
  remember(ids);
  if (seated) watch(id);
  else unwatch(id);
}

function changed() {
  const turns = myTurns();
  document.title = turns.length ? `● ${tr("turn.yours_at", { tables: turns.map((t) => t.name).join(", ") })} · ${TITLE}` : TITLE;
  for (const listener of listeners) listener(turns);
}

function alert(name) {
  const prefs = alertPrefs();
  if (prefs.sound) beep();
  if (prefs.notify && "Notification" in window && Notification.permission === "granted" && document.hidden) {
    new Notification(tr("turn.yours"), { body: name, tag: `turn-${name}` });
  }
}

function beep() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    tone.frequency.value = 660;
    tone.connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.15);
  } catch {
    // no sound on this browser: the title still says it
  }
}

async function check(id) {
  const w = watched.get(id);
  if (!w) return;
  try {
    const view = await api("GET", `tables/${id}/`);
    w.name = view.table.name || tr("table.numbered", { id });
    const seat = view.you?.seat ?? null;
    if (seat === null) {
      seatedAt(id, false);
      changed();
      return;
    }
    const hand = view.hand;
    const yours = Boolean(hand && hand.to_act === seat && hand.legal && hand.phase !== "complete");
    if (yours !== w.yours) {
      w.yours = yours;
      if (yours) alert(w.name);
      changed();
    }
  } catch {
    // a table out of reach is left as it was; its feed tries again
  }
}

function watch(id) {
  if (watched.has(id) || !session.me) return;
  const w = { name: tr("table.numbered", { id }), yours: false, timer: null, feed: null };
  watched.set(id, w);
  w.feed = new Feed(`tables/${id}/`, {
    onFrame: (frame) => {
      if (!["snapshot", "event", "private"].includes(frame.type)) return;
      clearTimeout(w.timer);
      w.timer = setTimeout(() => check(id), 80);
    },
  });
}

function unwatch(id) {
  const w = watched.get(id);
  if (!w) return;
  w.feed.close();
  clearTimeout(w.timer);
  watched.delete(id);
}

/** Start (or stop, when nobody is logged in) watching his tables. */
export function watchMyTables() {
  for (const id of [...watched.keys()]) unwatch(id);
  meFeed?.close();
  meFeed = null;
  changed();
  if (!session.me) return;
  for (const id of remembered()) watch(id);
  meFeed = new Feed("me/", {
    onFrame: (frame) => {
      if (frame.type !== "seat") return;
      if (frame.event.type === "table.player_seated") seatedAt(frame.table, true);
      if (frame.event.type === "table.player_left") check(frame.table);
    },
  });
}
