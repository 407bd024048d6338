// drumhead pocket: the resolvers as a WebAssembly module inside this page
// (the script element #drumhead-module, base64), run in the browser with
// nothing fetched. The module's calls: dh_alloc(len) -> ptr and
// dh_free(ptr, len) for the text handed to it; each call that answers
// with text returns its length in bytes and leaves the UTF-8 at
// dh_out_ptr() until the next call.
(() => {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const body = document.body;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const LOG_KEY = 'drumhead-pocket-log';
  const ARMIES_KEY = 'drumhead-pocket-armies';
  const LOG_MOST = 5000;
  let ex = null;

  function bytesOf(text) {
    const clean = text.replace(/\s+/g, '');
    if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(clean);
    const raw = atob(clean);
    const bytes = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes;
  }

  /** The text a call left at dh_out_ptr(). */
  function answer(length) {
    const at = ex.dh_out_ptr() >>> 0;
    return decoder.decode(new Uint8Array(ex.memory.buffer, at, length >>> 0));
  }

  /** `call(ptr, len)` with `text` in the module's memory, then freed. */
  function withText(text, call) {
    const bytes = encoder.encode(String(text));
    const at = ex.dh_alloc(bytes.length) >>> 0;
    new Uint8Array(ex.memory.buffer, at, bytes.length).set(bytes);
    try {
      return call(at, bytes.length);
    } finally {
      ex.dh_free(at, bytes.length);
    }
  }

  /** A new seed from the browser's own randomness, as a decimal string. */
  function newSeed() {
    const words = new Uint32Array(2);
    crypto.getRandomValues(words);
    return ((BigInt(words[0]) << 32n) | BigInt(words[1])).toString();
  }

  /** A seed as the command line takes it: a whole number below 2^64. */
  function seedOf(seed) {
    const text = String(seed).trim();
    if (!/^[0-9]{1,20}$/.test(text) || BigInt(text) >= 1n << 64n) {
      throw new RangeError('a seed is a whole number from 0 to 18446744073709551615: ' + text);
    }
    return BigInt(text);
  }

  const api = {
    /** The JSON Lines `drumhead --json --seed SEED LINE` prints, with the armies loaded. */
    resolve(line, seed) {
      const s = seedOf(seed === undefined || seed === null || seed === '' ? newSeed() : seed);
      const hi = Number(s >> 32n) | 0;
      const lo = Number(s & 0xffffffffn) | 0;
      return withText(line, (at, len) => answer(ex.dh_resolve(at, len, hi, lo)));
    },
    /** Load an army list (TOML text; `file`, its name, is what errors quote). */
    army(text, file) {
      if (file && typeof ex.dh_army_named === 'function') {
        return withText(file, (nameAt, nameLen) =>
          withText(text, (at, len) => answer(ex.dh_army_named(nameAt, nameLen, at, len))));
      }
      return withText(text, (at, len) => answer(ex.dh_army(at, len)));
    },
    /** Load a shipped army list by its file name. */
    shippedArmy(file) {
      return withText(file, (at, len) => answer(ex.dh_shipped_army(at, len)));
    },
    /** The shipped army lists: [{file, system, name}]. */
    shipped() {
      return JSON.parse(answer(ex.dh_shipped()));
    },
    /** Forget the armies loaded. */
    reset() {
      ex.dh_reset();
    },
    /** What may be typed at the end of `prefix`: [{word, meaning}], a
     *  word replacing what follows the last whitespace. */
    complete(prefix) {
      return JSON.parse(withText(prefix, (at, len) => answer(ex.dh_complete(at, len))));
    },
  };

  /** What the command line would have written on standard error for the
   *  last line resolved (notes of a game's effects, an error of no line). */
  function stderrOfLast() {
    if (typeof ex.dh_err_ptr !== 'function') return '';
    const at = ex.dh_err_ptr() >>> 0;
    return decoder.decode(new Uint8Array(ex.memory.buffer, at, ex.dh_err_len() >>> 0));
  }

  /** The live view's HTML of a line's answers, when the module makes it. */
  function viewOf(line, seed) {
    if (typeof ex.dh_view !== 'function') return '';
    const s = seedOf(seed);
    return withText(line, (at, len) =>
      answer(ex.dh_view(at, len, Number(s >> 32n) | 0, Number(s & 0xffffffffn) | 0)));
  }

  // ---- The page ----------------------------------------------------------

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    for (const c of children) e.append(c);
    return e;
  }

  const SVG = 'http://www.w3.org/2000/svg';
  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function percent(p) {
    const v = p * 100;
    return (v >= 10 || v === 0 ? v.toFixed(1) : v.toPrecision(2)) + '%';
  }

  /** An odds answer's outcomes as bars, a row an outcome, its words above its bar. */
  function chart(outcomes) {
    const width = 360, row = 34;
    const most = Math.max(...outcomes.map((o) => o.p), 1e-12);
    const box = svg('svg', {
      viewBox: `0 0 ${width} ${row * outcomes.length + 4}`,
      width: '100%', role: 'img', class: 'chart',
      'aria-label': 'The chance of each outcome',
    });
    outcomes.forEach((o, i) => {
      const y = i * row;
      box.append(svg('text', { x: 0, y: y + 13, class: 'label' }, o.text || o.outcome || ''));
      const w = Math.max(1, ((width - 64) * o.p) / most);
      box.append(svg('rect', { x: 0, y: y + 18, width: w.toFixed(1), height: 12, rx: 2, class: 'bar' }));
      box.append(svg('text', { x: w + 4, y: y + 29, class: 'value' }, percent(o.p)));
    });
    return box;
  }

  /** An answer of the JSON, as the live view lays one out, when the
   *  module gives no HTML of its own. */
  function fromJson(a) {
    const div = el('div', { class: 'answer' });
    if (a.type === 'error') {
      div.classList.add('error');
      div.append(el('p', { class: 'message' }, 'error: ' + a.error));
      return div;
    }
    if (a.type === 'resolution') {
      div.classList.add('resolution');
      const dl = el('dl', { class: 'stack' });
      (a.dice || []).forEach((d, i) => {
        const how = a.entered && a.entered[i] ? 'entered' : 'rolled';
        dl.append(el('div', { class: 'row' }, el('dt', {}, `die ${i + 1} (${how})`), el('dd', {}, String(d))));
      });
      for (const m of a.modifiers || []) {
        dl.append(el('div', { class: 'row' }, el('dt', {}, m.label), el('dd', {}, (m.value > 0 ? '+' : '') + m.value)));
      }
      if (a.score !== undefined) dl.append(el('div', { class: 'row' }, el('dt', {}, 'score'), el('dd', {}, String(a.score))));
      div.append(el('p', { class: 'heading' }, a.verb + ' · ' + a.rules), dl);
      div.append(el('p', { class: 'outcome neutral' }, '⇒ ' + a.outcome_text));
      if (a.notes && a.notes.length) div.append(el('ul', { class: 'notes' }, ...a.notes.map((n) => el('li', {}, n))));
      return div;
    }
    if (Array.isArray(a.outcomes)) {
      const table = el('table', { class: 'chances' },
        el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'outcome'), el('th', { scope: 'col' }, 'chance'))));
      const rows = el('tbody');
      for (const o of a.outcomes) {
        rows.append(el('tr', {}, el('th', { scope: 'row' }, o.text || o.outcome), el('td', {}, percent(o.p), el('small', {}, o.fraction || ''))));
      }
      table.append(rows);
      div.append(table);
      return div;
    }
    div.append(el('pre', {}, a.text !== undefined ? a.text : JSON.stringify(a, null, 1)));
    return div;
  }

  function show(line, how, text, said, html) {
    $('answers-empty')?.remove();
    const entry = el('article', { class: 'entry reply' },
      el('h3', {}, el('span', { class: 'line' }, line), ' ', el('span', { class: 'when' }, how)));
    if (html) {
      const part = el('div');
      part.innerHTML = html;
      entry.append(...part.childNodes);
    }
    for (const json of text.split('\n').filter((l) => l.trim() !== '')) {
      let a;
      try { a = JSON.parse(json); } catch { continue; }
      if (!html) entry.append(fromJson(a));
      if (a.type === 'odds' && Array.isArray(a.outcomes) && a.outcomes.length) entry.append(chart(a.outcomes));
    }
    const notes = said.split('\n').filter((l) => l.trim() !== '');
    if (notes.length) entry.append(el('ul', { class: 'notes said' }, ...notes.map((n) => el('li', {}, n))));
    $('answers').prepend(entry);
    entry.scrollIntoView({ block: 'nearest' });
  }

  // The log of this page's answers, in the browser's storage.
  function logOf() {
    try {
      const kept = JSON.parse(localStorage.getItem(LOG_KEY) || '[]');
      return Array.isArray(kept) ? kept : [];
    } catch { return []; }
  }
  let exportUrl = null;
  function showLog(log) {
    $('log-count').textContent = log.length === 0 ? 'No answers kept yet.'
      : `${log.length} answer${log.length === 1 ? '' : 's'} kept in this browser.`;
    if (exportUrl) URL.revokeObjectURL(exportUrl);
    exportUrl = URL.createObjectURL(new Blob([log.map((l) => l + '\n').join('')], { type: 'application/jsonl' }));
    $('export').href = exportUrl;
  }
  function keep(text) {
    const log = logOf();
    for (const l of text.split('\n')) if (l.trim() !== '') log.push(l);
    const kept = log.slice(-LOG_MOST);
    try { localStorage.setItem(LOG_KEY, JSON.stringify(kept)); } catch { /* storage full or off: the log is this page's only */ }
    showLog(kept);
  }

  function say(text) { $('state').textContent = text; }

  function submit(event) {
    event.preventDefault();
    let line = $('line').value.replace(/\s+/g, ' ').trim();
    if (!line) return;
    const dice = $('dice').value.replace(/[,;]/g, ' ').replace(/\s+/g, ' ').trim();
    if (dice) line += ' rolled ' + dice;
    const given = $('seed').value.trim();
    let seed;
    try { seed = seedOf(given === '' ? newSeed() : given).toString(); } catch (e) { say(e.message); return; }
    const text = api.resolve(line, seed);
    const said = stderrOfLast();
    show(line, dice ? 'dice entered · seed ' + seed : 'seed ' + seed, text, said, viewOf(line, seed));
    keep(text);
    $('dice').value = '';
    $('completions').replaceChildren();
  }

  function offer() {
    const field = $('line');
    const prefix = field.value.slice(0, field.selectionStart ?? field.value.length);
    let words = [];
    try { words = api.complete(prefix); } catch { words = []; }
    const partial = /\S*$/.exec(prefix)[0];
    const buttons = (Array.isArray(words) ? words : []).slice(0, 24).map((w) => {
      const word = String(w && typeof w === 'object' ? w.word : w);
      const b = el('button', { type: 'button', class: 'word' }, word);
      if (w && w.meaning) b.setAttribute('title', w.meaning);
      b.addEventListener('click', () => {
        const rest = field.value.slice(prefix.length);
        const before = prefix.slice(0, prefix.length - partial.length);
        field.value = before + word + ' ' + rest.replace(/^\s+/, '');
        const at = (before + word + ' ').length;
        field.focus();
        field.setSelectionRange(at, at);
        offer();
      });
      return b;
    });
    $('completions').replaceChildren(...buttons);
  }

  // Armies: a shipped list or a file of this phone's, remembered here.
  function armiesKept() {
    try { const a = JSON.parse(localStorage.getItem(ARMIES_KEY) || '[]'); return Array.isArray(a) ? a : []; } catch { return []; }
  }
  function load(army, remember) {
    const said = army.text !== undefined ? api.army(army.text, army.name) : api.shippedArmy(army.file);
    let error = null;
    try { const r = JSON.parse(said); if (r && r.type === 'error') error = r.error; } catch { /* not JSON: taken as said */ }
    const item = el('li', {}, error ? `${army.name}: ${error}` : army.name);
    if (error) item.classList.add('bad');
    $('loaded').append(item);
    if (!error && remember) {
      const kept = armiesKept();
      kept.push(army);
      try { localStorage.setItem(ARMIES_KEY, JSON.stringify(kept)); } catch { /* kept for this visit only */ }
    }
  }

  function start(instance) {
    ex = instance.exports;
    window.drumhead = api;
    for (const a of armiesKept()) load(a, false);
    $('pocket-form').addEventListener('submit', submit);
    $('line').addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); $('pocket-form').requestSubmit(); }
    });
    $('line').addEventListener('input', offer);
    $('shipped').addEventListener('change', (e) => {
      const file = e.target.value;
      if (!file) return;
      const name = e.target.selectedOptions[0].textContent;
      load({ file, name }, true);
      e.target.value = '';
    });
    $('army-file').addEventListener('change', (e) => {
      const file = e.target.files && e.target.files[0];
      if (!file) return;
      const reader = new FileReader();
      reader.onload = () => { load({ name: file.name, text: String(reader.result) }, true); e.target.value = ''; };
      reader.readAsText(file);
    });
    $('forget').addEventListener('click', () => {
      api.reset();
      $('loaded').replaceChildren();
      try { localStorage.removeItem(ARMIES_KEY); } catch { /* nothing kept */ }
    });
    $('clear-log').addEventListener('click', () => {
      try { localStorage.removeItem(LOG_KEY); } catch { /* nothing kept */ }
      showLog([]);
    });
    showLog(logOf());
    // The shipped lists are read once the page answers: the first line
    // does not wait for them.
    setTimeout(() => {
      for (const a of api.shipped()) {
        if (a.file && a.name) $('shipped').append(el('option', { value: a.file }, `${a.name} (${a.system})`));
      }
      body.dataset.shipped = '';
    }, 0);
    say('ready: no network needed');
    // How long the page took to be ready, from its start (ms).
    body.dataset.readyMs = performance.now().toFixed(0);
    body.dataset.ready = '';
  }

  /** The module's bytes: base64 of the module deflated (or gzipped, or
   *  neither), as the element's data-encoding says. */
  async function moduleBytes() {
    const carried = $('drumhead-module');
    const bytes = bytesOf(carried.textContent);
    const encoding = carried.dataset.encoding;
    if (encoding !== 'deflate-raw' && encoding !== 'gzip') return bytes;
    const inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream(encoding));
    return new Uint8Array(await new Response(inflated).arrayBuffer());
  }

  moduleBytes()
    .then((bytes) => WebAssembly.instantiate(bytes, {}))
    .then(({ instance }) => start(instance))
    .catch((e) => {
      say('this browser cannot run the page: ' + e.message);
      body.dataset.failed = String(e.message);
    });
})();
