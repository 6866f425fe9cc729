// The service's public API as the client uses it: REST calls with the
// player's token, and WebSocket feeds that come back after a drop.

import { language } from "./i18n.js";

const TOKEN_KEY = "pokerroom.token";

export const session = {
  token: localStorage.getItem(TOKEN_KEY),
  me: null,
};

export function setToken(token) {
  session.token = token;
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
}

/** A refusal of the API: its HTTP status and the body's code and message. */
export class ApiError extends Error {
  constructor(status, body) {
    super(body?.message || `HTTP ${status}`);
    this.status = status;
    this.code = body?.code || "http_error";
    this.body = body;
  }
}

/** One REST call; the JSON answer, or an ApiError. */
export async function api(method, path, body) {
  const headers = { Accept: "application/json", "Accept-Language": language };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (session.token) headers.Authorization = `Token ${session.token}`;
  const answer = await fetch(`/api/${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "omit", // the token says who we are, never a cookie
  });
  const text = await answer.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { message: text.slice(0, 200) };
  }
  if (!answer.ok) {
    if (answer.status === 401 && session.token) setToken(null);
    throw new ApiError(answer.status, data);
  }
  return data;
}

/** A list answer, paged ({results}) or not. */
export function rows(data) {
  return Array.isArray(data) ? data : data?.results || [];
}

/** A fresh command id (UUID version 4). */
export function commandId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const RETRY_MS = [250, 500, 1000, 2000, 4000];

/**
 * A WebSocket stream that reconnects by itself.  A table feed resumes
 * from the last position it saw (`?after=`), so nothing is lost or shown
 * twice; other streams start again with their snapshot.
 */
export class Feed {
  constructor(path, { onFrame, onStatus = () => {}, resume = false }) {
    this.path = path;
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.resume = resume;
    this.position = null; // last feed position seen (table feeds)
    this.closed = false;
    this.attempt = 0;
    this.socket = null;
    this.connects = 0;
    this.open();
  }

  /**
   * The socket's URL.  A logged-in player's carries a ticket, asked for
   * right before each connect: good once, for seconds, so his token never
   * goes in a URL (servers and proxies log URLs).  `lang`: the page's
   * language, for the error frames' messages.
   */
  async url() {
    const params = new URLSearchParams({ lang: language });
    if (session.token) params.set("ticket", (await api("POST", "ws-ticket/")).ticket);
    if (this.resume && this.position !== null) params.set("after", String(this.position));
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = params.toString();
    return `${scheme}://${location.host}/ws/${this.path}${query ? `?${query}` : ""}`;
  }

  async open() {
    this.connects += 1;
    this.onStatus("connecting");
    let url;
    try {
      url = await this.url();
    } catch (error) {
      if (this.closed) return;
      if (error instanceof ApiError && error.status === 401) {
        this.onStatus(`refused: ${error.message}`);
        return;
      }
      this.retry();
      return;
    }
    if (this.closed) return;
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      this.onStatus("live");
    };
    socket.onmessage = (message) => {
      let frame;
      try {
        frame = JSON.parse(message.data);
      } catch {
        return;
      }
      if (typeof frame.position === "number" && (frame.type === "snapshot" || frame.type === "event" || frame.type === "private")) {
        this.position = Math.max(this.position ?? 0, frame.position);
      }
      this.onFrame(frame);
    };
    socket.onclose = (event) => {
      if (this.closed || socket !== this.socket) return;
      if (event.code >= 4400 && event.code < 4500) {
        this.onStatus(`refused: ${event.reason || event.code}`);
        return;
      }
      this.retry();
    };
  }

  /** Connect again after a wait that grows with each failed try. */
  retry() {
    this.onStatus("reconnecting");
    const wait = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)];
    this.attempt += 1;
    this.timer = setTimeout(() => this.open(), wait);
  }

  send(frame) {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(frame));
    return true;
  }

  /** Drop the connection as a network would (it comes back by itself). */
  drop() {
    this.socket?.close();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.socket?.close();
  }
}
