// A few helpers to build the page without a framework.

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

/** A form whose submit runs `action(values)`, showing its refusal. */
export function form(fields, label, action, extra = {}) {
  const el = h("form.stack", { ...extra });
  for (const f of fields) {
    const id = `f-${f.name}-${Math.random().toString(36).slice(2, 7)}`;
    el.append(
      h("label", { for: id }, f.label),
      h("input", {
        id,
        name: f.name,
        type: f.type || "text",
        required: f.required !== false,
        autocomplete: f.autocomplete,
        value: f.value,
        min: f.min,
        max: f.max,
      }),
    );
  }
  const error = h("p.error", { role: "alert" });
  el.append(h("button.primary", { type: "submit" }, label), error);
  el.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const values = Object.fromEntries(new FormData(el).entries());
    for (const f of fields) if (f.type === "number" && values[f.name] !== "") values[f.name] = Number(values[f.name]);
    try {
      await action(values);
    } catch (e) {
      error.textContent = e.message;
    }
  });
  return el;
}

export function when(iso) {
  return iso ? new Date(iso).toLocaleString() : "";
}
