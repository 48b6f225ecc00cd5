#!/usr/bin/env node
// check-speedscope.mjs STRATA FILE...: the collapsed stacks `strata -r
// --format=folded` prints for Trace Event JSON files equal the call trees
// speedscope's own importer builds from the same files; Strata reads the
// speedscope file speedscope exports to the same stacks, and speedscope
// reads the one `strata -r --format=speedscope` writes to them too.
//
// speedscope has no Node API: its shipped app (npm package speedscope,
// dist/release) is opened in headless Chromium on a loopback server with
// "#profileURL=", and its own export (Ctrl+S, a .speedscope.json of open
// and close events per thread) is caught as it is saved. Self time per
// path is summed over threads, since the two name threads differently.
// speedscope names a frame "name {args as JSON}": each is mapped back to
// its event's name. Files speedscope reads as CPU profiles, or whose
// slices do not nest, are skipped with the reason (speedscope weighs
// samples by time, Strata counts them; unnested slices are a matter of
// policy), as are all files when node's packages or Chromium are absent.
//
// With $STRATA_CORPUS_DIR, the corpus's Trace Event files are checked too.
// $PEERS_DIR holds node_modules with speedscope and puppeteer-core (see
// build-aux/install-peers.sh); $CHROMIUM the browser (/usr/bin/chromium).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

const [strata, ...given] = process.argv.slice(2);
const peers = process.env.PEERS_DIR || path.join(os.tmpdir(), 'peers');
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
const release = path.join(peers, 'node_modules', 'speedscope', 'dist', 'release');

function skipAll(reason) {
  console.log(`1..0 # SKIP ${reason}`);
  process.exit(0);
}

function corpusFiles() {
  const root = process.env.STRATA_CORPUS_DIR;
  if (!root || !fs.existsSync(path.join(root, 'json'))) return [];
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.includes('.json')) found.push(full);
    }
  };
  walk(path.join(root, 'json'));
  return found.sort();
}

function readDocument(file) {
  let bytes = fs.readFileSync(file);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = zlib.gunzipSync(bytes);
  return JSON.parse(bytes.toString('utf8'));
}

function eventsOf(data) {
  if (Array.isArray(data)) return data;
  if (data && Array.isArray(data.samples) && data.samples.length > 0) return 'it holds stack samples';
  if (data && Array.isArray(data.traceEvents)) return data.traceEvents;
  return null;
}

// Complete events with a thread-clock duration and no wall one (cut short
// where tracing stopped) last as long as tdur for speedscope and no time
// for Strata: a copy without them is what both read.
function withoutUntimed(file, data, events, scratch) {
  const untimed = (e) => e && e.ph === 'X' && e.dur === undefined;
  const n = events.filter(untimed).length;
  if (n === 0) return [file, events, ''];
  const kept = events.filter((e) => !untimed(e));
  const copy = path.join(scratch, `${path.basename(file).replace(/\.gz$/, '')}`);
  fs.writeFileSync(copy, JSON.stringify(Array.isArray(data) ? kept : { ...data, traceEvents: kept }));
  return [copy, kept, ` (${n} X events without dur left out)`];
}

// Why speedscope's reading cannot be compared with Strata's, or null.
function incomparable(events) {
  const open = new Map();
  const slices = new Map();
  for (const e of events) {
    if (!e || typeof e !== 'object') continue;
    if (['Profile', 'ProfileChunk', 'CpuProfile'].includes(e.name) || e.ph === 'P') return 'it holds CPU profile samples';
    const key = `${e.pid}:${e.tid}`;
    if (e.ph === 'X') {
      if (!slices.has(key)) slices.set(key, []);
      slices.get(key).push([Number(e.ts), Number(e.ts) + Number(e.dur || 0)]);
    } else if (e.ph === 'B') {
      if (!open.has(key)) open.set(key, []);
      open.get(key).push([Number(e.ts), e.name]);
    } else if (e.ph === 'E') {
      const stack = open.get(key);
      if (!stack || stack.length === 0) return 'an E event has no B';
      const [start, name] = stack.pop();
      if (e.name !== undefined && e.name !== name) return 'an E event names another slice than the one it ends';
      if (!slices.has(key)) slices.set(key, []);
      slices.get(key).push([start, Number(e.ts)]);
    }
  }
  for (const stack of open.values()) if (stack.length) return 'a B event is never ended';
  for (const items of slices.values()) {
    // A slice of no length weighs nothing; only where it touches another
    // slice's ends is where it sits a matter of policy.
    const bounds = new Set();
    for (const [start, end] of items) if (end > start) bounds.add(start).add(end);
    const instants = new Set();
    for (const [start, end] of items) {
      if (end < start) return 'a slice ends before it begins';
      if (end === start && (bounds.has(start) || instants.has(start))) return 'a slice of no length touches another';
      if (end === start) instants.add(start);
    }
    const spans = items.filter(([start, end]) => end > start).sort((a, b) => a[0] - b[0] || b[1] - a[1]);
    const ends = [];
    let previous = [NaN, NaN];
    for (const [start, end] of spans) {
      if (start === previous[0] && end === previous[1])
        return 'two slices share their whole span (which holds the other is a matter of order)';
      previous = [start, end];
      while (ends.length && ends[ends.length - 1] <= start) ends.pop();
      if (ends.length && end > ends[ends.length - 1]) return 'its slices overlap without nesting';
      ends.push(end);
    }
  }
  if (slices.size === 0) return 'it has no slices';
  return null;
}

// speedscope's frame name for each event name: "name {args}".
function frameNames(events) {
  const names = new Map();
  for (const e of events) {
    if (!e || !['B', 'E', 'X'].includes(e.ph)) continue;
    const name = `${e.name || '(unnamed)'}`;
    names.set(e.args ? `${name} ${JSON.stringify(e.args)}` : name, e.name || '');
  }
  return names;
}

// {path without the thread: [self µs, events]} from speedscope's export.
function speedscopeFolded(exported, names) {
  const frames = exported.shared.frames;
  const folded = new Map();
  for (const profile of exported.profiles) {
    if (profile.type !== 'evented') throw new Error(`a ${profile.type} profile`);
    const stack = [];
    let last = profile.startValue;
    for (const event of profile.events) {
      if (stack.length && event.at > last) {
        const key = stack.join(';');
        const entry = folded.get(key) || [0, 0];
        entry[0] += event.at - last;
        entry[1] += 1;
        folded.set(key, entry);
      }
      last = event.at;
      if (event.type === 'O') {
        const name = frames[event.frame].name;
        stack.push(names.has(name) ? names.get(name) : name);
      } else {
        stack.pop();
      }
    }
  }
  return folded;
}

function strataFolded(file) {
  const out = execFileSync(strata, ['-r', '--format=folded', '--clock=wall', file], { encoding: 'utf8', maxBuffer: 1 << 30 });
  const folded = new Map();
  for (const line of out.split('\n')) {
    const cut = line.lastIndexOf(' ');
    const stack = line.slice(0, cut);
    const at = stack.indexOf(';');
    if (cut < 0 || at < 0) continue;   // a thread's own time outside its calls
    const key = stack.slice(at + 1);
    folded.set(key, (folded.get(key) || 0) + Number(line.slice(cut + 1)));
  }
  return folded;
}

// Differing paths, with a nanosecond of rounding allowed per interval.
function compare(theirs, ours) {
  const differ = [];
  for (const key of new Set([...theirs.keys(), ...ours.keys()])) {
    const [micros, count] = theirs.get(key) || [0, 0];
    const expected = micros * 1000;
    const got = ours.get(key) || 0;
    if (Math.abs(expected - got) > count + 1 + Math.abs(expected) * 1e-9) differ.push([key, Math.round(expected), got]);
  }
  return differ;
}

class SpeedscopeFailed extends Error {}

async function exportWithSpeedscope(page, port, name) {
  await page.goto('about:blank');
  await page.goto(`http://127.0.0.1:${port}/index.html#profileURL=${encodeURIComponent(`http://127.0.0.1:${port}/trace/${name}`)}`);
  await page.waitForFunction(() => / - speedscope$/.test(document.title) || /went wrong|unrecognized format|failed/i.test(document.body ? document.body.innerText : ''),
    { timeout: 120000, polling: 50 });
  if (!/ - speedscope$/.test(await page.title())) throw new SpeedscopeFailed();
  await page.evaluate(() => { window.__strataExported = null; });
  await page.keyboard.down('Control');
  await page.keyboard.press('s');
  await page.keyboard.up('Control');
  await page.waitForFunction(() => window.__strataExported != null, { timeout: 60000, polling: 50 });
  return JSON.parse(await page.evaluate(() => window.__strataExported.text()));
}

async function main() {
  const files = [...given, ...corpusFiles()];
  if (!strata || files.length === 0) skipAll('no files');
  if (!fs.existsSync(path.join(release, 'index.html'))) skipAll(`speedscope is not installed in ${peers} (build-aux/install-peers.sh)`);
  if (!fs.existsSync(chromium)) skipAll(`no Chromium at ${chromium}`);
  let puppeteer;
  try {
    puppeteer = createRequire(path.join(peers, 'node_modules', 'noop.js'))('puppeteer-core');
  } catch {
    skipAll(`puppeteer-core is not installed in ${peers}`);
  }

  const served = new Map();
  const server = http.createServer((req, res) => {
    const url = decodeURIComponent(req.url.split('?')[0].split('#')[0]);
    const file = url.startsWith('/trace/') ? served.get(url.slice(7)) : path.join(release, path.normalize(url));
    if (!file || (!url.startsWith('/trace/') && !file.startsWith(release)) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404);
      res.end();
      return;
    }
    const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm' };
    res.writeHead(200, { 'content-type': types[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'strata-speedscope-'));
  const browser = await puppeteer.launch({ executablePath: chromium, headless: true, pipe: true, userDataDir,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-extensions'] });
  const page = await browser.newPage();
  // speedscope saves through a Blob URL: keep the Blob.
  await page.evaluateOnNewDocument(() => {
    const make = URL.createObjectURL.bind(URL);
    URL.createObjectURL = (blob) => { window.__strataExported = blob; return make(blob); };
  });

  const results = [];
  for (const [n, file] of files.entries()) {
    let data, events, read = file, note = '';
    try {
      data = readDocument(file);
      events = eventsOf(data);
    } catch {
      events = null;
    }
    if (Array.isArray(events))
      [read, events, note] = withoutUntimed(file, data, events, fs.mkdtempSync(path.join(userDataDir, 'copy-')));
    const reason = events == null ? 'it is not a whole Trace Event document'
                 : typeof events === 'string' ? events : incomparable(events);
    if (reason) {
      results.push([null, `${file}: skipped, ${reason}`]);
      continue;
    }
    // speedscope names the profile after the file; any name ending .json serves.
    const name = `${n}.json`;
    served.set(name, read);
    try {
      const exported = await exportWithSpeedscope(page, server.address().port, name);
      const theirs = speedscopeFolded(exported, frameNames(events));
      const differ = compare(theirs, strataFolded(read));
      results.push([differ.length === 0, `${file}: ${theirs.size} stacks${note}` +
        (differ.length ? `, differing: ${JSON.stringify(differ.slice(0, 3))}` : '')]);
      // Both ways through speedscope's own file format: Strata reads the
      // file speedscope wrote, and speedscope reads the one Strata writes.
      const theirFile = path.join(userDataDir, `${n}.speedscope.json`);
      fs.writeFileSync(theirFile, JSON.stringify(exported));
      const readBack = compare(speedscopeFolded(exported, new Map()), strataFolded(theirFile));
      results.push([readBack.length === 0, `${file}: Strata reads speedscope's export` +
        (readBack.length ? `, differing: ${JSON.stringify(readBack.slice(0, 3))}` : '')]);
      const ourFile = path.join(userDataDir, `${n}.strata.speedscope.json`);
      fs.writeFileSync(ourFile, execFileSync(strata, ['-r', '--format=speedscope', '--clock=wall', read], { maxBuffer: 1 << 30 }));
      served.set(`${n}.strata.json`, ourFile);
      const viaOurs = speedscopeFolded(await exportWithSpeedscope(page, server.address().port, `${n}.strata.json`), new Map());
      // Strata's file is in ns, speedscope's export of it too: µs in compare().
      for (const entry of viaOurs.values()) entry[0] /= 1000;
      const ours = compare(viaOurs, strataFolded(read));
      results.push([ours.length === 0, `${file}: speedscope reads Strata's --format=speedscope` +
        (ours.length ? `, differing: ${JSON.stringify(ours.slice(0, 3))}` : '')]);
    } catch (e) {
      if (e instanceof SpeedscopeFailed) results.push([null, `${file}: skipped, speedscope could not import it`]);
      else results.push([false, `${file}: ${String(e.message || e).split('\n')[0]}`]);
    }
  }
  await browser.close();
  server.close();
  fs.rmSync(userDataDir, { recursive: true, force: true });

  console.log(`1..${results.length}`);
  results.forEach(([ok, text], i) => console.log(`${ok === false ? 'not ok' : 'ok'} ${i + 1} - ${text}${ok === null ? ' # SKIP' : ''}`));
  process.exit(results.some(([ok]) => ok === false) ? 1 : 0);
}

main().catch((e) => {
  console.log('1..1');
  console.log(`not ok 1 - ${String(e.message || e).split('\n')[0]}`);
  process.exit(1);
});
