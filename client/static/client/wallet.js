// The player's wallet (live from ws/me/) and ledger history; the
// cashier's deposits and withdrawals.

import { Feed, api, commandId, rows, session } from "./api.js";
import { fill, form, h, notice, when } from "./dom.js";

export async function walletView() {
  if (!session.me) {
    location.hash = "#/login";
    return { el: h("p", {}, "Log in first.") };
  }
  const cash = h("strong", { id: "cash" }, "…");
  const tickets = h("ul.tickets");
  const history = h("tbody");
  const empty = h("p.hint", { id: "no-chips", hidden: true });
  let page = 1;

  const ticket = (t) =>
    h("li", { "data-ticket": t.ticket }, `${t.count} ticket(s) into ${t.enters}, worth ${t.value} each, good until ${when(t.expires_at) || t.expires}`);
  const drawTickets = async () => fill(tickets, (await api("GET", "tickets/")).map(ticket));
  const drawWallet = (wallet) => {
    cash.textContent = wallet.cash;
    drawTickets().catch((e) => notice(e.message, "error"));
    empty.hidden = wallet.cash > 0;
    fill(
      empty,
      "No chips? Ask a cashier for a deposit, giving your player number ",
      h("strong", {}, String(session.me.id)),
      ".",
    );
  };
  const loadHistory = async () => {
    const data = await api("GET", `me/ledger/?page=${page}`);
    fill(
      history,
      rows(data).map((e) =>
        h(
          "tr",
          {},
          h("td", {}, when(e.at)),
          h("td", {}, e.kind.replaceAll("_", " ")),
          h("td.num", { class: e.amount < 0 ? "num neg" : "num pos" }, e.amount > 0 ? `+${e.amount}` : e.amount),
          h("td.num", {}, e.balance_after),
          h("td", {}, e.memo || e.ref || ""),
        ),
      ),
    );
    prev.disabled = page <= 1;
    next.disabled = !data?.next;
  };
  const prev = h("button", { onclick: () => { page -= 1; loadHistory(); } }, "Newer");
  const next = h("button", { onclick: () => { page += 1; loadHistory(); } }, "Older");

  drawWallet(await api("GET", "me/wallet/"));
  await loadHistory();
  const feed = new Feed("me/", {
    onFrame: (frame) => {
      if (frame.type === "wallet") {
        drawWallet(frame.wallet || frame);
        loadHistory();
      }
    },
  });
  const el = h(
    "section.wallet",
    {},
    h("h1", {}, "Wallet"),
    h("p.balance", {}, "Cash: ", cash, h("span.hint", {}, ` (player number ${session.me.id})`)),
    empty,
    tickets,
    h("h2", {}, "History"),
    h("div.scroll", {}, h("table.list", { id: "ledger" }, h("thead", {}, h("tr", {}, ["When", "What", "Amount", "Balance", "Note"].map((c) => h("th", { scope: "col" }, c)))), history)),
    h("p.pager", {}, prev, next),
  );
  return { el, stop: () => feed.close() };
}

export function cashierView() {
  const result = h("p.hint", { id: "cashier-result" });
  const move = (kind) => async (v) => {
    const answer = await api("POST", `wallets/${v.player}/${kind}/`, {
      transfer_id: commandId(),
      amount: v.amount,
      memo: v.memo || "",
    });
    const wallet = await api("GET", `wallets/${v.player}/`);
    result.textContent = `${kind === "deposit" ? "Deposited" : "Withdrew"} ${v.amount}; player ${v.player} now has ${wallet.cash}.`;
    notice(result.textContent);
    return answer;
  };
  const fields = [
    { name: "player", label: "Player number", type: "number", min: 1 },
    { name: "amount", label: "Amount", type: "number", min: 1 },
    { name: "memo", label: "Note", required: false },
  ];
  const el = h(
    "section.card-panel.narrow",
    {},
    h("h1", {}, "Cashier"),
    h("h2", {}, "Deposit"),
    form(fields, "Deposit", move("deposit"), { id: "deposit-form" }),
    h("h2", {}, "Withdraw"),
    form(fields, "Withdraw", move("withdraw"), { id: "withdraw-form" }),
    result,
  );
  return { el };
}
