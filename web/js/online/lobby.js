// The online table's screens: the host's lobby (who sits where, the join link to copy or
// share and its QR code, who has arrived, Start), the join screen (a name, take a seat)
// and the bar over the table during play (whose table, who is connected).  Loaded only
// when a player opens or joins an online table.  Every word from the catalogues; the
// contract hooks are in docs/web-protocol.md ("Online tables").

import { el, $, openDialog, download } from "../dom/util.js";
import { t } from "../i18n.js";
import { copyText } from "../dialogs/share.js";
import { openTable, HOST_KEY } from "./host.js";
import { joinTable } from "./guest.js";
import { isRoomCode } from "./protocol.js";
import { engine } from "../engine.js";
import { hasSeatToken } from "./guest.js";
import { onlineLibraries } from "../online-libraries.js";
import { renderReactions, ReactionGate, coolDown, mayReact, foldReactions, foldOnTurn } from "./reactions.js";
import { renderThinking } from "./thinking.js";
import { creatureOf } from "../cast.js";
import { renderAfterGame, publicFileName } from "./after.js";

/** The words of each seat's presence and of the table's status (catalogue keys). */
const PRESENCE = {
  here: "online.presence.here", open: "online.presence.open", connected: "online.presence.connected",
  reconnecting: "online.presence.reconnecting", gone: "online.presence.gone", bot: "online.presence.bot",
  stand_in: "online.presence.stand_in",
};
const STATUS = {
  looking: "online.status.looking", waiting: "online.status.waiting", full: "online.status.full",
  watching: "online.status.watching", playing: "online.status.playing", reconnecting: "online.status.reconnecting",
  ended: "online.status.ended", over: "online.status.over", host: "online.status.host",
};

/** The words of a guest's status: while it looks for the host, how many times it has
 *  looked again, and, once that has been long, what may be wrong. */
const TROUBLE = { direct_failed: "online.status.direct_failed", turn_refused: "online.status.turn_refused" };
const AGAIN = { looking: "online.status.looking_again", reconnecting: "online.status.reconnecting_again" };
function statusWords(info, status = info.status) {
  const looking = status in AGAIN;
  const words = looking && info.retries ? t(AGAIN[status], { n: info.retries }) : t(STATUS[status]);
  // what the browser knows went wrong says more than "this takes long"
  if (looking && TROUBLE[info.trouble]) return `${words} ${t(TROUBLE[info.trouble])}`;
  return looking && info.slow ? `${words} ${t("online.status.slow")}` : words;
}

/** The turn clock's choices, in seconds (0: off, the default). */
const CLOCKS = [0, 30, 60, 120];

let current = null; // the table this page hosts or has joined: {kind, table}
const reactionGate = new ReactionGate(); // one reaction a moment, whichever table

/** What tests and outside checks read (window.__jabberwocky.online). */
function expose(kind, table, controller) {
  if (!current) controller.store.subscribe((state, keys) => keys.has("online") && renderOnlineBar(state));
  current = { kind, table };
  if (window.__jabberwocky) window.__jabberwocky.online = { kind, table };
}

function joinUrl(room) {
  return `${location.href.split("#")[0]}#join=${room}`;
}

function options(select, values, label) {
  select.replaceChildren(...values.map((v) => el("option", { value: v }, label(v))));
}

async function qrCode(box, url) {
  try {
    const { renderSVG } = await onlineLibraries();
    const svg = renderSVG(url, { border: 2, ecc: "M" });
    const img = el("img", { alt: t("online.qr"), src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`, width: "180", height: "180" });
    box.replaceChildren(img);
  } catch {
    box.replaceChildren();
  }
}

/** What the lobby calls seat `s`: the name its person gave, a bot's creature (cast.js, as
 *  the table will call it), or "(no name yet)". */
export function lobbyName(state, s) {
  if (state.names[s]) return state.names[s];
  return state.presence[s] === "bot" ? t(`cast.${creatureOf(s)}`) : t("online.no_name");
}

function presenceLines(box, state) {
  box.replaceChildren(...state.presence.map((p, s) => {
    const name = lobbyName(state, s);
    return el("li", { "data-online-seat": String(s), "data-presence": p },
      t("online.seat_line", { seat: t("online.seat_n", { n: s + 1 }), name, presence: t(PRESENCE[p]) }));
  }));
}

function show(part) {
  const title = part === "online-join" ? "online.join_title" : "online.title";
  $("online-title").dataset.i18n = title;
  $("online-title").textContent = t(title);
  for (const id of ["online-setup", "online-lobby", "online-join"]) $(id).hidden = id !== part;
  $("dlg-online").dataset.state = part.replace("online-", "");
}

/**
 * The host's dialog: `settings` the New game dialog's choices ({players, …}), `rules`
 * the rules they make; `levels` the bot levels.  The page's own engine referees.
 */
export function openHost({ controller, settings, rules, levels, defaultLevel, name = "" }) {
  const dlg = $("dlg-online");
  const seats = $("online-seats");
  seats.replaceChildren();
  for (let s = 1; s < settings.players; s++) {
    const select = el("select", { "data-online-kind": String(s), "aria-label": t("online.seat_kind", { n: s + 1 }) });
    options(select, ["friend", ...levels], (k) => (k === "friend" ? t("online.seat_friend") : t(`level.${k}`)));
    select.value = s <= 2 ? "friend" : (settings.seatBots?.[s - 1] ?? defaultLevel);
    const row = el("label", { className: "row" }, `${t("online.seat_n", { n: s + 1 })} `);
    row.append(select);
    seats.append(row);
  }
  $("online-name").value = name;
  const clock = $("online-clock");
  clock.replaceChildren(...CLOCKS.map((sec) => el("option", { value: String(sec) }, sec ? t("online.clock_seconds", { n: sec }) : t("online.clock_off"))));
  clock.value = "0";
  options($("online-fill"), levels, (l) => t(`level.${l}`));
  $("online-fill").value = defaultLevel;
  show("online-setup");
  dlg.querySelector('[data-action="online-open"]').onclick = async () => {
    const kinds = ["host", ...Array.from(seats.querySelectorAll("select"), (s) => s.value)];
    const plan = { players: settings.players, seats: kinds, rules, hostName: $("online-name").value.trim().slice(0, 24), clock: Number($("online-clock").value) || 0 };
    let table;
    try {
      const build = (await engine.ready).build || "dev";
      table = await openTable({ plan, controller, engine, build });
    } catch (err) {
      cannotConnect(controller, err);
      return;
    }
    expose("host", table, controller);
    lobby(table, controller);
  };
  openDialog(dlg);
}

function lobby(table, controller) {
  const url = joinUrl(table.room);
  $("online-link").value = url;
  $("online-link").dataset.room = table.room;
  qrCode($("online-qr"), url);
  const share = $("dlg-online").querySelector('[data-action="online-share"]');
  share.hidden = !navigator.share;
  share.onclick = () => navigator.share({ title: t("online.title"), url }).catch(() => {});
  $("dlg-online").querySelector('[data-action="online-copy"]').onclick = () => copyText($("online-link"), $("online-copy-status"), "online.copied", "share.copy_yourself");
  table.subscribe((state) => {
    presenceLines($("online-presence"), state);
    $("online-refused").textContent = state.refused ? t("online.refused_count", { n: state.refused }) : "";
    $("dlg-online").dataset.refused = String(state.refused);
  });
  $("dlg-online").querySelector('[data-action="online-start"]').onclick = async () => {
    $("dlg-online").close();
    await table.start($("online-fill").value);
  };
  $("dlg-online").querySelector('[data-action="online-close"]').onclick = () => table.close();
  show("online-lobby");
}

/**
 * The host's page reloaded at an online table: `kept` is what host.js kept (room, plan,
 * seats' tokens, names), `record` the autosave.  The engine takes the record with the
 * friends' seats played from afar, and the same table opens again: the guests come back by
 * themselves.  False when it cannot (the table is then forgotten).
 */
export async function resumeHost({ controller, kept, record }) {
  const remote = (kept.book?.holders || []).map(([seat]) => seat);
  const answer = await engine.resumeSave(record, remote); // its own autosave: maybe no move yet
  if (answer.error) {
    localStorage.removeItem(HOST_KEY);
    return false;
  }
  const build = (await engine.ready).build || "dev";
  let table;
  try {
    table = await openTable({ plan: kept.plan, controller, engine, build, room: kept.room, resumed: kept });
  } catch {
    return false;
  }
  expose("host", table, controller);
  await controller.resume(record, "save", answer);
  return true;
}

/** The table this page hosted before a reload, if the autosave is its game. */
export function keptHostTable(saved) {
  try {
    const kept = JSON.parse(localStorage.getItem(HOST_KEY) || "null");
    if (!kept || !isRoomCode(kept.room) || !saved?.record) return null;
    return JSON.parse(saved.record).seed === kept.seed ? kept : null;
  } catch {
    return null;
  }
}

/** The table could not be opened or joined: the dialog closes (the message would be under
 *  it) and the page says why in words: offline, or the online code could not be fetched
 *  (which is what being offline looks like to a module import), else what failed. */
export function cannotConnect(controller, err) {
  const dlg = $("dlg-online");
  if (dlg?.open) dlg.close();
  const detail = String(err?.message || err || "");
  const unreachable = navigator.onLine === false || /dynamically imported module|Importing a module script failed|Failed to fetch|NetworkError/i.test(detail);
  if (unreachable) controller.notice("online.offline", {}, 12000);
  else controller.notice("online.no_connection", { detail: detail.slice(0, 120) }, 9000);
  document.body.dataset.onlineError = unreachable ? "offline" : "failed";
}

/** The join screen for `room` (a #join= link). */
export function openJoin({ controller, room, name = "", onName = () => {} }) {
  const dlg = $("dlg-online");
  if (!isRoomCode(room)) {
    controller.notice("online.bad_link", {}, 9000);
    return;
  }
  show("online-join");
  $("online-join-name").value = name;
  $("online-join-status").textContent = "";
  dlg.querySelector('[data-action="online-join"]').onclick = async () => {
    const who = $("online-join-name").value.trim().slice(0, 24);
    onName(who);
    let guest;
    try {
      const build = (await engine.ready).build || "dev";
      guest = await joinTable({ room, name: who, controller, localEngine: engine, build });
    } catch (err) {
      cannotConnect(controller, err);
      return;
    }
    expose("guest", guest, controller);
    let offered = false;
    guest.subscribe((info) => {
      // another build than the host's: the page's own update prompt offers the new one
      if (info.status === "ended" && info.code === "online.other_build" && !offered) {
        offered = true;
        offerNewBuild(controller, room);
      }
      $("online-join-status").textContent = statusWords(info);
      dlg.dataset.status = info.status;
      dlg.dataset.retries = String(info.retries || 0);
      dlg.dataset.slow = String(Boolean(info.slow));
      dlg.dataset.trouble = info.trouble || "";
      if ((info.status === "playing" || (info.status === "watching" && info.started)) && dlg.open) dlg.close();
    });
  };
  openDialog(dlg);
  // a reload (or the link opened again) at a table this device has a seat at: straight back
  if (hasSeatToken(room)) dlg.querySelector('[data-action="online-join"]').click();
}

/** This page is another build than the host's: look for a new build and offer it in the
 *  update prompt (its Reload brings the page back to the table: it reloads into the join
 *  link, and the device keeps the seat's token); none found: the host's page may be the
 *  older. */
async function offerNewBuild(controller, room) {
  // the join screen is modal: the update prompt under it could not be reached
  if ($("dlg-online").open) $("dlg-online").close();
  let offered = null;
  try {
    const m = await import("../update.js");
    offered = await m.offerUpdate(t("online.update_offer"), joinUrl(room)); // back to this table
  } catch { /* no update module: as with no service worker */ }
  document.body.dataset.onlineUpdate = offered === true ? "offered" : offered === false ? "none" : "reload";
  if (offered === false) controller.notice("online.other_build_host", {}, 15000);
  else if (offered === null) controller.notice("online.other_build_reload", {}, 15000);
}

/** While a table is online: the presence dots on the badges come from `state.online`; the
 *  bar over the table shows only what needs saying (waiting, reconnecting, the host gone,
 *  the game over), and the menu offers to leave. */
export function renderOnlineBar(state) {
  const bar = $("online-bar");
  const online = state.online;
  const status = online ? (online.role === "host" ? "host" : online.status) : "";
  document.body.dataset.online = status;
  document.querySelector('#menu [data-action="online-leave"]').hidden = !online;
  renderReactions($("online-reactions"), online);
  // the host: a friend away may have a bot play for them until they are back
  const away = online?.role === "host" && online.started
    ? (online.presence || []).findIndex((p) => p === "reconnecting" || p === "gone") : -1;
  const standIn = $("online-bar").querySelector('[data-action="online-stand-in"]');
  standIn.hidden = away < 0;
  bar.hidden = !online || (status === "host" && away < 0) || status === "playing";
  renderAfterGame(bar, online); // after.js: a seat one who watches may take
  if (bar.hidden) return;
  bar.dataset.status = status;
  if (away >= 0) {
    const name = online.names?.[away] || t("online.seat_n", { n: away + 1 });
    $("online-bar-text").textContent = t("online.away", { name });
    standIn.dataset.seat = String(away);
    standIn.textContent = t("online.stand_in", { name });
    standIn.onclick = () => current?.kind === "host" && current.table.standIn(away, controllerLevel());
  } else {
    $("online-bar-text").textContent = online.role === "host" ? t(STATUS[status]) : statusWords(online, status);
  }
}

/** The level of the bot that stands in for a friend away: the one the host chose for the
 *  seats no friend took. */
function controllerLevel() {
  return $("online-fill").value || "medium";
}

/** On every change of the page's state at an online table (main.js's render; `layout()`:
 *  where the canvas draws): the thinking time by the badge of the person to act, and the
 *  reactions folded when the player's turn comes. */
export function renderOnlineTable(state, layout) {
  renderThinking(state, layout);
  foldOnTurn($("online-reactions"), state.online ? state.view : null);
}

/** The host: a new game at this table, with the same people (after the game). */
export function playAgain() {
  return current?.kind === "host" ? current.table.playAgain() : false;
}

/** One who watches: take `seat`, which a bot plays for a friend who left. */
export function takeSeat(seat) {
  return current?.kind === "guest" ? current.table.takeSeat(seat) : 0;
}

/** A guest whose host left before the end: save the finished rounds this page kept. */
export function savePublic() {
  const text = current?.kind === "guest" ? current.table.publicRecord() : null;
  if (text) download(text, "application/json", publicFileName(current.table.room));
}

/** Leave the table this page is at (the host closes it for everyone). */
export async function leave() {
  if (!current) return;
  const { kind, table } = current;
  current = null;
  if (kind === "host") await table.close();
  else await table.leave();
}

/** Send reaction `r` from this page's seat (the buttons' action): one a moment. */
export function react(r, online, now = performance.now()) {
  if (!current || !mayReact(online) || !reactionGate.take(now)) return false;
  const sent = current.table.react(r);
  if (sent) coolDown($("online-reactions"));
  return Boolean(sent);
}

/** Open or close the reactions folded behind one button (a phone's). */
export function toggleReactions() {
  foldReactions($("online-reactions"));
}
