/**
 * A small leveled logger writing one human-readable line per event to stderr (or a sink given by
 * the embedding test), so the CLI output stays readable without a log formatter.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  level: LogLevel;
  debug(msg: string, extra?: unknown): void;
  info(msg: string, extra?: unknown): void;
  warn(msg: string, extra?: unknown): void;
  error(msg: string, extra?: unknown): void;
  enabled(level: LogLevel): boolean;
}

export function isLogLevel(value: string): value is LogLevel {
  return value in ORDER;
}

export function createLogger(level: LogLevel, sink: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Logger {
  const logger: Logger = {
    level,
    enabled: (l) => ORDER[l] >= ORDER[logger.level] && logger.level !== 'silent',
    debug: (m, e) => emit('debug', m, e),
    info: (m, e) => emit('info', m, e),
    warn: (m, e) => emit('warn', m, e),
    error: (m, e) => emit('error', m, e),
  };
  function emit(l: LogLevel, msg: string, extra?: unknown): void {
    if (!logger.enabled(l)) return;
    let line = `${new Date().toISOString()} ${l.toUpperCase().padEnd(5)} ${msg}`;
    if (extra instanceof Error) line += `\n${extra.stack ?? extra.message}`;
    else if (extra !== undefined) line += ` ${typeof extra === 'string' ? extra : JSON.stringify(extra)}`;
    sink(line);
  }
  return logger;
}
