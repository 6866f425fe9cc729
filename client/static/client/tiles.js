// Two to four tables on one screen, each a whole table page; the keys act
// at the table that holds the focus.

import { h } from "./dom.js";
import { tableView } from "./table.js";

export async function tilesView(ids) {
  const shown = await Promise.all(ids.slice(0, 4).map((id) => tableView(id)));
  const el = h("section.tiles", { id: "tiles", dataset: { count: shown.length } }, shown.map((s) => h("div.tile", {}, s.el)));
  return { el, stop: () => shown.forEach((s) => s.stop && s.stop()) };
}
