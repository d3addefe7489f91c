/**
 * The `overcast` command line: dispatches to one command module per subcommand, imported only when
 * used, and prints help and version.
 */
import { VERSION } from '../version.js';

export const HELP = `overcast ${VERSION} — local Amazon S3 Tables, S3 and CloudFormation on one port

Usage: overcast <command> [options]

Commands:
  start              Start the server (default 127.0.0.1:4566)
      --host HOST        address to listen on        (env OVERCAST_HOST, default 127.0.0.1)
      --port PORT        port, 0 for any free one    (env OVERCAST_PORT, default 4566)
      --data-dir DIR     where state is kept         (env OVERCAST_DATA_DIR, default ./.overcast)
      --in-memory        keep everything in memory   (env OVERCAST_IN_MEMORY=1)
      --log-level LEVEL  debug | info | warn | error | silent (env OVERCAST_LOG_LEVEL)
      --durability MODE  process (survives kill -9) | full (also power loss)
      --strict-resources fail CloudFormation resource types Overcast only stores
                         (env OVERCAST_STRICT_RESOURCES=1)
      --maintenance-interval DURATION|off
                         table maintenance schedule (env OVERCAST_MAINTENANCE_INTERVAL;
                         default 5m with a data directory, off in memory)
  env                Print export lines for AWS_ENDPOINT_URL, credentials and region:
                       eval "$(overcast env)"
      --force            also replace credentials and region already set
      --endpoint URL     endpoint to print (default from OVERCAST_HOST/OVERCAST_PORT)

  These talk to a running Overcast at AWS_ENDPOINT_URL (default http://127.0.0.1:4566):
  deploy TEMPLATE    Create or update a stack and show its events as resources move, then
                     its outputs (TEMPLATE: a JSON/YAML file, or s3://BUCKET/KEY)
      --stack-name NAME      the stack (required)
      --parameter KEY=VALUE  a parameter value; repeat for more (others keep their
                             previous values on update, else their defaults)
      --no-rollback          leave a failed stack as it is instead of rolling back
  destroy NAME       Delete a stack and show its events
  stacks             List stacks and their statuses (--all: deleted ones too)
  reset              Wipe all state of the running server
  clock [advance DURATION]
                     Show Overcast's clock, or move it forward for every age-based
                     maintenance rule (DURATION: 72h, 10d, 1d12h, 90m)
  maintenance run    Run every enabled table maintenance job now and show what each did
      --table ARN        only this table
      --json             the whole report as JSON

Options:
  -h, --help         Show this help
  -v, --version      Show the version
`;

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      process.stdout.write(HELP);
      return;
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
      process.stderr.write(`overcast: unknown command '${command}'\n\n${HELP}`);
      process.exitCode = 2;
  }
}
