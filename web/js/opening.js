// Which game a visit opens: the saved game (no link, or the saved game's own link, as on a
// reload), else the game a link asks for (seed, players, bots, rules, or a challenge: its
// invitation first), else a fresh one from the player's settings.  Problems with the link
// are said, never fatal.

import { parseFragment, checkBots, rulesPayload, botsVersionNumber } from "./fragment.js";
import { rulesFromSettings, botsFromSettings } from "./settings.js";
import { openChallenge } from "./challenge.js";
import { today } from "./daily.js";

/** Say the link's problems in one message. */
function sayProblems(controller, problems) {
  if (!problems.length) return;
  const sentences = problems.map((p) => ({ code: p.key, params: p.params }));
  controller.notice("link.problems", { sentences }, 9000);
}

/** Is the link's game the saved one (same seed, players, bots and rules)? */
function sameGame(options, saved, info, today = "") {
  if (!saved) return false;
  const o = saved.options;
  if (options.challenge) return o.challenge === options.challenge;
  if (options.daily !== undefined) return Boolean(o.daily) && o.daily === (options.daily || today);
  if (!options.seed) return false;
  if (o.seed !== options.seed) return false;
  if (options.players !== undefined && options.players !== o.players) return false;
  if (options.bots !== undefined && JSON.stringify(options.bots) !== JSON.stringify(o.bots)) return false;
  if (options.rules !== undefined && options.rules !== (o.rules || info.default)) return false;
  return true;
}

/**
 * Open the game for `hash`.  saved: the save (or null); setup: {levels, defaultLevel,
 * botsVersion, rules}; settings: the New game settings; early: the saved record's import
 * asked for at start-up ({record, answer}) or null; prefs: the player's (the name last
 * given to a challenge is offered again); daily: the deal of the day's (daily.js).
 */
export async function openFromLink({ hash, saved, controller, setup, settings, early, prefs = null, daily = null }) {
  const info = setup.rules;
  const parsed = parseFragment(hash, setup.levels, info);
  const { options, problems } = parsed;
  const earlyAnswer = (record) => (early && early.record === record ? early.answer : null);
  if (saved && (parsed.empty || sameGame(options, saved, info, today()))) {
    if (await controller.resume(saved.record, "save", earlyAnswer(saved.record))) {
      daily?.resumed(saved.options); // a deal of the day goes on as one
      sayProblems(controller, problems);
      return;
    }
  }
  if (options.daily !== undefined && daily) {
    // the deal of the day: today's, or another day's (practice); a bad date says why and
    // deals today's instead
    sayProblems(controller, problems);
    if (await daily.start(options.daily || today(), { ask: false, instead: Boolean(options.daily) })) return;
    if (options.daily && (await daily.start(today(), { ask: false, quiet: true }))) return; // said: today's instead
    problems.length = 0; // said already
  }
  if (options.challenge) {
    // the invitation first; a refused or declined challenge leaves a game on the table
    sayProblems(controller, problems);
    const outcome = await openChallenge(options.challenge, {
      controller, setup, name: prefs?.prefs.challengeName ?? "", onName: (name) => prefs?.setPrefs({ challengeName: name }),
    });
    if (outcome === "played" || outcome === "normal") return;
    if (saved && (await controller.resume(saved.record, "save", earlyAnswer(saved.record)))) return;
    const ok = await controller.newGame({ players: settings.players, bots: botsFromSettings(settings), rules: rulesFromSettings(settings, info) });
    if (!ok) await controller.newGame({ players: info.players.default, bots: setup.defaultLevel, rules: info.default });
    return;
  }
  const players = options.players || settings.players;
  const bots = checkBots(options, players, problems) ?? botsFromSettings({ ...settings, players });
  // A shared link names its rules unless they are the default; your own settings apply
  // only to links without a seed.
  const rules = options.rules ? rulesPayload(options.rules, info) : (options.seed ? info.default : rulesFromSettings(settings, info));
  const ours = botsVersionNumber(setup.botsVersion);
  if (options.bv !== undefined && ours !== null && options.bv !== ours) {
    problems.push({ key: "link.bots_changed", params: { theirs: options.bv, ours } });
  }
  sayProblems(controller, problems);
  const kinds = bots === "human" ? Array(players - 1).fill("human") : bots;
  const people = Array.isArray(kinds) && kinds.includes("human");
  const ok = await controller.newGame(people ? { seed: options.seed, players, seats: ["human", ...kinds], rules } : { seed: options.seed, players, bots, rules });
  if (!ok) {
    // the link's game cannot be dealt (a deal code with a control character…): say why,
    // and what is on the table instead
    const reason = controller.lastRefusal;
    if (await controller.newGame({ players: info.players.default, bots: setup.defaultLevel, rules: info.default })) {
      controller.notice("notice.dealt_instead", { reason, seed: controller.state.view.seed, players: controller.state.view.players }, 12000);
    }
  }
}
