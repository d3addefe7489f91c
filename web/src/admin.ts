/**
 * Overcast itself: its clock (read, advanced by a duration), table maintenance run now with the
 * report of what each job did, and resetting all state — each destructive step asked first.
 */
import { get, send } from './api.js';
import { h, pretty, replace } from './dom.js';
import { announce, code, confirmAction, errorBox, kv } from './ui.js';

interface Clock {
  now: string;
  offsetMs: number;
}

export async function adminView(root: HTMLElement, onReset: () => void): Promise<void> {
  const clock = await get<Clock>(['admin', 'clock']);
  const clockBox = h('div', {}, kv([['Overcast time', clock.now], ['Ahead of wall time by', `${Math.round(clock.offsetMs / 1000)} s`]]));
  const duration = h('input', { id: 'advance', type: 'text', value: '24h', required: true, 'aria-describedby': 'advance-help' });
  const result = h('div', { 'aria-live': 'polite' });
  const advance = h('form', { class: 'inline-form' }, h('label', { for: 'advance' }, 'Advance the clock by'), duration, h('button', { type: 'submit' }, 'Advance'), h('small', { id: 'advance-help' }, ' e.g. 72h, 10d, 1d12h, 90m'));
  advance.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const c = await send<Clock>('POST', ['admin', 'clock'], { advance: duration.value });
      replace(clockBox, kv([['Overcast time', c.now], ['Ahead of wall time by', `${Math.round(c.offsetMs / 1000)} s`]]));
      announce(`Clock advanced to ${c.now}`);
    } catch (err) {
      replace(result, errorBox(err));
    }
  });
  const run = h('button', { type: 'button' }, 'Run table maintenance now');
  run.addEventListener('click', async () => {
    run.disabled = true;
    replace(result, h('p', { role: 'status' }, 'Running…'));
    try {
      replace(result, h('h3', {}, 'Maintenance report'), code(pretty(await send('POST', ['admin', 'maintenance'], {})), 'Maintenance report'));
    } catch (err) {
      replace(result, errorBox(err));
    } finally {
      run.disabled = false;
    }
  });
  const reset = h('button', { type: 'button', class: 'danger' }, 'Reset all state');
  reset.addEventListener('click', async () => {
    const ok = await confirmAction('Reset all state?', h('p', {}, 'Every stack, table bucket, table, S3 bucket, object and parameter of every account is deleted.'), 'Reset everything');
    if (!ok) return;
    try {
      await send('POST', ['admin', 'reset'], { confirm: true });
      announce('All state reset');
      onReset();
    } catch (err) {
      replace(result, errorBox(err));
    }
  });
  replace(root, h('h1', {}, 'Overcast'), h('h2', {}, 'Clock'), clockBox, advance, h('h2', {}, 'Table maintenance'), h('p', {}, 'Runs every enabled job of every table now: compaction, snapshot management, unreferenced file removal.'), run, result, h('h2', {}, 'Reset'), reset);
}
