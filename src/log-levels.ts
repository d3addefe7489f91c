/**
 * The log's levels and formats, apart from the logger itself (log.ts, which loads pino), so that
 * reading the configuration — `overcast env` does — loads nothing heavy.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
export type LogFormat = 'text' | 'json';

/** pino's numbers for the levels; `silent` above everything. */
export const LEVEL_ORDER: Readonly<Record<LogLevel, number>> = { debug: 20, info: 30, warn: 40, error: 50, silent: Infinity };
export const LOG_FORMATS: readonly LogFormat[] = ['text', 'json'];

export function isLogLevel(value: string): value is LogLevel {
  return Object.hasOwn(LEVEL_ORDER, value);
}

export function isLogFormat(value: string): value is LogFormat {
  return (LOG_FORMATS as readonly string[]).includes(value);
}
