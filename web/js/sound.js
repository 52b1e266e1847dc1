// Small sounds made with Web Audio (no files): a card laid, a trick won (brighter when it
// is yours), your turn, a round over.  Off until the player turns it on (menu: Sound); the
// audio context starts on the first gesture after that, as browsers require.

export function createSound({ controller, enabled }) {
  let ctx = null;

  function audio() {
    if (!enabled()) return null;
    if (!ctx) {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return null;
      ctx = new Ctx();
    }
    if (ctx.state === "suspended") ctx.resume().catch(() => {});
    return ctx;
  }

  /** A short tone: frequency (Hz), start offset and length (s), peak gain, wave type. */
  function tone(a, freq, at, length, gain = 0.08, type = "sine") {
    const osc = a.createOscillator();
    const amp = a.createGain();
    osc.type = type;
    osc.frequency.value = freq;
    const t0 = a.currentTime + at;
    amp.gain.setValueAtTime(0.0001, t0);
    amp.gain.exponentialRampToValueAtTime(gain, t0 + 0.01);
    amp.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
    osc.connect(amp).connect(a.destination);
    osc.start(t0);
    osc.stop(t0 + length + 0.02);
  }

  /** A card laid on the felt: a soft, short burst of noise. */
  function card(a) {
    const length = 0.06;
    const buffer = a.createBuffer(1, Math.round(a.sampleRate * length), a.sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = (Math.sin(i * 12.9898) * 43758.5453 % 1) * (1 - i / data.length);
    const src = a.createBufferSource();
    const filter = a.createBiquadFilter();
    const amp = a.createGain();
    src.buffer = buffer;
    filter.type = "bandpass";
    filter.frequency.value = 1800;
    amp.gain.value = 0.25;
    src.connect(filter).connect(amp).connect(a.destination);
    src.start();
  }

  const on = (type, fn) => controller.addEventListener(type, (e) => {
    const a = audio();
    if (a) fn(a, e.detail);
  });
  on("move", (a, { kind }) => {
    if (kind === "card") card(a);
  });
  on("trick", (a, { trick }) => {
    const mine = trick.winner === 0;
    tone(a, mine ? 880 : 660, 0, 0.18, 0.06);
    tone(a, mine ? 1320 : 880, 0.09, 0.22, 0.05);
  });
  on("turn", (a) => tone(a, 740, 0, 0.16, 0.05, "triangle"));
  on("round", (a) => [523, 659, 784].forEach((f, i) => tone(a, f, i * 0.11, 0.3, 0.05)));
  // the first gesture after sound is turned on may start the context
  document.addEventListener("pointerdown", () => {
    if (enabled()) audio();
  }, { capture: true });
}
