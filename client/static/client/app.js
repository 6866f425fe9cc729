// The client's entry point: who is logged in, the menu, and the routes
// (by the URL's fragment: #/lobby, #/tables/3, ...).

import { api, session, setToken } from "./api.js";
import { fill, h, notice } from "./dom.js";
import { loginView, signupView } from "./auth.js";
import { lobbyView } from "./lobby.js";
import { walletView, cashierView } from "./wallet.js";
import { tableView } from "./table.js";
import { casinoView } from "./casino.js";
import { casinoCardView } from "./casino_card.js";
import { handsView, handView } from "./hands.js";
import { tournamentView } from "./tournament.js";
import { staffView } from "./staff.js";
import { accountView } from "./account.js";
import { tilesView } from "./tiles.js";
import { watchMyTables } from "./turns.js";
import { stepChainView } from "./steps.js";
import { flightEventView } from "./flights.js";
import { followAccount, tr } from "./i18n.js";

const ROUTES = [
  [/^#\/login$/, () => loginView(loadMe)],
  [/^#\/signup$/, () => signupView(loadMe)],
  [/^#\/wallet$/, () => walletView()],
  [/^#\/account$/, () => accountView(loadMe)],
  [/^#\/cashier$/, () => cashierView()],
  [/^#\/staff$/, () => staffView()],
  [/^#\/tables\/(\d+)$/, (m) => tableView(Number(m[1]))],
  [/^#\/tiles\/(\d+(?:,\d+){0,3})$/, (m) => tilesView(m[1].split(",").map(Number))],
  [/^#\/casino\/(\d+)$/, (m) => casinoView(Number(m[1]))],
  [/^#\/casino\/(\d+)\/strategy$/, (m) => casinoCardView(Number(m[1]))],
  [/^#\/hands(?:\?.*)?$/, () => handsView()],
  [/^#\/hands\/([0-9-]+)$/, (m) => handView(m[1])],
  [/^#\/tournaments\/(\d+)$/, (m) => tournamentView(Number(m[1]))],
  [/^#\/step-chains\/(\d+)$/, (m) => stepChainView(Number(m[1]))],
  [/^#\/flight-events\/(\d+)$/, (m) => flightEventView(Number(m[1]))],
  [/^#\/lobby$/, () => lobbyView()],
];

let cleanup = null;
let routed = 0;

async function route() {
  if (cleanup) cleanup();
  cleanup = null;
  const turn = ++routed;
  const hash = location.hash || "#/lobby";
  const main = document.getElementById("main");
  const found = ROUTES.map(([re, view]) => [hash.match(re), view]).find(([m]) => m);
  if (!found) {
    location.hash = "#/lobby";
    return;
  }
  const [match, view] = found;
  main.dataset.view = hash.split("/")[1];
  try {
    const shown = await view(match);
    if (turn !== routed) {
      // The user went elsewhere while this view loaded: drop it.
      if (shown.stop) shown.stop();
      return;
    }
    fill(main, shown.el);
    cleanup = shown.stop || null;
  } catch (e) {
    if (turn === routed) fill(main, h("p.error", { role: "alert" }, e.message));
  }
}

/** The menu for who is (or is not) logged in. */
export function renderNav() {
  const nav = document.getElementById("nav");
  const me = session.me;
  const link = (href, text) => h("a", { href }, text);
  if (!me) {
    fill(nav, link("#/lobby", tr("nav.lobby")), link("#/login", tr("nav.login")), link("#/signup", tr("nav.signup")));
    return;
  }
  const roles = me.roles || [];
  fill(
    nav,
    link("#/lobby", tr("nav.lobby")),
    link("#/wallet", tr("nav.wallet")),
    link("#/hands", tr("nav.hands")),
    roles.includes("cashier") ? link("#/cashier", tr("nav.cashier")) : null,
    me.is_staff ? link("#/staff", tr("nav.staff")) : null,
    h("a.who", { id: "who", href: "#/account", title: tr("nav.account") }, me.screen_name),
    h("button.link", { id: "logout", onclick: logout }, tr("nav.logout")),
  );
}

/** Who the token belongs to (null: nobody, or the token is gone). */
export async function loadMe() {
  session.me = null;
  if (session.token) {
    try {
      session.me = await api("GET", "me/");
      followAccount(session.me.language);
    } catch {
      setToken(null);
    }
  }
  renderNav();
  watchMyTables();
  return session.me;
}

async function logout() {
  try {
    await api("POST", "auth/logout/");
  } catch {
    // the token is dropped here whatever the server says
  }
  setToken(null);
  session.me = null;
  renderNav();
  watchMyTables();
  notice(tr("nav.logged_out"));
  location.hash = "#/lobby";
  route();
}

window.addEventListener("hashchange", route);
loadMe().then(route);
