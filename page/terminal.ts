// A task's live terminal: xterm.js (DOM renderer) at the pane's real size, scaled to fit the
// width — the pane is never resized, so the desktop's window stays as it is. The socket is
// watched: after sleep or a tab switch (visibilitychange, pageshow, online) the page pings
// and, with no pong within a moment, connects again; a closed socket reconnects with backoff.
import { Terminal } from '@xterm/xterm';

export interface TerminalEvents {
  /** The connection's state, for the header's dot. */
  link(up: boolean): void;
  /** A line worth showing (read-only refusals, the pane ended, input errors). */
  notice(text: string): void;
  hello(info: { readOnly: boolean; transport: string }): void;
}

const PONG_WAIT_MS = 2_500;

export class LiveTerminal {
  readonly term: Terminal;
  private ws: WebSocket | null = null;
  private tries = 0;
  private closed = false;
  private retry: number | null = null;
  private pingN = 0;
  private pongTimer: number | null = null;
  private readonly scaleBox: HTMLElement;
  private readonly onWake = () => this.check();
  private readonly onVisibility = () => {
    this.sendControl({ type: 'visible', visible: document.visibilityState === 'visible' });
    if (document.visibilityState === 'visible') this.check();
  };

  constructor(private readonly wrap: HTMLElement, private readonly taskId: number, private readonly events: TerminalEvents) {
    this.scaleBox = document.createElement('div');
    this.scaleBox.className = 'term-scale';
    wrap.append(this.scaleBox);
    this.term = new Terminal({
      cols: 80, rows: 24, fontSize: 14, scrollback: 0, convertEol: false, cursorBlink: false, allowProposedApi: false,
      fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace',
      theme: { background: '#000000' },
    });
    this.term.open(this.scaleBox);
    this.term.onData((data) => this.input(data));
    document.addEventListener('visibilitychange', this.onVisibility);
    window.addEventListener('pageshow', this.onWake);
    window.addEventListener('online', this.onWake);
    window.addEventListener('resize', () => this.fit());
    this.connect();
  }

  /** Bytes into the pane, as typed. */
  input(data: string): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(new TextEncoder().encode(data));
    else this.events.notice('not connected: the keys were not sent');
  }

  dispose(): void {
    this.closed = true;
    if (this.retry !== null) clearTimeout(this.retry);
    if (this.pongTimer !== null) clearTimeout(this.pongTimer);
    document.removeEventListener('visibilitychange', this.onVisibility);
    window.removeEventListener('pageshow', this.onWake);
    window.removeEventListener('online', this.onWake);
    this.ws?.close(1000);
    this.term.dispose();
  }

  /** 'fit': the whole width on screen; 'actual': the font's own size, scrolled sideways. */
  private zoom: 'fit' | 'actual' = 'fit';

  toggleZoom(): 'fit' | 'actual' {
    this.zoom = this.zoom === 'fit' ? 'actual' : 'fit';
    this.wrap.classList.toggle('actual', this.zoom === 'actual');
    this.fit();
    return this.zoom;
  }

  /** Scales the terminal's natural size to the width it has (never past 1.25×), or shows it as it is. */
  fit(): void {
    const screen = this.scaleBox.querySelector('.xterm-screen') as HTMLElement | null;
    if (screen === null) return;
    const natural = screen.offsetWidth;
    const height = screen.offsetHeight;
    if (natural === 0) return;
    const scale = this.zoom === 'actual' ? 1 : Math.min(1.25, (this.wrap.clientWidth - 2) / natural);
    this.scaleBox.style.transform = `scale(${scale})`;
    this.wrap.style.height = `${Math.ceil(height * scale) + 2}px`;
  }

  private connect(): void {
    if (this.closed) return;
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${scheme}//${location.host}/api/tasks/${this.taskId}/terminal`);
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    ws.onopen = () => {
      this.tries = 0;
      this.events.link(true);
      this.sendControl({ type: 'visible', visible: document.visibilityState === 'visible' });
    };
    ws.onmessage = (e: MessageEvent) => {
      if (typeof e.data !== 'string') {
        this.term.write(new Uint8Array(e.data as ArrayBuffer));
        return;
      }
      this.control(JSON.parse(e.data) as Record<string, unknown>);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.events.link(false);
      if (this.closed) return;
      // min(8 s, 350 ms · 1.8^n): quick after a blip, gentle on a server that is gone.
      const wait = Math.min(8_000, 350 * 1.8 ** this.tries++);
      this.retry = window.setTimeout(() => this.connect(), wait);
    };
  }

  private control(msg: Record<string, unknown>): void {
    if (msg.type === 'hello') this.events.hello({ readOnly: msg.readOnly === true, transport: String(msg.transport) });
    else if (msg.type === 'size' && typeof msg.cols === 'number' && typeof msg.rows === 'number') {
      this.term.resize(msg.cols, msg.rows);
      requestAnimationFrame(() => this.fit());
    } else if (msg.type === 'pong') {
      if (this.pongTimer !== null) clearTimeout(this.pongTimer);
      this.pongTimer = null;
    } else if (msg.type === 'error' || msg.type === 'end') this.events.notice(String(msg.error ?? msg.reason ?? ''));
  }

  private sendControl(doc: unknown): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(doc));
  }

  /** After sleep a socket may look open and be dead: no pong soon, and it is replaced. */
  private check(): void {
    if (this.closed) return;
    const ws = this.ws;
    if (ws === null || ws.readyState !== WebSocket.OPEN) {
      if (this.retry !== null) clearTimeout(this.retry);
      this.tries = 0;
      if (ws === null) this.connect();
      return;
    }
    if (this.pongTimer !== null) return;
    this.sendControl({ type: 'ping', n: ++this.pingN });
    this.pongTimer = window.setTimeout(() => {
      this.pongTimer = null;
      if (this.ws !== ws) return;
      this.ws = null;
      ws.onclose = null;
      ws.close();
      this.events.link(false);
      this.connect();
    }, PONG_WAIT_MS);
  }
}
