/**
 * The `overcast` command line: dispatches to one command module per subcommand, imported only when
 * used, and prints help (`overcast --help`, `overcast <command> --help`) and the version.
 */
import { COMMAND_HELP, HELP } from './help.js';
import { VERSION } from '../version.js';

export { HELP } from './help.js';

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command && COMMAND_HELP[command] && (rest.includes('--help') || rest.includes('-h'))) {
    process.stdout.write(COMMAND_HELP[command]);
    return;
  }
  switch (command) {
    case undefined:
    case '-h':
    case '--help':
      process.stdout.write(HELP);
      return;
    case 'help': {
      const page = rest[0] === undefined ? HELP : COMMAND_HELP[rest[0]];
      if (page) {
        process.stdout.write(page);
        return;
      }
      process.stderr.write(`overcast help: no command '${rest[0]}'. Commands: ${Object.keys(COMMAND_HELP).join(', ')}\n`);
      process.exitCode = 2;
      return;
    }
    case '-v':
    case '--version':
    case 'version':
      process.stdout.write(`${VERSION}\n`);
      return;
    case 'start':
      return (await import('./start.js')).start(rest);
    case 'env':
      return (await import('./env.js')).env(rest);
    case 'deploy':
      return (await import('./deploy.js')).deploy(rest);
    case 'diff':
      return (await import('./diff.js')).diff(rest);
    case 'destroy':
      return (await import('./destroy.js')).destroy(rest);
    case 'stacks':
      return (await import('./stacks.js')).stacks(rest);
    case 'reset':
      return (await import('./reset.js')).reset(rest);
    case 'clock':
      return (await import('./clock.js')).clock(rest);
    case 'maintenance':
      return (await import('./maintenance.js')).maintenance(rest);
    default:
      process.stderr.write(`overcast: unknown command '${command}'. Commands: ${Object.keys(COMMAND_HELP).join(', ')}. See: overcast --help\n`);
      process.exitCode = 2;
  }
}
