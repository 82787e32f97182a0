// Runs quintet's VCF solver (the @renju-note/quintet WASM build, loaded
// straight from its .wasm file, as the package only ships a bundler entry)
// and ours (`cargo run --release --example solve_times`) on the same cases,
// and prints where they disagree and how their times compare.
//
// Cases: the published VCF problems of rules/tests/data/vcf-problems.txt
// (with their depth limits), then the 1000 dense positions of
// rules/benches/data/dense-positions.txt with each colour attacking, all
// under renju rules.
//
// Usage (from this folder): npm ci && node compare.mjs
// Exit status 1 if the two solvers disagree on any case.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const rules = join(here, '..', '..');
const ROUNDS = 5;

function loadQuintet() {
  const require = createRequire(import.meta.url);
  const dir = dirname(require.resolve('@renju-note/quintet/package.json'));
  const module = new WebAssembly.Module(readFileSync(join(dir, 'quintet_bg.wasm')));
  const wasm = new WebAssembly.Instance(module, {}).exports;
  const bytes = () => new Uint8Array(wasm.memory.buffer);
  const pass = (arr) => {
    const ptr = wasm.__wbindgen_malloc(Math.max(arr.length, 1));
    bytes().set(arr, ptr);
    return ptr;
  };
  // The wasm-bindgen calling convention of quintet 0.3.2's solve_vcf.
  return function solveVcf(blacks, whites, black, limit) {
    const ret = wasm.__wbindgen_export_0.value - 16;
    wasm.__wbindgen_export_0.value = ret;
    try {
      const pb = pass(blacks);
      const pw = pass(whites);
      wasm.solve_vcf(ret, pb, blacks.length, pw, whites.length, black, limit);
      const i32 = new Int32Array(wasm.memory.buffer);
      const [ptr, len] = [i32[ret / 4], i32[ret / 4 + 1]];
      if (ptr === 0) return null;
      const out = bytes().slice(ptr, ptr + len);
      wasm.__wbindgen_free(ptr, len);
      return out;
    } finally {
      wasm.__wbindgen_export_0.value += 16;
    }
  };
}

// quintet codes a point as x * 15 + y, both from 0.
const code = (p) => (p.charCodeAt(0) - 65) * 15 + (Number(p.slice(1)) - 1);

function problems() {
  const text = readFileSync(join(rules, 'tests', 'data', 'vcf-problems.txt'), 'utf8');
  const cases = [];
  for (const block of text.split('\n\n')) {
    const lines = block.split('\n').filter((l) => l.trim() && !l.startsWith('#'));
    if (!lines.length) continue;
    const field = (k) => lines.find((l) => l.startsWith(k))?.slice(k.length).trim();
    const at = lines.indexOf('board:');
    const blacks = [];
    const whites = [];
    lines.slice(at + 1).forEach((row, i) => {
      [...row.replace(/\s/g, '')].forEach((c, x) => {
        const p = x * 15 + (14 - i);
        if (c === 'X') blacks.push(p);
        if (c === 'O') whites.push(p);
      });
    });
    const limit = field('none-within:') ? Number(field('none-within:')) : 255;
    cases.push({ name: field('name:'), blacks, whites, black: field('attacker:') === 'black', limit });
  }
  return cases;
}

function dense() {
  const text = readFileSync(join(rules, 'benches', 'data', 'dense-positions.txt'), 'utf8');
  const cases = [];
  text.trim().split('\n').forEach((line, i) => {
    const [b, w] = line.split(';').map((s) => s.split(',').filter(Boolean).map(code));
    for (const [black, name] of [[true, 'black'], [false, 'white']]) {
      cases.push({ name: `dense-${i}-${name}`, blacks: b, whites: w, black, limit: 255 });
    }
  });
  return cases;
}

// quintet 0.3.2 returns the first VCF its depth-first search meets within
// the limit, not a shortest one; a shortest one comes from calling it with
// limits 1, 2, 3, ... (iterative deepening, as we do inside). Both are
// timed: `first` is one call with the case's limit, `shortest` the
// deepening. Times are the best of ROUNDS runs.
function runQuintet(cases) {
  const solve = loadQuintet();
  const out = new Map();
  const best = (f) => {
    let t = Infinity;
    let result;
    for (let r = 0; r < ROUNDS; r++) {
      const start = process.hrtime.bigint();
      result = f();
      t = Math.min(t, Number(process.hrtime.bigint() - start) / 1000);
    }
    return [result, t];
  };
  for (const c of cases) {
    const blacks = Uint8Array.from(c.blacks);
    const whites = Uint8Array.from(c.whites);
    const [, first] = best(() => solve(blacks, whites, c.black, c.limit));
    const [found, shortest] = best(() => {
      for (let limit = 1; limit <= c.limit; limit++) {
        const r = solve(blacks, whites, c.black, limit);
        if (r) return r;
      }
      return null;
    });
    // quintet returns [] when the attacker already has a four (the five is
    // left out); we count that five as the one move.
    const moves = found === null ? 'none' : String(Math.max(1, Math.ceil(found.length / 2)));
    out.set(c.name, { moves, micros: shortest, first });
  }
  return out;
}

function runOurs() {
  const text = execFileSync(
    'cargo',
    ['run', '--release', '-q', '-p', 'tengen-rules', '--example', 'solve_times'],
    { cwd: rules, encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const out = new Map();
  for (const line of text.trim().split('\n')) {
    const [name, moves, micros] = line.split('\t');
    out.set(name, { moves, micros: Number(micros) });
  }
  return out;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

const cases = [...problems(), ...dense()];
const ours = runOurs();
const theirs = runQuintet(cases);
let disagree = 0;
for (const c of cases) {
  const o = ours.get(c.name);
  const q = theirs.get(c.name);
  if (!o || o.moves !== q.moves) {
    disagree++;
    console.log(`DISAGREE ${c.name}: ours ${o?.moves} quintet ${q.moves}`);
  }
}
console.log('case\tours_moves\tquintet_moves\tours_us\tquintet_shortest_us\tquintet_first_us');
for (const c of cases.filter((c) => !c.name.startsWith('dense-'))) {
  const o = ours.get(c.name);
  const q = theirs.get(c.name);
  const f = (x) => x.toFixed(1);
  console.log(`${c.name}\t${o.moves}\t${q.moves}\t${f(o.micros)}\t${f(q.micros)}\t${f(q.first)}`);
}
const d = cases.filter((c) => c.name.startsWith('dense-'));
const col = (m, k) => d.map((c) => m.get(c.name)[k]);
const sum = (xs) => xs.reduce((s, x) => s + x, 0);
const ms = (xs) => (sum(xs) / 1000).toFixed(1);
const us = (xs) => median(xs).toFixed(1);
const [o, qs, qf] = [col(ours, 'micros'), col(theirs, 'micros'), col(theirs, 'first')];
console.log(
  `dense set (${d.length} cases): total ours ${ms(o)} ms, quintet shortest ${ms(qs)} ms, ` +
    `quintet first ${ms(qf)} ms; median ours ${us(o)} us, quintet shortest ${us(qs)} us, ` +
    `quintet first ${us(qf)} us`,
);
console.log(`${cases.length - disagree} agree, ${disagree} disagree`);
process.exit(disagree ? 1 : 0);
