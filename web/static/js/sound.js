// Short tones made with Web Audio (generated here, nothing is loaded): a
// move, low time on one's own clock, the game's end. The header's ♪ button
// mutes them; the choice is kept in localStorage (`tengen.muted`).

/** @type {AudioContext|null} */
let ctx = null;
let muted = (() => { try { return localStorage.getItem('tengen.muted') === '1'; } catch { return false; } })();

export function isMuted() { return muted; }
/** @param {boolean} m */
export function setMuted(m) {
  muted = m;
  try { localStorage.setItem('tengen.muted', m ? '1' : '0'); } catch { /* private mode */ }
}

/** @param {number} freq @param {number} ms @param {number} [at] */
function tone(freq, ms, at = 0) {
  if (muted) return;
  try {
    ctx ??= new AudioContext();
    // A context made before the person touched the page starts suspended
    // (autoplay policy); it may resume once they have.
    if (ctx.state === 'suspended') ctx.resume().catch(() => {});
    const o = ctx.createOscillator();
    const g = ctx.createGain();
    const start = ctx.currentTime + at;
    o.frequency.value = freq;
    g.gain.setValueAtTime(0.15, start);
    g.gain.exponentialRampToValueAtTime(0.001, start + ms / 1000);
    o.connect(g).connect(ctx.destination);
    o.start(start);
    o.stop(start + ms / 1000);
  } catch { /* no audio */ }
}

export const sounds = {
  move() { tone(660, 60); },
  low() { tone(880, 120); tone(880, 120, 0.2); },
  end() { tone(523, 150); tone(659, 150, 0.15); tone(784, 250, 0.3); },
};
