// The page in a real browser: Debian's chromium driven by playwright-core (no browser is
// downloaded: `executablePath`), against `fleetcom web` serving a real fleet of fake agents on
// a private tmux server. At a phone's 390x844 and at a desktop's size. Screenshots go to
// $FLEETCOM_WEB_SHOTS when set (scripts/docs-web-screenshot.mjs keeps docs/web-phone.png).
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startFleet, type Fleet } from '../helpers/fleet.js';
import { useSandbox, type Sandbox } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait-for.js';
import { startWeb, type Web } from '../helpers/web.js';

export const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Fails, never skips, when the browser is missing: CI installs it (.ci/run) and must run this. */
function requireChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`chromium is missing at ${CHROMIUM}: the browser tests need Debian's chromium (apt-get install chromium; .ci/run installs it)`);
  }
}

async function browser(sb: Sandbox, viewport: { width: number; height: number }, mobile: boolean): Promise<BrowserContext> {
  requireChromium();
  const profile = join(sb.dir, `chromium-${viewport.width}`);
  mkdirSync(profile, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, args: FLAGS, viewport, isMobile: mobile, hasTouch: mobile, deviceScaleFactor: mobile ? 2 : 1,
    env: { ...sb.env, HOME: sb.home },
  });
  return context;
}

async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.FLEETCOM_WEB_SHOTS;
  if (dir === undefined || dir === '') return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, name) });
}

/** A fleet with a fake claude waiting at its prompt, a shell, and a build that ended. */
async function fakeFleet(sb: Sandbox): Promise<{ fleet: Fleet; claude: string; shell: string }> {
  const fleet = await startFleet(sb);
  const claude = await fleet.run('claude');
  const shell = await fleet.run('sh');
  await fleet.run('echo build done');
  await fleet.waitTask(claude, (t) => t.attention === 'waiting', 'claude waiting at its prompt');
  return { fleet, claude, shell };
}

async function openTask(page: Page, web: Web, id: string): Promise<void> {
  if (!page.url().startsWith(web.origin)) await page.goto(web.url);
  await page.locator(`.task[data-task="${id}"]`).click();
  await page.locator('.xterm-rows').waitFor();
  // Connected and the first screen drawn: keys typed now reach the pane.
  await page.locator('.dot.up').waitFor();
  await waitFor(async () => ((await page.locator('.xterm-rows').textContent()) ?? '').trim() !== '', { what: 'the first screen' });
}

/** This fleetcom has `send` (commander names an unknown command so). */
const sendLanded = async (sb: Sandbox) => !/unknown command/.test((await runCli(['send'], { env: sb.env, cwd: sb.dir })).stderr);

describe('fleetcom web in chromium', () => {
  it('at 390x844: lists the fleet, opens the agent\'s terminal, answers its permission from the key bar', async () => {
    const sb = await useSandbox();
    const { fleet, claude } = await fakeFleet(sb);
    const task = await fleet.task(claude);
    const size = () => sb.tmux('display-message', '-p', '-t', task.paneId, '#{window_width}x#{window_height}');
    const before = (await size()).trim();
    const web = await startWeb(sb);
    const context = await browser(sb, { width: 390, height: 844 }, true);
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.goto(web.url);
      // The token left the address bar at once; the cookie it was traded for is HttpOnly.
      await page.locator('.task').first().waitFor();
      expect(page.url()).toBe(`${web.origin}/`);
      expect(await page.evaluate('document.cookie')).toBe('');
      // The agent waiting for you is listed first, in its own section, as the dashboard does.
      await expect.poll(() => page.locator('section h2').first().textContent()).toBe('Needs you');
      await expect.poll(() => page.locator('.task').first().getAttribute('data-task')).toBe(claude);
      expect(await page.locator('.task').count()).toBe(3);
      await shot(page, 'phone-list.png');

      await page.locator(`.task[data-task="${claude}"]`).click();
      await page.locator('.dot.up').waitFor();
      await expect.poll(() => page.locator('.xterm-rows').textContent(), { timeout: 20_000 }).toContain('Claude Code (fake)');
      // The terminal is the pane's own width, scaled down to the phone's: nothing sideways.
      const width = await page.locator('.term-wrap').evaluate((el) => el.getBoundingClientRect().width);
      expect(width).toBeLessThanOrEqual(390);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);

      // Typed into the terminal itself, then Enter from the key bar: the fake asks a permission.
      await page.locator('.xterm-helper-textarea').focus();
      await page.keyboard.type('please fake-permission');
      await page.getByRole('button', { name: 'Enter' }).click();
      const approve = page.getByRole('button', { name: 'approve' });
      await approve.waitFor({ state: 'visible', timeout: 20_000 });
      await expect.poll(() => page.locator('.asking').textContent()).toMatch(/permission/i);
      await shot(page, 'phone-permission.png');
      await approve.click();
      await expect.poll(() => page.locator('.xterm-rows').textContent(), { timeout: 20_000 }).toContain('fake-permission (allowed)');
      // Waiting again after the turn: the banner says so, no longer the permission.
      await expect.poll(() => page.locator('.asking').textContent(), { timeout: 20_000 }).toBe('claude is waiting for you');
      await fleet.waitTask(claude, (t) => t.attention === 'waiting', 'claude waiting again after the approved turn');
      await approve.waitFor({ state: 'hidden', timeout: 20_000 });
      await shot(page, 'phone-terminal.png');
      // The phone's viewer never resized the desktop's window.
      expect((await size()).trim()).toBe(before);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('at 390x844: sends a message through the box, shows send\'s verdict and the reply from output', async (ctx) => {
    const sb = await useSandbox();
    if (!(await sendLanded(sb))) ctx.skip('this fleetcom has no send command yet: the box answers 501 until it does');
    const { claude } = await fakeFleet(sb);
    const web = await startWeb(sb);
    const context = await browser(sb, { width: 390, height: 844 }, true);
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await openTask(page, web, claude);
      await page.getByRole('textbox', { name: 'message' }).fill('hello from the phone');
      await page.getByRole('button', { name: 'Send' }).click();
      await expect.poll(() => page.locator('.verdict-word').textContent(), { timeout: 30_000 }).toBe('submitted');
      await expect.poll(() => page.locator('.reply').textContent(), { timeout: 30_000 }).toContain('fake reply to: hello from the phone');
      await shot(page, 'phone-reply.png');
    } finally {
      await context.close();
    }
  });

  it('after sleep, checks its socket with a ping; after the server went away and came back, connects again by itself', async () => {
    const sb = await useSandbox();
    const { shell } = await fakeFleet(sb);
    let web = await startWeb(sb);
    const context = await browser(sb, { width: 390, height: 844 }, true);
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const frames: string[] = [];
      page.on('websocket', (ws) => {
        ws.on('framesent', (f) => typeof f.payload === 'string' && frames.push(`sent ${f.payload}`));
        ws.on('framereceived', (f) => typeof f.payload === 'string' && frames.push(`got ${f.payload}`));
      });
      await openTask(page, web, shell);
      // What a phone's wake-up fires: the page asks the server whether the socket still lives.
      await page.evaluate("window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }))");
      await expect.poll(() => frames.some((f) => /^got \{"type":"pong"/.test(f))).toBe(true);
      expect(frames.some((f) => /^sent \{"type":"ping","n":1\}$/.test(f))).toBe(true);

      await web.stop();
      await page.locator('.dot.down').waitFor();
      web = await startWeb(sb, ['--port', String(web.port)]);
      await page.locator('.dot.up').waitFor({ timeout: 30_000 });
      await page.locator('.xterm-helper-textarea').focus();
      await page.keyboard.type('echo BACK-$((3*3))');
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('.xterm-rows').textContent(), { timeout: 20_000 }).toContain('BACK-9');
    } finally {
      await context.close();
    }
  });

  it('at a desktop size: the list, then a terminal across the width with the message box below', async () => {
    const sb = await useSandbox();
    const { shell } = await fakeFleet(sb);
    const web = await startWeb(sb);
    const context = await browser(sb, { width: 1280, height: 800 }, false);
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(web.url);
      await page.locator('.task').first().waitFor();
      expect(await page.locator('.task').count()).toBe(3);
      await shot(page, 'desktop-list.png');
      await openTask(page, web, shell);
      await page.locator('.xterm-helper-textarea').focus();
      await page.keyboard.type('echo DESK-$((6*7))');
      await page.keyboard.press('Enter');
      await waitFor(async () => ((await page.locator('.xterm-rows').textContent()) ?? '').includes('DESK-42'), { what: 'DESK-42 on the page', timeout: 20_000 }).catch(async (e: Error) => {
        throw new Error(`${e.message}; the page shows: ${await page.locator('.xterm-rows').textContent()}`);
      });
      const [term, side] = await Promise.all([page.locator('.term-wrap').boundingBox(), page.locator('.side').boundingBox()]);
      // A 160-column pane gets the page's width (a side panel beside it would shrink its text by a third).
      expect(term!.width).toBeGreaterThan(1200);
      expect(side!.y).toBeGreaterThan(term!.y + term!.height - 1);
      await shot(page, 'desktop-terminal.png');
    } finally {
      await context.close();
    }
  });
});
