/**
 * A page in headless Chromium, driven over the DevTools protocol with the ws client (no browser
 * automation package): for the few tests that must see what a browser draws, such as /docs.
 * The browser is CHROMIUM_PATH, else the first of chromium, chromium-browser, google-chrome on PATH.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';

export function findChromium(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
      const candidate = path.join(dir, name);
      if (dir && existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

export interface BrowserPage {
  /** The value of a JavaScript expression evaluated in the page (awaited when it is a promise). */
  evaluate<T>(expression: string): Promise<T>;
  /** Polls the expression until it is truthy; returns its value. */
  waitFor<T>(expression: string, timeoutMs?: number): Promise<T>;
  /** Types text into the focused element as a user's keyboard would (input events). */
  type(text: string): Promise<void>;
  close(): Promise<void>;
}

export async function openPage(executable: string, url: string): Promise<BrowserPage> {
  const profile = await mkdtemp(path.join(tmpdir(), 'riff-chromium-'));
  const browser: ChildProcess = spawn(
    executable,
    [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--no-first-run',
      `--user-data-dir=${profile}`,
      '--remote-debugging-port=0',
      'about:blank',
    ],
    // its own process group, so its helper processes go with it
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  const shutdown = async () => {
    if (browser.exitCode === null && browser.signalCode === null) {
      const exited = new Promise((resolve) => browser.once('exit', resolve));
      process.kill(-browser.pid!, 'SIGKILL');
      await exited;
    }
    await rm(profile, { recursive: true, force: true });
  };
  try {
    const endpoint = await new Promise<string>((resolve, reject) => {
      let text = '';
      browser.stderr!.on('data', (chunk) => {
        text += String(chunk);
        const found = /DevTools listening on (ws:\/\/\S+)/.exec(text);
        if (found) resolve(found[1]!);
      });
      browser.once('exit', (code) => reject(new Error(`Chromium exited with ${code}: ${text.slice(-500)}`)));
    });
    const socket = new WebSocket(endpoint, { perMessageDeflate: false });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    let nextId = 1;
    const waiting = new Map<
      number,
      { resolve: (value: Record<string, unknown>) => void; reject: (error: Error) => void }
    >();
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as {
        id?: number;
        result?: Record<string, unknown>;
        error?: { message: string };
      };
      const caller = message.id === undefined ? undefined : waiting.get(message.id);
      if (!caller) return;
      waiting.delete(message.id!);
      if (message.error) caller.reject(new Error(message.error.message));
      else caller.resolve(message.result ?? {});
    });
    const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, { resolve, reject });
        socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
      });
    const { targetId } = (await send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
    const { sessionId } = (await send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
    // the page in front and focused, so its timers and rendering are not throttled as a background tab's
    await send('Page.bringToFront', {}, sessionId);
    await send('Emulation.setFocusEmulationEnabled', { enabled: true }, sessionId);
    await send('Page.navigate', { url }, sessionId);

    const evaluate = async <T>(expression: string): Promise<T> => {
      const reply = (await send(
        'Runtime.evaluate',
        { expression, returnByValue: true, awaitPromise: true },
        sessionId,
      )) as {
        result: { value?: T };
        exceptionDetails?: { text: string; exception?: { description?: string } };
      };
      if (reply.exceptionDetails)
        throw new Error(reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text);
      return reply.result.value as T;
    };
    return {
      evaluate,
      async waitFor<T>(expression: string, timeoutMs = 20_000) {
        const started = Date.now();
        for (;;) {
          const value = await evaluate<T>(expression).catch(() => undefined);
          if (value) return value;
          if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${expression}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      },
      async type(text: string) {
        await send('Input.insertText', { text }, sessionId);
      },
      async close() {
        socket.close();
        await shutdown();
      },
    };
  } catch (error) {
    await shutdown();
    throw error;
  }
}
