// The player's wallet (live from ws/me/) and ledger history; the
// cashier's deposits and withdrawals.

import { Feed, api, commandId, rows, session } from "./api.js";
import { fill, form, h, notice, when } from "./dom.js";
import { tr } from "./i18n.js";

const SUBJECT_ROUTES = { table: "tables", casino: "casino", tournament: "tournaments" };
const SUBJECT_KINDS = { table: "subject.table", casino: "subject.casino", tournament: "subject.tournament" };

/** What a ledger line is about (its table or tournament), as a link to it. */
export function subjectLink(subject) {
  if (!subject) return null;
  const kind = tr(SUBJECT_KINDS[subject.kind]);
  const text = subject.name || `${kind} ${subject.id}`;
  return h("a.subject", { href: `#/${SUBJECT_ROUTES[subject.kind]}/${subject.id}`, title: kind }, text);
}

/** The player's ledger history by pages, newest first: `el`, and `reload()`
 * for when the wallet moves. */
export async function historyTable() {
  const body = h("tbody");
  let page = 1;
  const prev = h("button", { onclick: () => { page -= 1; reload(); } }, tr("wallet.newer"));
  const next = h("button", { onclick: () => { page += 1; reload(); } }, tr("wallet.older"));
  const reload = async () => {
    const data = await api("GET", `me/ledger/?page=${page}`);
    fill(
      body,
      rows(data).map((e) =>
        h(
          "tr",
          {},
          h("td", {}, when(e.at)),
          h("td", {}, tr(`ledger.${e.kind}`)),
          h("td.num", { class: e.amount < 0 ? "num neg" : "num pos" }, e.amount > 0 ? `+${e.amount}` : e.amount),
          h("td.num", {}, e.balance_after),
          h("td", {}, subjectLink(e.subject), e.subject && e.memo ? " · " : "", e.memo),
        ),
      ),
    );
    prev.disabled = page <= 1;
    next.disabled = !data?.next;
  };
  await reload();
  const el = h(
    "div",
    {},
    h("div.scroll", {}, h("table.list", { id: "ledger" }, h("thead", {}, h("tr", {}, ["when", "what", "amount", "balance", "note"].map((c) => h("th", { scope: "col" }, tr(`wallet.col.${c}`))))), body)),
    h("p.pager", {}, prev, next),
  );
  return { el, reload };
}

export async function walletView() {
  if (!session.me) {
    location.hash = "#/login";
    return { el: h("p", {}, tr("account.login_first")) };
  }
  const cash = h("strong", { id: "cash" }, "…");
  const tickets = h("ul.tickets");
  const empty = h("p.hint", { id: "no-chips", hidden: true });

  const ticket = (t) =>
    h("li", { "data-ticket": t.ticket }, tr("wallet.ticket_line", { count: t.count, enters: t.enters, value: t.value, until: when(t.expires_at) || t.expires }));
  const drawTickets = async () => fill(tickets, (await api("GET", "tickets/")).map(ticket));
  const drawWallet = (wallet) => {
    cash.textContent = wallet.cash;
    drawTickets().catch((e) => notice(e.message, "error"));
    empty.hidden = wallet.cash > 0;
    fill(
      empty,
      `${tr("wallet.no_chips")} `,
      h("strong", {}, String(session.me.id)),
      ".",
    );
  };
  drawWallet(await api("GET", "me/wallet/"));
  const history = await historyTable();
  const feed = new Feed("me/", {
    onFrame: (frame) => {
      if (frame.type === "wallet") {
        drawWallet(frame.wallet || frame);
        history.reload();
      }
    },
  });
  const el = h(
    "section.wallet",
    {},
    h("h1", {}, tr("nav.wallet")),
    h("p.balance", {}, `${tr("wallet.cash")} `, cash, h("span.hint", {}, ` (${tr("wallet.player_number", { id: session.me.id })})`)),
    empty,
    tickets,
    h("h2", {}, tr("wallet.history")),
    history.el,
  );
  return { el, stop: () => feed.close() };
}

/** A player number's input that names its holder as it is typed (a
 * cashier sees whom he pays before he pays). */
function payeeField() {
  const named = h("p.hint.payee", { "aria-live": "polite" });
  let asked = 0;
  const look = async (input) => {
    const turn = ++asked;
    const number = Number(input.value);
    if (!input.value || !Number.isInteger(number) || number < 1) return fill(named);
    try {
      const wallet = await api("GET", `wallets/${number}/`);
      if (turn === asked) fill(named, `${tr("cashier.pays")} `, h("strong.payee-name", {}, wallet.screen_name), ` (${tr("cashier.payee", { number, cash: wallet.cash })})`);
    } catch (e) {
      if (turn === asked) fill(named, e.message);
    }
  };
  return { name: "player", label: tr("cashier.player_number"), type: "number", min: 1, after: named, onInput: look };
}

export function cashierView() {
  const result = h("p.hint", { id: "cashier-result" });
  const move = (kind) => async (v) => {
    const answer = await api("POST", `wallets/${v.player}/${kind}/`, {
      transfer_id: commandId(),
      amount: v.amount,
      memo: v.memo || "",
    });
    const { screen_name: who, cash } = answer.wallet;
    result.textContent = tr(`cashier.${kind}_done`, { amount: v.amount, who, player: v.player, cash });
    notice(result.textContent);
    return answer;
  };
  const fields = () => [
    payeeField(),
    { name: "amount", label: tr("table.amount"), type: "number", min: 1 },
    { name: "memo", label: tr("wallet.col.note"), required: false },
  ];
  const el = h(
    "section.card-panel.narrow",
    {},
    h("h1", {}, tr("nav.cashier")),
    h("h2", {}, tr("cashier.deposit")),
    form(fields(), tr("cashier.deposit"), move("deposit"), { id: "deposit-form" }),
    h("h2", {}, tr("cashier.withdraw")),
    form(fields(), tr("cashier.withdraw"), move("withdraw"), { id: "withdraw-form" }),
    result,
  );
  return { el };
}
