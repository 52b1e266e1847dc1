// Challenges between friends on the same deals (docs/challenge-links.md): opening a link
// (#challenge=jc1.…) with its invitation, how the others did after each round, the final
// side-by-side table, and making a link of the game on the table (which passes on the
// chain it answers).  The engine writes, reads and verifies every challenge; the page only
// carries the text.

import { el, $, openDialog, tableHead } from "./dom/util.js";
import { t, msg, number } from "./i18n.js";

/** The link of a challenge text (this page, its fragment). */
export function challengeLink(text) {
  return `${location.href.split("#")[0]}#challenge=${text}`;
}

/** How an earlier player is called: their name, else "Challenger 2". */
export const resultName = (result, i) => result.name || t("invite.anonymous", { n: i + 1 });

/** The New game options of a challenge's table as a normal game (unknown bots: the default). */
function normalGame(game, setup) {
  const seats = game.seats.map((k) => (k === "human" || setup.levels.includes(k) ? k : setup.defaultLevel));
  return { seed: game.seed, players: game.players, seats, rules: game.rules };
}

/**
 * Open a challenge link's text: the invitation (who played, their totals, a name to play
 * under), then the game as a challenge.  A text that does not verify is refused with the
 * engine's reason; when its table can still be read, its deals are dealt as a normal game.
 * Returns "played", "normal" (a normal game was started), "declined" or "refused".
 */
export async function openChallenge(text, { controller, setup, name: defaultName = "", onName = () => {} }) {
  const { result, error } = await controller.engine.challengeOpen(text);
  if (error || !result.ok) {
    const reason = result?.refusal ?? error;
    if (result?.game) {
      controller.notice("invite.refused_game", { reason }, 12000);
      return (await controller.newGame(normalGame(result.game, setup))) ? "normal" : "refused";
    }
    controller.notice("invite.refused", { reason }, 12000);
    return "refused";
  }
  const dlg = $("dlg-invite");
  const results = result.results;
  const last = results[results.length - 1];
  $("invite-title").textContent = t("invite.title", { count: results.length, name: resultName(last, results.length - 1) });
  $("invite-list").replaceChildren(...results.map((r, i) => el("li", {},
    r.finished ? t("invite.line", { name: resultName(r, i), total: r.total })
      : t("invite.line_unfinished", { name: resultName(r, i), total: r.total, rounds: r.rounds.length }))));
  $("invite-bots").hidden = !results.some((r) => r.bots === "differ");
  onlineNote($("invite-online"), result);
  dlg.dataset.results = String(results.length);
  const name = $("invite-name");
  name.value = defaultName;
  name.maxLength = setup.rules.name_max_length;
  const answer = await new Promise((resolve) => {
    let done = false;
    const finish = (value) => {
      if (done) return;
      done = true;
      if (dlg.open) dlg.close();
      resolve(value);
    };
    dlg.querySelector('[data-action="invite-accept"]').onclick = () => finish("accept");
    dlg.onclose = () => finish("decline");
    openDialog(dlg);
    name.focus();
  });
  if (answer !== "accept") return "declined";
  const given = name.value.trim();
  onName(given);
  return (await controller.playChallenge(text, given)) ? "played" : "refused";
}

/** The seat kind bots play for who answers, where friends sat in an online game. */
function peopleLevel(summary) {
  const game = summary.game;
  const online = summary.results.find((r) => r.online);
  const kind = online ? game?.seats?.[online.people[0]] : null;
  return kind ? t(`level.${kind}`) : "";
}

/** Say plainly that a result was played online with friends while this game is against
 *  bots (`data-online`: "true" when shown). `summary`: challenge_open's answer. */
export function onlineNote(p, summary) {
  const i = summary.results.findIndex((r) => r.online);
  p.hidden = i < 0;
  p.dataset.online = String(i >= 0);
  if (i >= 0) p.textContent = t("invite.online", { name: resultName(summary.results[i], i), level: peopleLevel(summary) });
}

/** "Alex: bid 2, took 2, +12 (total 30)" for every earlier player, in the round panel. */
export function roundComparison(comparison, round) {
  const box = el("div", { className: "challenge-round", "data-challenge": "round" });
  box.append(el("h3", {}, t("compare.this_deal")));
  const ul = el("ul");
  comparison.results.forEach((r, i) => {
    if (r.current) return;
    const row = r.rounds.find((x) => x.round === round);
    ul.append(el("li", { "data-player": String(i + 1) }, row
      ? t("compare.deal_line", { name: resultName(r, i), bid: row.bid, made: row.made, points: row.points, total: row.total })
      : t("compare.deal_none", { name: resultName(r, i) })));
  });
  box.append(ul);
  if (comparison.results.some((r) => r.bots === "differ")) box.append(el("p", { className: "note" }, t("invite.bots_differ")));
  return box;
}

/** The final table: every round side by side, the totals, the leaders, and a button to
 *  review each earlier game. `youName`: how the player on the table is called. */
export function finalComparison(comparison, youName) {
  const box = el("div", { className: "challenge-final", "data-challenge": "final" });
  const results = comparison.results;
  const names = results.map((r, i) => (r.current ? youName : resultName(r, i)));
  box.append(el("h3", {}, t("compare.final_title")));
  const table = el("table", { className: "sheet challenge-table" });
  const head = tableHead([t("sheet.round"), ...names]);
  const body = el("tbody");
  const rounds = Math.max(...results.map((r) => r.rounds.length));
  for (let k = 1; k <= rounds; k++) {
    const tr = el("tr");
    tr.append(el("th", { scope: "row" }, number(k)));
    results.forEach((r, i) => {
      const row = r.rounds.find((x) => x.round === k);
      const td = el("td", { className: row && row.bid === row.made ? "exact" : "" }, row ? t("sheet.bid_made", { bid: row.bid, taken: row.made }) : "–");
      if (row) td.setAttribute("aria-label", t("compare.cell", { name: names[i], round: k, bid: row.bid, made: row.made, points: row.points }));
      tr.append(td);
    });
    body.append(tr);
  }
  const foot = el("tfoot");
  const fr = el("tr");
  fr.append(el("th", { scope: "row" }, t("sheet.total")));
  results.forEach((r, i) => fr.append(el("td", { className: comparison.leaders.includes(i) ? "leader" : "", "data-total": String(r.total) }, number(r.total))));
  foot.append(fr);
  table.append(head, body, foot);
  const wrap = el("div", { className: "sheet-wrap" });
  wrap.append(table);
  box.append(wrap);
  box.append(el("p", { className: "winners" }, t("compare.leaders", { names: comparison.leaders.map((i) => names[i]) })));
  if (results.some((r) => r.bots === "differ")) box.append(el("p", { className: "note" }, t("invite.bots_differ")));
  if (results.some((r) => r.online)) {
    const note = el("p", { className: "note" });
    onlineNote(note, comparison);
    box.append(note);
  }
  const actions = el("div", { className: "panel-actions" });
  results.forEach((r, i) => {
    if (r.current) return;
    actions.append(el("button", { type: "button", "data-action": "challenge-review", "data-player": String(i + 1) }, t("compare.review", { name: names[i] })));
  });
  box.append(actions);
  return box;
}

/**
 * Make a challenge of the game on the table (passing on the chain it answers): a name,
 * then the link to copy or share.  `chain`: how many results the game answers (0: none);
 * `seat`: the maker's seat in an online game (the other people's become bots for who answers);
 * `onName(name)`: the name given (remembered for the next challenge).
 */
export function openMakeChallenge({ controller, view, chain, seat = null, defaultName = "", onName = () => {} }) {
  const dlg = $("dlg-challenge");
  $("challenge-body-chain").hidden = chain === 0;
  const body = $("challenge-body"); // an online game's: bots where the friends sat
  body.dataset.i18n = seat === null ? "makechallenge.body" : "makechallenge.body_online";
  body.textContent = t(body.dataset.i18n);
  $("challenge-unfinished").hidden = view.phase === "game-over";
  const name = $("challenge-name");
  name.value = defaultName;
  $("challenge-link").value = "";
  $("challenge-status").textContent = "";
  $("challenge-result").hidden = true;
  // Copy copies the link: there is none until it is made (it said "Link copied." of
  // nothing); then Copy is the next step
  const make = dlg.querySelector('[data-action="challenge-make"]');
  const copy = dlg.querySelector('[data-action="challenge-copy"]');
  const made = (yes) => {
    dlg.dataset.made = String(yes);
    copy.disabled = !yes;
    copy.classList.toggle("primary", yes);
    make.classList.toggle("primary", !yes);
  };
  made(false);
  make.onclick = async () => {
    const given = name.value.trim();
    const { result, error } = await controller.engine.challengeEncode(given || null, seat);
    if (error) {
      $("challenge-status").textContent = msg(error);
      return;
    }
    onName(given);
    const link = challengeLink(result.text);
    $("challenge-link").value = link;
    $("challenge-result").hidden = false;
    made(true);
    $("challenge-status").textContent = t(result.dropped ? "makechallenge.made_dropped" : "makechallenge.made", { length: link.length });
    if (navigator.share && window.matchMedia("(pointer: coarse)").matches) {
      const total = result.results[result.results.length - 1].total;
      navigator.share({ title: t("app.name"), text: t("makechallenge.share_text", { total }), url: link }).catch(() => {});
    }
  };
  copy.onclick = async () => {
    const input = $("challenge-link");
    try {
      await navigator.clipboard.writeText(input.value);
      $("challenge-status").textContent = t("share.copied");
    } catch {
      input.select();
      $("challenge-status").textContent = t("share.copy_yourself");
    }
  };
  openDialog(dlg);
}
