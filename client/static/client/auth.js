// Sign up and log in: both answer with a token for this browser.

import { api, setToken } from "./api.js";
import { form, h, notice } from "./dom.js";
import { tr } from "./i18n.js";

// `loadMe` is the app's (it redraws the menu): handed in, so that this
// module does not import the one that imports it.
async function enter(path, values, loadMe) {
  const answer = await api("POST", path, values);
  setToken(answer.token);
  const me = await loadMe();
  notice(tr("auth.welcome", { name: me.screen_name }));
  location.hash = "#/lobby";
}

export function loginView(loadMe) {
  const el = h(
    "section.card-panel.narrow",
    {},
    h("h1", {}, tr("auth.login")),
    form(
      [
        { name: "username", label: tr("auth.username"), autocomplete: "username" },
        { name: "password", label: tr("auth.password"), type: "password", autocomplete: "current-password" },
      ],
      tr("auth.login"),
      (v) => enter("auth/login/", v, loadMe),
      { id: "login-form" },
    ),
    h("p", {}, tr("auth.new_here"), " ", h("a", { href: "#/signup" }, tr("auth.signup"))),
  );
  return { el };
}

export function signupView(loadMe) {
  const el = h(
    "section.card-panel.narrow",
    {},
    h("h1", {}, tr("auth.signup")),
    form(
      [
        { name: "username", label: tr("auth.username"), autocomplete: "username" },
        { name: "screen_name", label: tr("auth.screen_name"), required: false },
        { name: "email", label: tr("auth.email"), type: "email", required: false, autocomplete: "email" },
        { name: "password", label: tr("auth.password"), type: "password", autocomplete: "new-password" },
      ],
      tr("auth.signup"),
      (v) => {
        const body = Object.fromEntries(Object.entries(v).filter(([, x]) => x !== ""));
        return enter("auth/register/", body, loadMe);
      },
      { id: "signup-form" },
    ),
    h("p", {}, tr("auth.have_account"), " ", h("a", { href: "#/login" }, tr("auth.login"))),
  );
  return { el };
}
