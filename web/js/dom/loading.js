// The loading screen: a fan of aces, the progress of the engine's start, and what to do
// when it cannot start.

import { $ } from "./util.js";
import { t } from "../i18n.js";
import { drawCard } from "../render.js";

export function drawLoadingFan() {
  const canvas = $("loading-fan");
  const dpr = Math.min(window.devicePixelRatio || 1, 3);
  canvas.width = 240 * dpr;
  canvas.height = 120 * dpr;
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ["AS", "AH", "AC", "AD"].forEach((card, i) => {
    drawCard(ctx, card, 50 + i * 26, 14 + Math.abs(i - 1.5) * 6, 62, 87, { rot: (i - 1.5) * 0.2 });
  });
}

/** The worker's progress: {fraction, key, params} (key a catalogue entry). */
export function showProgress({ fraction, key, params }) {
  const bar = $("loading-progress");
  bar.value = Math.max(0, Math.min(1, Number(fraction) || 0));
  if (key) $("loading-text").textContent = t(key, params || {});
}

/** The engine could not start: say so (detail: the failed event's). */
export function showFailure(detail) {
  const box = $("loading-error");
  box.hidden = false;
  box.textContent = t("loading.failed", { detail: detail.params?.detail ?? detail.message });
}

export function hideLoading() {
  $("loading").hidden = true;
  document.body.classList.add("ready");
}
