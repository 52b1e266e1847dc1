// What the page's buttons and shortcut keys do ([data-action] anywhere, and input.js):
// each action is a call on the controller or a dialog.

import { $, download } from "./dom/util.js";
import { t } from "./i18n.js";
import { serializeFragment } from "./fragment.js";
import { fragmentOptions } from "./save.js";
import { rulesFromSettings, botsFromSettings, settingsOfView, seatsFromSettings } from "./settings.js";
import { showScores } from "./dialogs/scores.js";
import { showTricks } from "./dialogs/tricks.js";
import { openShare, copyLink } from "./dialogs/share.js";
import { openHelp } from "./dialogs/help.js";
import { openNewGame } from "./dialogs/new-game.js";
import { confirmAction, gameInProgress } from "./dialogs/confirm.js";
import { openMakeChallenge } from "./challenge.js";
import { canChallenge, onlineSeat } from "./controller.js";

const MAX_IMPORT_BYTES = 1_000_000;

/** Offline, the online table's code cannot be fetched (nor a table opened): the page says
 *  so in words (main.js's join link, the New game dialog's "Play with friends online"). */
export function sayOffline(controller) {
  controller.notice("online.offline", {}, 12000);
  document.body.dataset.onlineError = "offline";
}

/** controller (its `setup`: the engine's offer), prefs (prefs.js), menu: {close, toggle},
 *  tips: {hide}, daily: the deal of the day's (daily.js). Returns dispatch(action, element). */
export function createActions({ controller, prefs, menu, tips, daily }) {
  const setup = () => controller.setup;
  let importMode = "continue";
  const view = () => controller.state.view;

  const onlineUnreachable = () => sayOffline(controller);

  function newGame() {
    const s = setup();
    if (!s) return;
    const current = view() ? settingsOfView(view(), s.rules, prefs.settings) : prefs.settings;
    openNewGame(current, s, async (settings, seed) => {
      prefs.setSettings({ ...prefs.settings, ...settings });
      if (gameInProgress(view()) && !(await confirmAction({ key: "confirm.new_game", yes: "confirm.new_game_yes" }))) return;
      // a new game here ends the online table this page is at (the host closes it)
      if (controller.online) await import("./online/lobby.js").then((m) => m.leave());
      controller.newGame({ seed, players: settings.players, bots: botsFromSettings(settings), rules: rulesFromSettings(settings, s.rules), ...seatsFromSettings(settings) });
    }, async (settings) => {
      prefs.setSettings({ ...prefs.settings, ...settings });
      if (controller.online) await import("./online/lobby.js").then((m) => m.leave());
      // the rules as chosen; unchanged from the table's, the table's exactly (a link's
      // schedule may be one the dialog does not list)
      const chosen = rulesFromSettings(settings, s.rules);
      const same = view() && JSON.stringify(chosen) === JSON.stringify(rulesFromSettings(current, s.rules));
      const rules = same ? view().rules : chosen;
      // the online table's code is loaded now, not before (web/js/online/); offline, it
      // cannot be (and a table could not be opened): the page says so in words
      if (navigator.onLine === false) return onlineUnreachable();
      import("./online/lobby.js").then((m) => m.openHost({ controller, settings, rules,
        levels: s.levels, defaultLevel: s.defaultLevel, name: settings.names?.[0] || prefs.prefs.challengeName || "" }))
        .catch(onlineUnreachable);
    });
  }

  // a guest at an online table is never sent the deal code (it would show every hand):
  // the record brings it at the game's end
  const noDealCode = () => controller.notice("notice.online_no_deal_code", {}, 8000);

  async function sameDeals(withSeed) {
    const v = view();
    const s = setup();
    if (!v || !s) return;
    if (withSeed && !v.seed) return noDealCode();
    if (gameInProgress(v) && !(await confirmAction({ key: "confirm.new_game", yes: "confirm.new_game_yes" }))) return;
    const options = fragmentOptions(v, s.rules);
    controller.newGame({ seed: withSeed ? v.seed : undefined, players: v.players, bots: options.bots, rules: v.rules });
  }

  async function share() {
    const v = view();
    const s = setup();
    if (!v || !s) return;
    if (!v.seed) return noDealCode();
    const link = location.href.split("#")[0] + serializeFragment(fragmentOptions(v, s.rules));
    if (navigator.share && window.matchMedia("(pointer: coarse)").matches) {
      try {
        await navigator.share({ title: t("app.name"), text: t("share.text", { seed: v.seed }), url: link });
        return;
      } catch { /* fall back to the dialog */ }
    }
    openShare(link, v.seed);
  }

  async function exportRecord() {
    if (!view()) return;
    const { result, error } = await controller.engine.exportRecord();
    if (error) {
      controller.notice("notice.export_failed", { reason: error });
      return;
    }
    const file = result.filename || "jabberwocky-game.json";
    download(result.record, "application/json", file);
    controller.notice("notice.exported", { file });
  }

  /** The review of `source` (its screen's code is loaded on first use). */
  async function review(source) {
    const m = await import("./review/screen.js");
    return m.openReview(source, { controller });
  }

  function chooseFile(mode) {
    importMode = mode;
    $("import-file").click();
  }

  /** A file chosen for import or watching. */
  async function importFile(file) {
    if (!file) return;
    if (file.size > MAX_IMPORT_BYTES) {
      controller.notice("notice.file_too_large", { max: MAX_IMPORT_BYTES });
      return;
    }
    const text = await file.text();
    if (importMode === "review") {
      await review({ record: text });
      return;
    }
    // the file is checked first: the question is asked only about one that would load
    if (!(await controller.checkRecord(text))) return;
    if (gameInProgress(view()) && !(await confirmAction({ key: importMode === "watch" ? "confirm.watch" : "confirm.import", yes: "confirm.replace_yes" }))) return;
    if (importMode === "watch") await controller.watch(text);
    else await controller.resume(text, "import");
  }

  /** Make a challenge link of the game on the table (it passes on a challenge answered). */
  function challengeFriend() {
    const v = view();
    if (!canChallenge(controller.state)) return;
    const known = controller.state.challenge;
    const chain = known ? known.results.length - 1 : 0;
    const seat = onlineSeat(controller.state);
    const own = v.player_names?.[seat ?? v.viewer];
    openMakeChallenge({ controller, view: v, chain, seat, defaultName: own || prefs.prefs.challengeName, onName: (name) => prefs.setPrefs({ challengeName: name }) });
  }
  // The Statistics screen and its buttons (dialogs/stats.js, loaded when first opened).
  const statsContext = () => ({ controller, setup: setup() });
  const stats = (action) => (element) => import("./dialogs/stats.js").then((m) => m.statsAction(action, element, statsContext()));

  const table = {
    "next-round": () => controller.nextRound(),
    hint: () => {
      tips.hide(); // the first-game tip points at the hint: once asked, it steps aside
      return controller.hint();
    },
    claim: () => controller.claim(),
    "online-leave": () => import("./online/lobby.js").then((m) => m.leave()),
    "online-settings": () => import("./online/settings-screen.js").then((m) => m.openSignalSettings()),
    "online-play-again": () => import("./online/lobby.js").then((m) => m.playAgain()),
    "online-take-seat": (element) => import("./online/lobby.js").then((m) => m.takeSeat(Number(element?.dataset.seat))),
    "online-save-public": () => import("./online/lobby.js").then((m) => m.savePublic()),
    "online-reactions": () => import("./online/lobby.js").then((m) => m.toggleReactions()),
    "online-react": (element) => import("./online/lobby.js").then((m) => m.react(element?.dataset.reaction, controller.state.online)),
    reveal: () => controller.reveal(),
    // the engine refuses take-backs where the rules allow none (a challenge, the deal of
    // the day, an online table): the view's can_take_back and take_back_rule say so
    "take-back": () => controller.takeBack(),
    scores: () => showScores(view()),
    tricks: () => showTricks(view()),
    "new-game": newGame,
    "play-again": () => sameDeals(false),
    replay: () => sameDeals(true),
    share,
    "copy-link": copyLink,
    "export-record": exportRecord,
    "import-record": () => chooseFile("continue"),
    "watch-record": () => chooseFile("watch"),
    "stop-watch": () => controller.stopWatching(),
    "challenge-friend": challengeFriend,
    review: () => view()?.phase === "game-over" && review({}),
    "review-record": () => chooseFile("review"),
    "challenge-review": (button) => {
      const known = controller.state.challenge;
      if (known && button) review({ challenge: known.text, player: Number(button.dataset.player) });
    },
    help: () => openHelp(view(), setup()?.rules ?? null),
    about: () => import("./dialogs/about.js").then((m) => m.openAbout(setup()?.botsVersion)),
    stats: () => import("./dialogs/stats.js").then((m) => m.openStats(statsContext())),
    "stats-export": stats("stats-export"),
    "stats-import": stats("stats-import"),
    "stats-clear": stats("stats-clear"),
    "stats-compare": stats("stats-compare"),
    "stats-more": stats("stats-more"),
    "stats-play": stats("stats-play"),
    "review-game": stats("review-game"),
    // the deal of the day (daily.js, dialogs/daily.js)
    daily: () => {
      $("dlg-new").close?.();
      return daily?.start();
    },
    "daily-result": () => daily?.showResult(),
    "daily-practice": () => {
      $("dlg-daily").close?.();
      return daily?.practise();
    },
    "daily-copy": () => import("./dialogs/daily.js").then((m) => m.copyShare()),
    "daily-share": () => import("./dialogs/daily.js").then((m) => m.shareResult()),
    "daily-review": (button) => button && import("./dialogs/daily.js").then((m) => m.reviewDay(button.dataset.date, review)),
    menu: () => menu.toggle(),
    "dismiss-tips": () => {},
    escape: () => {
      menu.close();
      tips.hide();
    },
  };

  function dispatch(action, element) {
    const inMenu = element && $("menu").contains(element) && element.tagName === "SELECT";
    if (action !== "menu" && !inMenu) menu.close();
    table[action]?.(element);
  }

  return { dispatch, importFile };
}
