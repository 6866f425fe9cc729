// Sign up and log in: both answer with a token for this browser.

import { api, setToken } from "./api.js";
import { form, h, notice } from "./dom.js";

// `loadMe` is the app's (it redraws the menu): handed in, so that this
// module does not import the one that imports it.
async function enter(path, values, loadMe) {
  const answer = await api("POST", path, values);
  setToken(answer.token);
  const me = await loadMe();
  notice(`Welcome, ${me.screen_name}.`);
  location.hash = "#/lobby";
}

export function loginView(loadMe) {
  const el = h(
    "section.card-panel.narrow",
    {},
    h("h1", {}, "Log in"),
    form(
      [
        { name: "username", label: "Username", autocomplete: "username" },
        { name: "password", label: "Password", type: "password", autocomplete: "current-password" },
      ],
      "Log in",
      (v) => enter("auth/login/", v, loadMe),
      { id: "login-form" },
    ),
    h("p", {}, "New here? ", h("a", { href: "#/signup" }, "Sign up")),
  );
  return { el };
}

export function signupView(loadMe) {
  const el = h(
    "section.card-panel.narrow",
    {},
    h("h1", {}, "Sign up"),
    form(
      [
        { name: "username", label: "Username", autocomplete: "username" },
        { name: "screen_name", label: "Screen name (shown at tables)", required: false },
        { name: "email", label: "Email", type: "email", required: false, autocomplete: "email" },
        { name: "password", label: "Password", type: "password", autocomplete: "new-password" },
      ],
      "Sign up",
      (v) => {
        const body = Object.fromEntries(Object.entries(v).filter(([, x]) => x !== ""));
        return enter("auth/register/", body, loadMe);
      },
      { id: "signup-form" },
    ),
    h("p", {}, "Have an account? ", h("a", { href: "#/login" }, "Log in")),
  );
  return { el };
}
