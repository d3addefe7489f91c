/**
 * `overcast env`: prints shell `export` lines that point AWS clients at Overcast, so that
 * `eval "$(overcast env)"` works. Credentials and region already in the environment are kept
 * (and said so in a comment) unless `--force` is given. It loads nothing but this module, so it
 * answers in a few tens of milliseconds.
 */
import { parseArgs } from 'node:util';
import { DEFAULT_HOST, DEFAULT_PORT } from '../config.js';
import { usageLine } from './help.js';

function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:@-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

function envLines(argv: string[], env: NodeJS.ProcessEnv = process.env): string[] {
  const { values } = parseArgs({
    args: argv,
    options: { force: { type: 'boolean' }, endpoint: { type: 'string' }, port: { type: 'string' } },
    strict: true,
  });
  const host = env.OVERCAST_HOST && env.OVERCAST_HOST !== '0.0.0.0' ? env.OVERCAST_HOST : DEFAULT_HOST;
  const port = values.port ?? (env.OVERCAST_PORT || String(DEFAULT_PORT));
  if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535) throw new Error(`invalid port '${port}': a number from 1 to 65535`);
  const endpoint = values.endpoint ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const lines = [`export AWS_ENDPOINT_URL=${shellQuote(endpoint)}`];
  const wanted: [string, string][] = [
    ['AWS_ACCESS_KEY_ID', 'test'],
    ['AWS_SECRET_ACCESS_KEY', 'test'],
    ['AWS_REGION', env.AWS_DEFAULT_REGION || 'us-east-1'],
    ['AWS_DEFAULT_REGION', env.AWS_REGION || 'us-east-1'],
  ];
  const hasCredentials = Boolean(env.AWS_ACCESS_KEY_ID || env.AWS_PROFILE);
  for (const [name, value] of wanted) {
    const isCredential = name === 'AWS_ACCESS_KEY_ID' || name === 'AWS_SECRET_ACCESS_KEY';
    const alreadySet = isCredential ? hasCredentials : Boolean(env[name]);
    if (alreadySet && !values.force) {
      lines.push(`# ${name} kept as already set (use --force to replace)`);
      continue;
    }
    lines.push(`export ${name}=${shellQuote(value)}`);
  }
  if (values.force && env.AWS_SESSION_TOKEN) lines.push('unset AWS_SESSION_TOKEN');
  return lines;
}

export async function env(argv: string[]): Promise<void> {
  let lines: string[];
  try {
    lines = envLines(argv);
  } catch (err) {
    process.stderr.write(`${usageLine('env', err, ['--port', '--endpoint', '--force', '--help'])}\n`);
    process.exitCode = 2;
    return;
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
