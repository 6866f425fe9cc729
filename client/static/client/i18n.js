// The client's words in the player's language: one catalogue per language
// (i18n/<lang>.js, the same keys in each), chosen by the player on his
// account page (kept by the API for his account, and in this browser) or
// else by the browser's languages.

import en from "./i18n/en.js";
import de from "./i18n/de.js";

export const CATALOGUES = { en, de };
export const LANGUAGE_NAMES = { en: "English", de: "Deutsch" };
const CHOICE_KEY = "pokerroom.language";

function browserLanguage() {
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const base = tag.toLowerCase().split("-")[0];
    if (base in CATALOGUES) return base;
  }
  return "en";
}

/** The player's choice in this browser (null: the browser's languages decide). */
export function chosenLanguage() {
  const choice = localStorage.getItem(CHOICE_KEY);
  return choice in CATALOGUES ? choice : null;
}

/** The language the page is in: the player's choice, else the browser's. */
export const language = chosenLanguage() || browserLanguage();
document.documentElement.lang = language;

/** Keep `choice` in this browser (null: follow the browser's languages)
 * and show the page in it. */
export function chooseLanguage(choice) {
  if (choice) localStorage.setItem(CHOICE_KEY, choice);
  else localStorage.removeItem(CHOICE_KEY);
  location.reload();
}

/** At login: the language his account chose, if it is not this page's
 * already (the page is shown again in it). */
export function followAccount(choice) {
  const wanted = choice in CATALOGUES ? choice : null;
  if (wanted !== chosenLanguage()) chooseLanguage(wanted);
}

/** The text of `key` in the page's language, `{name}` filled from `params`. */
export function tr(key, params = {}) {
  const text = CATALOGUES[language][key] ?? en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** A feed's state as Feed's onStatus gives it ("live", "refused: why") in words. */
export function feedStatus(state) {
  const [kind, ...why] = state.split(": ");
  return tr(`feed.${kind}`, { why: why.join(": ") });
}
