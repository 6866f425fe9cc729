// The player's own account: his screen name and password, logging out
// everywhere, his deposit limit, self-exclusion (asked twice: it cannot
// be undone), and his wallet's history.

import { api, session, setToken } from "./api.js";
import { fill, form, h, notice, when } from "./dom.js";
import { alertPrefs, setAlertPrefs } from "./turns.js";
import { historyTable } from "./wallet.js";

export async function accountView(loadMe) {
  if (!session.me) {
    location.hash = "#/login";
    return { el: h("p", {}, "Log in first.") };
  }
  const limitsLine = h("p", { id: "limits-now" });
  const drawLimits = (l) => {
    fill(
      limitsLine,
      l.excluded_until ? h("strong", { id: "excluded-until" }, `Self-excluded until ${when(l.excluded_until)}. `) : null,
      l.daily_deposit === null ? "No deposit limit." : `Deposit limit: ${l.daily_deposit} in any 24 hours (${l.deposit_remaining} left now).`,
      l.next_from ? ` From ${when(l.next_from)}: ${l.next_daily_deposit ?? "no limit"}.` : "",
    );
  };
  drawLimits(await api("GET", "me/limits/"));

  const screenName = form(
    [{ name: "screen_name", label: "Screen name (shown at tables)", value: session.me.screen_name }],
    "Save screen name",
    async (v) => {
      const me = await api("PATCH", "me/", v);
      await loadMe();
      notice(`You are ${me.screen_name} at the tables now.`);
    },
    { id: "screen-name-form" },
  );

  const password = form(
    [
      { name: "old_password", label: "Current password", type: "password", autocomplete: "current-password" },
      { name: "new_password", label: "New password", type: "password", autocomplete: "new-password" },
    ],
    "Change password",
    async (v) => {
      const answer = await api("POST", "auth/password/", v);
      setToken(answer.token); // the others' tokens stop working; this browser gets a new one
      password.reset();
      notice("Password changed; your other devices are logged out.");
    },
    { id: "password-form" },
  );

  const everywhere = h(
    "button.danger",
    {
      id: "logout-all",
      onclick: async () => {
        if (!confirm("Log out on every device, this one too?")) return;
        await api("POST", "auth/logout-all/");
        setToken(null);
        await loadMe();
        notice("Logged out everywhere.");
        location.hash = "#/login";
      },
    },
    "Log out everywhere",
  );

  const depositLimit = form(
    [{ name: "daily", label: "Most I may deposit in any 24 hours (empty: no limit)", type: "number", min: 0, required: false }],
    "Set deposit limit",
    async (v) => {
      drawLimits(await api("PUT", "me/deposit-limit/", { daily: v.daily === "" ? null : v.daily }));
      notice("Deposit limit set: a lower one holds at once, a higher one after 24 hours.");
    },
    { id: "deposit-limit-form" },
  );

  // Self-exclusion: the days, then a second step that says what it means.
  const confirmBox = h("div.confirm", { id: "exclusion-confirm", hidden: true });
  const exclusion = form(
    [{ name: "days", label: "Days away from play", type: "number", min: 1, value: 7 }],
    "Exclude me…",
    async (v) => {
      const until = new Date(Date.now() + v.days * 86_400_000);
      fill(
        confirmBox,
        h("p", {}, `For ${v.days} days, until ${until.toLocaleString()}, you cannot sit, register or deposit. It cannot be shortened or lifted before then, not even by staff.`),
        h("button.danger", { id: "exclusion-yes", onclick: () => exclude(v.days) }, `Yes, exclude me for ${v.days} days`),
        h("button", { type: "button", onclick: () => (confirmBox.hidden = true) }, "No, keep playing"),
      );
      confirmBox.hidden = false;
    },
    { id: "exclusion-form" },
  );
  const exclude = async (days) => {
    try {
      drawLimits(await api("POST", "me/self-exclusion/", { days }));
      confirmBox.hidden = true;
      notice(`You are excluded from play for ${days} days.`);
    } catch (e) {
      notice(e.message, "error");
    }
  };

  // Alerts when it is his turn at one of his tables: off until he asks.
  const prefs = alertPrefs();
  const toggle = (key, label, extra = async () => true) =>
    h(
      "label.inline",
      {},
      h("input", {
        type: "checkbox",
        id: `alert-${key}`,
        checked: prefs[key],
        onchange: async (e) => {
          const on = e.target.checked && (await extra());
          e.target.checked = on;
          setAlertPrefs({ [key]: on });
        },
      }),
      ` ${label}`,
    );
  const askNotify = async () => "Notification" in window && (await Notification.requestPermission()) === "granted";
  const alerts = h("div.alerts", {}, toggle("sound", "A sound when it is my turn"), h("br"), toggle("notify", "A desktop notification when it is my turn", askNotify));

  const history = await historyTable();
  const el = h(
    "section.account",
    { id: "account" },
    h("h1", {}, "Your account"),
    h("p.hint", {}, `${session.me.username} · player number ${session.me.id} · since ${when(session.me.date_joined)}`),
    h("div.panels", {},
      h("section.card-panel", {}, h("h2", {}, "Screen name"), screenName),
      h("section.card-panel", {}, h("h2", {}, "Password"), password),
      h("section.card-panel", {}, h("h2", {}, "Sessions"), h("p.hint", {}, "Logs out this browser and every other device."), everywhere),
      h("section.card-panel", {}, h("h2", {}, "Limits"), limitsLine, depositLimit),
      h("section.card-panel", {}, h("h2", {}, "Self-exclusion"), exclusion, confirmBox),
      h("section.card-panel", {}, h("h2", {}, "Your turn alerts"), h("p.hint", {}, "The page title and the lobby always say when it is your turn."), alerts),
    ),
    h("h2", {}, "Wallet history"),
    history.el,
  );
  return { el };
}
