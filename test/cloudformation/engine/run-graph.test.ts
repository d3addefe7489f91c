/**
 * runGraph, the engine's scheduler: starts in graph order as soon as prerequisites succeed, skips
 * what sits behind a failure, stops starting after a failure when asked, breaks cycles, and asks
 * for each node's prerequisites once (a finished node touches only its dependents).
 */
import { describe, expect, it } from 'vitest';
import { runGraph } from '../../../src/services/cloudformation/engine/run-graph.js';

const tick = () => new Promise<void>((r) => setImmediate(r));

describe('runGraph', () => {
  it('starts each wave in graph order once its prerequisites succeeded', async () => {
    const deps: Record<string, string[]> = { a: [], b: ['a'], c: [], d: ['a', 'c'], e: ['b', 'missing', 'e'] };
    const started: string[] = [];
    const r = await runGraph(Object.keys(deps), (id) => deps[id]!, async (id) => {
      started.push(id);
      await tick();
      return true;
    }, { stopOnFailure: true });
    expect(started).toEqual(['a', 'c', 'b', 'd', 'e']);
    expect(r.failed).toEqual([]);
    expect(r.skipped).toEqual([]);
    expect(r.succeeded.sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('skips what depends, directly or not, on a failure and runs the rest', async () => {
    const deps: Record<string, string[]> = { z: ['y'], a: [], y: ['a'], b: [], c: ['b'] };
    const started: string[] = [];
    const r = await runGraph(Object.keys(deps), (id) => deps[id]!, async (id) => {
      started.push(id);
      await tick();
      return id !== 'a';
    }, { stopOnFailure: false });
    expect(started).toEqual(['a', 'b', 'c']);
    expect(r.failed).toEqual(['a']);
    // z comes before y in the graph but depends on it: a second pass skips it.
    expect(r.skipped).toEqual(['y', 'z']);
    expect(r.succeeded).toEqual(['b', 'c']);
  });

  it('starts nothing new after a failure when asked to stop, and awaits what runs', async () => {
    const deps: Record<string, string[]> = { a: [], slow: [], after: ['slow'], other: ['a'] };
    const r = await runGraph(Object.keys(deps), (id) => deps[id]!, async (id) => {
      for (let i = 0; i < (id === 'slow' ? 3 : 1); i++) await tick();
      if (id === 'a') throw new Error('boom');
      return true;
    }, { stopOnFailure: true });
    expect(r.failed).toEqual(['a']);
    expect(r.succeeded).toEqual(['slow']);
    expect(r.skipped).toEqual(['after', 'other']);
  });

  it('breaks a cycle instead of hanging', async () => {
    const deps: Record<string, string[]> = { a: ['b'], b: ['a'], c: ['a'] };
    const started: string[] = [];
    const r = await runGraph(Object.keys(deps), (id) => deps[id]!, async (id) => {
      started.push(id);
      return true;
    }, { stopOnFailure: true });
    expect(started).toEqual(['a', 'b', 'c']);
    expect(r.succeeded).toEqual(['a', 'b', 'c']);
  });

  it('asks for each node’s prerequisites once, however long the chain', async () => {
    const ids = Array.from({ length: 2000 }, (_, i) => `n${i}`);
    let asked = 0;
    const r = await runGraph(ids, (id) => {
      asked++;
      const i = Number(id.slice(1));
      return i === 0 ? [] : [`n${i - 1}`];
    }, async () => true, { stopOnFailure: true });
    expect(r.succeeded).toEqual(ids);
    expect(asked).toBe(ids.length);
  });
});
