// The player's own account: his screen name and password, logging out
// everywhere, his deposit limit, self-exclusion (asked twice: it cannot
// be undone), and his wallet's history.

import { api, session, setToken } from "./api.js";
import { fill, form, h, notice, when } from "./dom.js";
import { alertPrefs, setAlertPrefs } from "./turns.js";
import { historyTable } from "./wallet.js";
import { LANGUAGE_NAMES, chooseLanguage, chosenLanguage, tr } from "./i18n.js";

export async function accountView(loadMe) {
  if (!session.me) {
    location.hash = "#/login";
    return { el: h("p", {}, tr("account.login_first")) };
  }
  const limitsLine = h("p", { id: "limits-now" });
  const drawLimits = (l) => {
    fill(
      limitsLine,
      l.excluded_until ? h("strong", { id: "excluded-until" }, `${tr("account.excluded_until", { until: when(l.excluded_until) })} `) : null,
      l.daily_deposit === null ? tr("account.no_deposit_limit") : tr("account.deposit_limit_now", { daily: l.daily_deposit, left: l.deposit_remaining }),
      l.next_from ? ` ${tr("account.next_limit", { from: when(l.next_from), limit: l.next_daily_deposit ?? tr("account.no_limit") })}` : "",
    );
  };
  drawLimits(await api("GET", "me/limits/"));

  const screenName = form(
    [{ name: "screen_name", label: tr("auth.screen_name"), value: session.me.screen_name }],
    tr("account.save_screen_name"),
    async (v) => {
      const me = await api("PATCH", "me/", v);
      await loadMe();
      notice(tr("account.screen_name_saved", { name: me.screen_name }));
    },
    { id: "screen-name-form" },
  );

  const password = form(
    [
      { name: "old_password", label: tr("account.current_password"), type: "password", autocomplete: "current-password" },
      { name: "new_password", label: tr("account.new_password"), type: "password", autocomplete: "new-password" },
    ],
    tr("account.change_password"),
    async (v) => {
      const answer = await api("POST", "auth/password/", v);
      setToken(answer.token); // the others' tokens stop working; this browser gets a new one
      password.reset();
      notice(tr("account.password_changed"));
    },
    { id: "password-form" },
  );

  const everywhere = h(
    "button.danger",
    {
      id: "logout-all",
      onclick: async () => {
        if (!confirm(tr("account.logout_all_confirm"))) return;
        await api("POST", "auth/logout-all/");
        setToken(null);
        await loadMe();
        notice(tr("account.logged_out_all"));
        location.hash = "#/login";
      },
    },
    tr("account.logout_all"),
  );

  const depositLimit = form(
    [{ name: "daily", label: tr("account.deposit_limit_label"), type: "number", min: 0, required: false }],
    tr("account.set_deposit_limit"),
    async (v) => {
      drawLimits(await api("PUT", "me/deposit-limit/", { daily: v.daily === "" ? null : v.daily }));
      notice(tr("account.deposit_limit_set"));
    },
    { id: "deposit-limit-form" },
  );

  // Self-exclusion: the days, then a second step that says what it means.
  const confirmBox = h("div.confirm", { id: "exclusion-confirm", hidden: true });
  const exclusion = form(
    [{ name: "days", label: tr("account.exclusion_days"), type: "number", min: 1, value: 7 }],
    tr("account.exclude_me"),
    async (v) => {
      const until = new Date(Date.now() + v.days * 86_400_000);
      fill(
        confirmBox,
        h("p", {}, tr("account.exclusion_warning", { days: v.days, until: until.toLocaleString() })),
        h("button.danger", { id: "exclusion-yes", onclick: () => exclude(v.days) }, tr("account.exclusion_yes", { days: v.days })),
        h("button", { type: "button", onclick: () => (confirmBox.hidden = true) }, tr("account.exclusion_no")),
      );
      confirmBox.hidden = false;
    },
    { id: "exclusion-form" },
  );
  const exclude = async (days) => {
    try {
      drawLimits(await api("POST", "me/self-exclusion/", { days }));
      confirmBox.hidden = true;
      notice(tr("account.excluded", { days }));
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
  const alerts = h("div.alerts", {}, toggle("sound", tr("account.alert_sound")), h("br"), toggle("notify", tr("account.alert_notify"), askNotify));

  const history = await historyTable();
  const el = h(
    "section.account",
    { id: "account" },
    h("h1", {}, tr("nav.account")),
    h("p.hint", {}, tr("account.who", { username: session.me.username, id: session.me.id, since: when(session.me.date_joined) })),
    h("div.panels", {},
      h("section.card-panel", {}, h("h2", {}, tr("account.screen_name")), screenName),
      h("section.card-panel", {}, h("h2", {}, tr("auth.password")), password),
      h("section.card-panel", {}, h("h2", {}, tr("account.sessions")), h("p.hint", {}, tr("account.sessions_hint")), everywhere),
      h("section.card-panel", {}, h("h2", {}, tr("account.limits")), limitsLine, depositLimit),
      h("section.card-panel", {}, h("h2", {}, tr("account.self_exclusion")), exclusion, confirmBox),
      h("section.card-panel", {}, h("h2", {}, tr("account.alerts")), h("p.hint", {}, tr("account.alerts_hint")), alerts),
      h("section.card-panel", {}, h("h2", {}, tr("account.language")), languagePicker()),
    ),
    h("h2", {}, tr("account.wallet_history")),
    history.el,
  );
  return { el };
}

/** The language of the client (and of the API's messages to it): the
 * browser's, or one the player picks, kept for his account (every browser
 * he logs in from follows it). */
function languagePicker() {
  const options = [["", tr("account.language_browser")], ...Object.entries(LANGUAGE_NAMES)];
  const chosen = chosenLanguage() || "";
  return h(
    "label",
    { for: "language" },
    `${tr("account.language_label")} `,
    h(
      "select",
      { id: "language", onchange: (e) => pickLanguage(e.target.value || null) },
      options.map(([value, name]) => h("option", { value, selected: value === chosen }, name)),
    ),
  );
}

async function pickLanguage(choice) {
  try {
    await api("PUT", "me/language/", { language: choice });
    chooseLanguage(choice);
  } catch (e) {
    notice(e.message, "error");
  }
}
