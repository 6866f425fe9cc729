// The directors' schedules (GET/POST schedules/): each recurring
// tournament with when it runs, the tournaments it has created that are
// still to start, why it could not create the last one if it could not,
// and pausing, resuming or deleting it; and a form to set one up from a
// template (the tournament create body, as JSON).

import { api } from "./api.js";
import { fill, form, h, notice, when } from "./dom.js";
import { tr } from "./i18n.js";

const TEMPLATE = {
  game: "32-card-draw",
  betting: "pot-limit",
  structure: { preset: "standard", minutes: 20 },
  starting_stack: 3000,
  buy_in: 100,
  fee: 10,
  guarantee: 0,
};
const DAYS = [1, 2, 3, 4, 5, 6, 7];

function timing(s) {
  const days = s.every === "weekly" ? s.weekdays.map((d) => tr(`schedule.day.${d}`)).join(", ") : tr("schedule.daily");
  return tr("schedule.when", { days, time: s.time, zone: s.time_zone, horizon: s.horizon_days });
}

export function schedulesPanel() {
  const list = h("ul", { id: "staff-schedules" });
  const act = async (path, method, done) => {
    try {
      await api(method, path);
      notice(done);
      await load();
    } catch (e) {
      notice(e.message, "error");
    }
  };
  const item = (s) =>
    h(
      "li",
      { dataset: { schedule: s.id } },
      h("strong", {}, s.name),
      ` ${timing(s)}`,
      s.guarantee ? ` · ${tr("lobby.guarantee", { amount: s.guarantee })}` : null,
      ` · ${tr(s.paused ? "schedule.paused" : "schedule.active")}`,
      s.problem ? h("p.error", {}, tr("schedule.problem", { problem: s.problem })) : null,
      h(
        "ul",
        {},
        s.tournaments.map((t) => h("li", {}, h("a", { href: `#/tournaments/${t.tournament}` }, when(t.starts_at)), ` (${tr(`tournament.status.${t.status}`)}, ${tr("schedule.entries", { n: t.entries })})`)),
      ),
      s.paused
        ? h("button", { onclick: () => act(`schedules/${s.id}/resume/`, "POST", tr("schedule.resumed", { name: s.name })) }, tr("schedule.resume"))
        : h("button", { onclick: () => act(`schedules/${s.id}/pause/`, "POST", tr("schedule.paused_now", { name: s.name })) }, tr("schedule.pause")),
      " ",
      h("button.danger", { onclick: () => confirm(tr("schedule.delete_confirm", { name: s.name })) && act(`schedules/${s.id}/`, "DELETE", tr("schedule.deleted", { name: s.name })) }, tr("schedule.delete")),
    );
  const load = async () => {
    const all = await api("GET", "schedules/");
    fill(list, all.length ? all.map(item) : h("li", {}, tr("schedule.none")));
  };

  const every = h("select", { name: "every", id: "schedule-every" }, ["daily", "weekly"].map((e) => h("option", { value: e }, tr(`schedule.every.${e}`))));
  const days = h(
    "fieldset",
    { id: "schedule-days" },
    h("legend", {}, tr("schedule.weekdays")),
    DAYS.map((d) => h("label", {}, h("input", { type: "checkbox", value: String(d), "data-day": String(d) }), ` ${tr(`schedule.day.${d}`)} `)),
  );
  const template = h("textarea", { id: "schedule-template", rows: 8 }, JSON.stringify(TEMPLATE, null, 2));
  const create = form(
    [
      { name: "name", label: tr("staff.name") },
      { name: "time", label: tr("schedule.time"), type: "time", value: "20:00" },
      { name: "time_zone", label: tr("schedule.time_zone"), required: false },
      { name: "horizon_days", label: tr("schedule.horizon_days"), type: "number", min: 1, max: 60, value: 7 },
    ],
    tr("schedule.create"),
    async (v) => {
      let body;
      try {
        body = JSON.parse(template.value);
      } catch {
        throw Object.assign(new Error(tr("schedule.bad_template")), { body: { fields: { template: [tr("schedule.bad_template")] } } });
      }
      const weekdays = [...days.querySelectorAll("input:checked")].map((i) => Number(i.value));
      const data = { name: v.name, time: v.time, horizon_days: v.horizon_days, every: every.value, weekdays, template: body };
      if (v.time_zone) data.time_zone = v.time_zone;
      const made = await api("POST", "schedules/", data);
      notice(tr("schedule.created", { name: made.name, n: made.tournaments.length }));
      await load();
    },
    { id: "create-schedule" },
  );
  create.prepend(h("label", { for: "schedule-every" }, tr("schedule.every")), every, days, h("label", { for: "schedule-template" }, tr("schedule.template")), template);
  return { el: [h("h2", {}, tr("schedule.heading")), list, h("h3", {}, tr("schedule.set_up")), create], load };
}
