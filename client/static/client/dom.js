// A few helpers to build the page without a framework.

import { tr } from "./i18n.js";

/** An element: h("button.primary", {onclick}, "Fold"); ``style`` is an object of CSS properties. */
export function h(spec, props = {}, ...children) {
  const [tag, ...classes] = spec.split(".");
  const el = document.createElement(tag || "div");
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    // Styles through the CSSOM: the page's Content-Security-Policy refuses style attributes.
    else if (key === "style") Object.assign(el.style, value);
    else if (key in el && key !== "list" && typeof value !== "string") el[key] = value;
    else el.setAttribute(key, value === true ? "" : value);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace an element's children. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** Say something to the user for a while (errors stay until the next). */
export function notice(message, kind = "info") {
  const box = document.getElementById("notice");
  fill(box, message ? h(`p.${kind}`, {}, message) : null);
  clearTimeout(notice.timer);
  if (message && kind !== "error") notice.timer = setTimeout(() => fill(box), 4000);
}

/** A refusal's `fields` as dotted paths: {"structure": {"levels": [{}, {"big_blind": [..]}]}}
 * gives "structure.levels[1].big_blind". */
export function flatten(fields, prefix = "", out = {}) {
  if (Array.isArray(fields) && fields.every((m) => typeof m === "string")) {
    if (fields.length) out[prefix] = [...(out[prefix] || []), ...fields];
  } else if (Array.isArray(fields)) {
    fields.forEach((f, i) => flatten(f, `${prefix}[${i}]`, out));
  } else if (fields && typeof fields === "object") {
    for (const [k, v] of Object.entries(fields)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (fields !== undefined && fields !== null) {
    out[prefix] = [...(out[prefix] || []), String(fields)];
  }
  return out;
}

/**
 * Show an API refusal on a form: each message under the input it names
 * (`slotFor(path)`: the error line of that field, or `general`), and in
 * `general` either the pointer to them or, when no field is named, the
 * refusal's own message.
 */
export function showRefusal(error, slotFor, general, pointer = tr("form.see_fields")) {
  const named = Object.entries(flatten(error.body?.fields || error.body?.details));
  for (const [path, messages] of named) {
    const slot = slotFor(path);
    const where = slot === general || slot.dataset.field === path || path === "non_field_errors" ? "" : `${path}: `;
    slot.append(h("span", {}, `${where}${messages.join(" ")} `));
  }
  general.prepend(named.some(([path]) => slotFor(path) !== general) ? pointer : error.message, " ");
}

/**
 * A form whose submit runs `action(values)`.  A refusal of the API is
 * shown by the fields it names, the rest in the form's alert line; the
 * lines are cleared at each submit, and when the browser's own check
 * stops one (an `invalid` input).
 */
export function form(fields, label, action, extra = {}) {
  const el = h("form.stack", { ...extra });
  const slots = new Map();
  for (const f of fields) {
    const id = `f-${f.name}-${Math.random().toString(36).slice(2, 7)}`;
    const slot = h("p.error.field-error", { id: `${id}-error`, dataset: { field: f.name } });
    slots.set(f.name, slot);
    let timer = null;
    const input = h("input", {
      id,
      name: f.name,
      type: f.type || "text",
      required: f.required !== false,
      autocomplete: f.autocomplete,
      value: f.value,
      min: f.min,
      max: f.max,
      maxlength: f.maxlength,
      "aria-describedby": `${id}-error`,
      oninput: f.onInput
        ? () => {
            clearTimeout(timer);
            timer = setTimeout(() => f.onInput(input), 250);
          }
        : undefined,
    });
    el.append(h("label", { for: id }, f.label), input, ...(f.after ? [f.after] : []), slot);
  }
  const error = h("p.error", { role: "alert" });
  el.append(h("button.primary", { type: "submit" }, label), error);
  const clear = () => {
    for (const slot of [...slots.values(), error]) fill(slot);
  };
  el.addEventListener("invalid", clear, true);
  el.addEventListener("submit", async (event) => {
    event.preventDefault();
    clear();
    const values = Object.fromEntries(new FormData(el).entries());
    for (const f of fields) if (f.type === "number" && values[f.name] !== "") values[f.name] = Number(values[f.name]);
    try {
      await action(values);
    } catch (e) {
      showRefusal(e, (path) => slots.get(path.split(/[.[]/)[0]) || error, error);
    }
  });
  return el;
}

export function when(iso) {
  return iso ? new Date(iso).toLocaleString() : "";
}
