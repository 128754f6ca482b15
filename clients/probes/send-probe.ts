// Measures how a real client in a lab (lab.ts) takes a message: bracketed paste and raw mode,
// how soon Enter may follow typed or pasted text, multi-line and large texts, what the composer
// shows of a draft, a message sent while a turn runs, hostile bytes, and when the client's own
// prompt-accepted and turn-end events fire. A measuring tool, not a test: its sleeps are the
// delays under measurement. Runs outside the namespace: it only talks to the lab's tmux socket
// and reads the lab's logs.
//
//   npx esbuild clients/probes/send-probe.ts --bundle --platform=node --format=esm --outfile=/tmp/send-probe.mjs
//   node /tmp/send-probe.mjs <lab dir> <experiment> [args…]     (prints one JSON result per line)
//
// Experiments: modes | screen | sweep type|paste [delays…] | multiline | big [KiB] | draft | busy
// | enter-empty | hostile | restore [clear key] [yank key] | keys <tmux key…> | send <text> (paste, 300 ms, Enter).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface Info { agent: string; version: string; pane: string; socket: string; pid: number; hooks: string }
interface HookLine { t: number; ev: string; p: unknown }
interface RequestLine { i: number; at: number; path: string; bytes: number }

const [labDir = '', experiment = '', ...rest] = process.argv.slice(2);
if (!labDir || !experiment) {
  process.stderr.write('usage: send-probe.mjs <lab dir> <experiment> [args…]\n');
  process.exit(2);
}
const info = JSON.parse(readFileSync(join(labDir, 'info.json'), 'utf8')) as Info;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const tmux = (...a: string[]) => execFileSync('tmux', ['-S', info.socket, ...a], { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-t', info.pane).replace(/\n+$/, '');
const out = (o: Record<string, unknown>) => process.stdout.write(`${JSON.stringify({ agent: info.agent, version: info.version, ...o })}\n`);
const mark = () => `sp${randomBytes(3).toString('hex')}`;

/** Events a client's own hooks, plugin or extension fire when a prompt is taken, and at a turn's end. */
const END = new Set(['Stop', 'notify', 'AfterAgent', 'session.idle', 'agent_end', 'agent_settled', 'agentStop']);

function lines<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').flatMap((l) => {
    try {
      return [JSON.parse(l) as T];
    } catch {
      return [];
    }
  });
}
const hooks = () => lines<HookLine>(info.hooks);
const requests = () => lines<RequestLine>(join(labDir, 'requests.jsonl'));
const requestBody = (i: number) => readFileSync(join(labDir, `request-${i}.json`), 'utf8');
const replies = () => lines<{ at: number; text?: string }>(join(labDir, 'replies.jsonl')).filter((r) => r.text);

/** The first hook line after `since` that names `m`, and the requests whose body does. */
function evidence(m: string, since: number) {
  const hooked = hooks().filter((h) => h.t >= since && JSON.stringify(h.p).includes(m));
  const asked = requests().filter((r) => r.at >= since && requestBody(r.i).includes(m));
  return { hooked, asked };
}

async function until<T>(fn: () => T | null | undefined | false, ms: number, every = 50): Promise<T | null> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) return null;
    await sleep(every);
  }
}

/** Pastes `text` as tmux does for a bracketed-paste-aware sender: a named buffer, -p, -r (LF kept), -d. */
function paste(text: string, opts: { bracket?: boolean; keepLf?: boolean; withEnter?: boolean } = {}) {
  const file = join(labDir, 'paste.txt');
  writeFileSync(file, text);
  const name = `probe-${randomBytes(4).toString('hex')}`;
  tmux('load-buffer', '-b', name, file);
  tmux('paste-buffer', ...(opts.bracket === false ? [] : ['-p']), ...(opts.keepLf === false ? [] : ['-r']), '-d', '-b', name, '-t', info.pane,
    ...(opts.withEnter ? [';', 'send-keys', '-t', info.pane, 'Enter'] : []));
}
const typeText = (text: string, withEnter = false) => tmux('send-keys', '-t', info.pane, '-l', text, ...(withEnter ? [';', 'send-keys', '-t', info.pane, 'Enter'] : []));
const keys = (...k: string[]) => tmux('send-keys', '-t', info.pane, ...k);

/** Waits for the turn that took `m` to end (its end event, or 20 s): the next experiment starts idle. */
async function settle(since: number, ms = 30_000) {
  const ended = await until(() => hooks().find((h) => h.t >= since && END.has(h.ev)), ms);
  await sleep(800);
  return ended;
}

/** Submits `m` with a delay between the text and Enter; says whether and how it was taken. */
async function trial(how: 'type' | 'paste', delay: number) {
  const m = mark();
  // PAD=n lengthens the text by n characters (a longer burst of typed keys)
  const text = `probe ${how} ${delay}ms ${m}${process.env.PAD ? ` ${'w'.repeat(Number(process.env.PAD))}` : ''}`;
  const t0 = Date.now();
  // delay -1: the text and Enter in one tmux command (one write to the pane, as a burst)
  const withEnter = delay < 0;
  if (how === 'type') typeText(text, withEnter);
  else paste(text, { withEnter });
  if (delay > 0) await sleep(delay);
  const tEnter = Date.now();
  if (!withEnter) keys('Enter');
  const got = await until(() => {
    const e = evidence(m, t0);
    return e.hooked.length > 0 || e.asked.length > 0 ? e : null;
  }, 8_000);
  let rescued = false;
  let held: string | null = null;
  if (!got) {
    held = screen().split('\n').filter((l) => l.includes(m)).join(' | ');
    keys('Enter');
    rescued = (await until(() => evidence(m, t0).asked.length > 0 || evidence(m, t0).hooked.length > 0, 8_000)) !== null;
  }
  const ended = await settle(tEnter);
  const e = evidence(m, t0);
  const accepted = e.hooked[0];
  out({
    experiment: 'sweep', how, delay, submitted: got !== null, rescuedBySecondEnter: rescued, heldOnScreen: held,
    acceptedBy: accepted?.ev ?? null, acceptedMs: accepted ? accepted.t - tEnter : null,
    requestMs: e.asked[0] ? e.asked[0].at - tEnter : null, endedBy: ended?.ev ?? null, endedMs: ended ? ended.t - tEnter : null,
    requests: e.asked.length,
  });
}

function modes() {
  const raw = existsSync(join(labDir, 'raw.log')) ? readFileSync(join(labDir, 'raw.log'), 'latin1') : '';
  const last = (on: string, off: string) => {
    const a = raw.lastIndexOf(on);
    const b = raw.lastIndexOf(off);
    return a === -1 && b === -1 ? 'never set' : a > b ? 'on' : 'off';
  };
  const tty = tmux('display-message', '-p', '-t', info.pane, '#{pane_tty}').trim();
  const stty = execFileSync('stty', ['-a', '-F', tty], { encoding: 'utf8' });
  const flag = (f: string) => (new RegExp(`(^|\\s)-${f}(\\s|$)`).test(stty) ? false : new RegExp(`(^|\\s)${f}(\\s|$)`).test(stty) ? true : null);
  const privateModes = [...new Set([...raw.matchAll(/\x1b\[\?(\d+)([hl])/g)].map((x) => `${x[1]}${x[2]}`))];
  const kitty = [...new Set([...raw.matchAll(/\x1b\[([<>=])(\d*)u/g)].map((x) => `${x[1]}${x[2]}u`))];
  out({
    experiment: 'modes', bracketedPaste: last('\x1b[?2004h', '\x1b[?2004l'), altScreen: last('\x1b[?1049h', '\x1b[?1049l'),
    focusEvents: last('\x1b[?1004h', '\x1b[?1004l'), icanon: flag('icanon'), echo: flag('echo'), isig: flag('isig'), icrnl: flag('icrnl'),
    privateModes, kittyKeyboard: kitty, modifyOtherKeys: [...new Set([...raw.matchAll(/\x1b\[>4;(\d)m/g)].map((x) => x[1]))],
    tmuxFormats: tmux('display-message', '-p', '-t', info.pane, '#{alternate_on} #{keypad_flag} #{keypad_cursor_flag} #{mouse_any_flag} #{pane_current_command}').trim(),
  });
}

/** Multi-line: each way of sending three lines; how many submissions, what text arrived. */
async function multiline() {
  const ways: Array<[string, (t: string) => void]> = [
    ['paste -p -r', (t) => paste(t)],
    ['paste -p (LF→CR)', (t) => paste(t, { keepLf: false })],
    ['send-keys -l', (t) => typeText(t)],
  ];
  for (const [name, send] of ways) {
    const m = mark();
    const text = `first line ${m}\nsecond line ${m}\nthird line ${m}`;
    const t0 = Date.now();
    send(text);
    await sleep(400);
    const before = screen();
    const early = evidence(m, t0);
    keys('Enter');
    await until(() => evidence(m, t0).asked.length > 0 || evidence(m, t0).hooked.length > 0, 8_000);
    await sleep(2_500);
    const e = evidence(m, t0);
    const bodies = e.asked.map((r) => requestBody(r.i));
    const arrived = bodies.map((b) => (b.match(new RegExp(`first line ${m}(?:\\\\n|\\\\r|\\s)+second line ${m}(?:\\\\n|\\\\r|\\s)+third line ${m}`)) ? 'whole' : b.includes(`third line ${m}`) ? 'third' : b.includes(`first line ${m}`) ? 'first only' : 'other'));
    const prompts = e.hooked.map((h) => ({ ev: h.ev, text: JSON.stringify(h.p).match(new RegExp(`first line ${m}.{0,80}`))?.[0] ?? JSON.stringify(h.p).slice(0, 160) }));
    out({
      experiment: 'multiline', way: name, beforeEnterSubmitted: early.asked.length + early.hooked.length > 0,
      composerBeforeEnter: before.split('\n').filter((l) => l.includes(m) || /Pasted text/.test(l)).join(' | '),
      requestsWithMark: e.asked.length, arrived, acceptedEvents: prompts,
    });
    await settle(t0);
    if (e.asked.length === 0 && e.hooked.length === 0) {
      out({ experiment: 'multiline', way: name, note: 'nothing submitted: screen follows', screen: screen().split('\n').slice(-15).join('\n') });
    }
  }
}

/** A large paste: whole in the request? how long to accept? what the composer shows. */
async function big(kib: number) {
  const m = mark();
  const line = `${'x'.repeat(90)} ${m}\n`;
  const n = Math.ceil((kib * 1024) / line.length);
  const text = `start ${m}\n${line.repeat(n)}end ${m}`;
  const t0 = Date.now();
  paste(text);
  const shown = await until(() => {
    const s = screen();
    return /Pasted text|\[Pasted|pasted|lines\]/i.test(s) || s.includes(`end ${m}`) ? s : null;
  }, 20_000, 100);
  const tShown = Date.now();
  await sleep(500);
  const tEnter = Date.now();
  keys('Enter');
  const got = await until(() => (evidence(m, t0).asked.length > 0 ? evidence(m, t0) : null), 30_000, 200);
  const e = evidence(m, t0);
  const body = e.asked[0] ? requestBody(e.asked[0].i) : '';
  const whole = body.includes(`start ${m}`) && body.includes(`end ${m}`);
  const count = (body.match(new RegExp(`x{90} ${m}`, 'g')) ?? []).length;
  const accepted = e.hooked[0];
  out({
    experiment: 'big', kib, bytes: text.length, lines: n + 2, pasteVisibleMs: shown ? tShown - t0 : null,
    composer: shown ? shown.split('\n').filter((l) => /Pasted|pasted|lines\]/i.test(l) || l.includes(m)).slice(0, 3).join(' | ').slice(0, 300) : screen().split('\n').slice(-8).join(' | '),
    submitted: got !== null, requestWhole: whole, linesInRequest: count, linesSent: n,
    acceptedBy: accepted?.ev ?? null, acceptedMs: accepted ? accepted.t - tEnter : null, acceptedPayloadBytes: accepted ? JSON.stringify(accepted.p).length : null,
    requestMs: e.asked[0] ? e.asked[0].at - tEnter : null,
  });
  await settle(tEnter, 60_000);
}

/** A draft typed without Enter: what the screen shows; then each clearing key on a fresh draft. */
async function draft() {
  const base = screen();
  for (const key of ['C-u', 'Escape', 'C-c']) {
    const m = mark();
    typeText(`my half typed draft ${m}`);
    await sleep(700);
    const s = screen();
    const row = s.split('\n').find((l) => l.includes(m)) ?? null;
    keys(key);
    await sleep(900);
    const after = screen();
    const gone = !after.includes(m);
    out({ experiment: 'draft', key, draftRow: row, draftRowIndex: s.split('\n').findIndex((l) => l.includes(m)), clearedByKey: gone, afterKey: after.split('\n').slice(-6).join('\n'), exited: tmux('display-message', '-p', '-t', info.pane, '#{pane_dead}').trim() === '1' });
    if (!gone) {
      // clear it for the next key: as many BSpace as the text (every client takes that)
      keys(...Array(40).fill('BSpace'));
      await sleep(500);
    }
    if (key === 'C-c') await sleep(3_500); // let a "press again to exit" warning pass
  }
  out({ experiment: 'draft', idleScreenTail: base.split('\n').slice(-6).join('\n') });
}

/**
 * Save–clear–restore with the client's own keys: a two-line draft, `clear` pressed until the
 * draft is gone (at most 3 times), a message sent and answered, then `yank`: is the draft back?
 */
async function restore(clear: string, yank: string) {
  const d = mark();
  typeText(`draft line one ${d}\ndraft line two ${d}`);
  await sleep(1_500);
  const rows = () => screen().split('\n').filter((l) => l.includes(d));
  const before = rows();
  let presses = 0;
  while (rows().length > 0 && presses < 3) {
    keys(clear);
    presses++;
    await sleep(1_000);
  }
  const left = rows();
  const m = mark();
  const t0 = Date.now();
  paste(`message while the draft is saved ${m}`);
  await sleep(300);
  keys('Enter');
  await until(() => evidence(m, t0).hooked.length > 0 || evidence(m, t0).asked.length > 0, 15_000);
  const e = evidence(m, t0);
  const mergedDraft = e.asked.some((r) => requestBody(r.i).includes(d)) || e.hooked.some((h) => JSON.stringify(h.p).includes(d));
  await settle(t0);
  keys(yank);
  await sleep(1_500);
  out({ experiment: 'restore', clear, yank, draftRows: before, clearPresses: presses, leftAfterClear: left, sent: e.asked.length + e.hooked.length > 0, draftInMessage: mergedDraft, afterYank: rows() });
}

/** A message sent while a turn is held by the mock: queued, steered, dropped or refused? */
async function busy() {
  const m1 = mark();
  const m2 = mark();
  const t0 = Date.now();
  paste(`fleetcom-mock-hold first ${m1}`);
  await sleep(400);
  keys('Enter');
  const held = await until(() => evidence(m1, t0).asked.length > 0, 20_000);
  await sleep(1_500);
  const tSecond = Date.now();
  paste(`second while busy ${m2}`);
  await sleep(400);
  keys('Enter');
  await sleep(4_000);
  const during = evidence(m2, tSecond);
  const screenDuring = screen();
  process.kill(info.pid, 'SIGUSR1');
  const tRelease = Date.now();
  await until(() => evidence(m2, tSecond).asked.length > 0, 20_000);
  await sleep(3_000);
  const after = evidence(m2, tSecond);
  const bodies = after.asked.map((r) => requestBody(r.i));
  out({
    experiment: 'busy', heldFirst: held !== null,
    secondAcceptedWhileBusy: during.hooked.map((h) => ({ ev: h.ev, ms: h.t - tSecond })), secondRequestsWhileBusy: during.asked.length,
    screenWhileBusy: screenDuring.split('\n').filter((l) => l.includes(m2) || /queue|steer|Queued|message/i.test(l)).join(' | ').slice(0, 400),
    afterRelease: after.asked.map((r, k) => ({ ms: r.at - tRelease, firstInSameRequest: bodies[k]!.includes(m1), secondCount: (bodies[k]!.match(new RegExp(m2, 'g')) ?? []).length })),
    acceptedAfterRelease: after.hooked.filter((h) => h.t >= tRelease).map((h) => ({ ev: h.ev, ms: h.t - tRelease })),
  });
  await settle(tRelease);
}

/** Enter on an empty composer: any request, hook or change on screen? */
async function enterEmpty() {
  const t0 = Date.now();
  const before = screen();
  keys('Enter');
  await sleep(2_500);
  const after = screen();
  out({ experiment: 'enter-empty', requests: requests().filter((r) => r.at >= t0).length, hooks: hooks().filter((h) => h.t >= t0).map((h) => h.ev), screenChanged: before !== after, tail: after.split('\n').slice(-5).join('\n') });
}

/** Bytes a pasted text should not be able to turn into keystrokes: what arrives, and how. */
async function hostile() {
  const cases: Array<[string, (m: string) => string]> = [
    ['ESC[201~ inside', (m) => `before ${m} \x1b[201~ after-end ${m}`],
    ['NUL', (m) => `nul ${m} a\x00b ${m}`],
    ['C0 controls (^C ^D ^U ^[ BEL)', (m) => `ctl ${m} a\x03b\x04c\x15d\x1be\x07f ${m}`],
    ['CRLF', (m) => `crlf ${m} one\r\ntwo ${m}`],
  ];
  for (const [name, make] of cases) {
    const m = mark();
    const t0 = Date.now();
    paste(make(m));
    await sleep(600);
    const before = screen();
    const early = evidence(m, t0);
    keys('Enter');
    await until(() => evidence(m, t0).asked.length > 0, 6_000);
    await sleep(1_500);
    const e = evidence(m, t0);
    const body = e.asked[0] ? requestBody(e.asked[0].i) : '';
    const i = body.indexOf(m);
    out({
      experiment: 'hostile', case: name, submittedBeforeEnter: early.asked.length + early.hooked.length > 0, requests: e.asked.length,
      arrived: i === -1 ? null : body.slice(i - 8, body.lastIndexOf(m) + m.length + 2), composer: before.split('\n').filter((l) => l.includes(m)).join(' | ').slice(0, 200),
      alive: tmux('display-message', '-p', '-t', info.pane, '#{pane_dead}').trim() !== '1',
    });
    await settle(t0, 15_000);
    if (e.asked.length === 0) {
      out({ experiment: 'hostile', case: name, note: 'not submitted', screen: screen().split('\n').slice(-10).join('\n') });
      keys(...Array(80).fill('BSpace'));
      await sleep(500);
    }
  }
}

async function main() {
  switch (experiment) {
    case 'modes': return modes();
    case 'screen': return void process.stdout.write(`${screen()}\n`);
    case 'sweep': {
      const how = rest[0] === 'paste' ? 'paste' : 'type';
      const delays = rest.length > 1 ? rest.slice(1).map(Number) : [-1, 0, 50, 100, 150, 250, 500];
      for (const d of delays) await trial(how, d);
      return;
    }
    case 'multiline': return multiline();
    case 'big': return big(Number(rest[0] ?? 100));
    case 'draft': return draft();
    case 'busy': return busy();
    case 'restore': return restore(rest[0] ?? 'C-u', rest[1] ?? 'C-y');
    case 'enter-empty': return enterEmpty();
    case 'hostile': return hostile();
    case 'keys': return void keys(...rest);
    case 'send': {
      const m = rest.join(' ');
      const t0 = Date.now();
      paste(m);
      await sleep(300);
      const tEnter = Date.now();
      keys('Enter');
      const got = await until(() => evidence(m, t0).hooked.length > 0 || evidence(m, t0).asked.length > 0, 15_000);
      const ended = await settle(tEnter);
      const e = evidence(m, t0);
      return out({ experiment: 'send', submitted: got !== null, accepted: e.hooked.map((h) => ({ ev: h.ev, ms: h.t - tEnter })), requestMs: e.asked[0] ? e.asked[0].at - tEnter : null, ended: ended ? { ev: ended.ev, ms: ended.t - tEnter } : null, replies: replies().length });
    }
    default:
      process.stderr.write(`unknown experiment ${experiment}\n`);
      process.exit(2);
  }
}
await main();
