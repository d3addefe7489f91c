/**
 * The `overcast` command's help texts: the overview (`overcast --help`) and one page per command
 * (`overcast <command> --help`, `overcast help <command>`), and the nearest known option for a
 * mistyped one.
 */
import { VERSION } from '../version.js';

const START = `Usage: overcast start [options]

Starts Overcast: S3 Tables, S3, CloudFormation, STS and SSM on one port. Prints the endpoint and
the command that points your shell's AWS clients at it, then one log line per request.

Options:
  --host HOST         address to listen on        (env OVERCAST_HOST, default 127.0.0.1)
  --port PORT         port, 0 for any free one    (env OVERCAST_PORT, default 4566)
  --data-dir DIR      where state is kept         (env OVERCAST_DATA_DIR, default ./.overcast)
  --in-memory         keep everything in memory   (env OVERCAST_IN_MEMORY=1)
  --log-level LEVEL   debug | info | warn | error | silent   (env OVERCAST_LOG_LEVEL, default info)
  --log-format FMT    text | json                 (env OVERCAST_LOG_FORMAT, default text)
  --durability MODE   process (survives kill -9) | full (also power loss)
                                                  (env OVERCAST_DURABILITY, default process)
  --strict-resources  fail CloudFormation resource types Overcast only stores
                                                  (env OVERCAST_STRICT_RESOURCES=1)
  --iceberg-permissive  the Iceberg REST catalog also serves what S3 Tables does not
                      (staged creates, multi-table transactions, metrics reports)
                                                  (env OVERCAST_ICEBERG_PERMISSIVE=1)
  --iceberg-exact     leave Overcast's s3.* settings out of the catalog's LoadTable answers
                                                  (env OVERCAST_ICEBERG_EXACT=1)
  --maintenance-interval DURATION|off
                      how often table maintenance runs (env OVERCAST_MAINTENANCE_INTERVAL;
                      default 5m with a data directory, off in memory)
  --auth any|strict   strict: verify every SigV4 signature and evaluate resource policies
                                                  (env OVERCAST_AUTH, default any)
  --credentials-file FILE
                      strict mode's access keys: JSON [{accessKeyId, secretAccessKey,
                      accountId, arn?}] (env OVERCAST_CREDENTIALS_FILE; also
                      OVERCAST_CREDENTIALS=AKID:SECRET:ACCOUNT,...)
  --no-test-credentials
                      strict mode refuses test/test (env OVERCAST_TEST_CREDENTIALS=off)
  --allowed-hosts LIST
                      Host names answered besides localhost, *.localhost and loopback
                      addresses; .example.com matches subdomains (env OVERCAST_ALLOWED_HOSTS)
  --body-timeout DURATION
                      refuse a request body that stalls this long (env OVERCAST_BODY_TIMEOUT,
                      default 20s)
  -h, --help          show this help

Stop it with Ctrl-C. Wipe its state with \`overcast reset\` (while it runs) or by deleting the
data directory (while it does not).
`;

const ENV = `Usage: eval "$(overcast env [options])"

Prints shell export lines for AWS_ENDPOINT_URL, test credentials (AWS_ACCESS_KEY_ID,
AWS_SECRET_ACCESS_KEY) and the region (AWS_REGION, AWS_DEFAULT_REGION), for the aws CLI, the CDK
CLI and the SDKs. Credentials and a region already set are kept unless --force is given.

Options:
  --port PORT       the port Overcast listens on (default OVERCAST_PORT, else 4566)
  --endpoint URL    the whole endpoint instead   (default http://127.0.0.1:PORT)
  --force           also replace credentials and region already set
  -h, --help        show this help
`;

const DEPLOY = `Usage: overcast deploy TEMPLATE --stack-name NAME [options]

Creates or updates a stack on a running Overcast (AWS_ENDPOINT_URL, default
http://127.0.0.1:4566); before an update prints what changes (as overcast diff), then the
stack's events as resources move, then its outputs. TEMPLATE is a
JSON or YAML file, or s3://BUCKET/KEY for templates over 51,200 bytes.

Options:
  --stack-name NAME        the stack (required)
  -p, --parameter KEY=VALUE
                           a parameter value; repeat for more (on update the others keep
                           their previous values, else their defaults)
  --no-rollback            leave a failed stack as it is instead of rolling back
  -h, --help               show this help
`;

const DIFF = `Usage: overcast diff TEMPLATE --stack-name NAME

Shows how TEMPLATE differs from the stack deployed on a running Overcast (AWS_ENDPOINT_URL,
default http://127.0.0.1:4566), as \`cdk diff\` shows it (the same library, IAM and
security-group tables included). TEMPLATE is a JSON or YAML file, or a CDK app's cloud assembly
directory (cdk.out). A stack that does not exist compares against an empty template.

Exit code: 0 no differences, 1 differences, 2 an error.

Options:
  --stack-name NAME   the deployed stack (required)
  -h, --help          show this help
`;

const DESTROY = `Usage: overcast destroy NAME

Deletes a stack on a running Overcast (AWS_ENDPOINT_URL, default http://127.0.0.1:4566) and
prints its events as resources go. A stack that does not exist is nothing to do.

Options:
  -h, --help   show this help
`;

const STACKS = `Usage: overcast stacks [--all]

Lists the stacks on a running Overcast (AWS_ENDPOINT_URL, default http://127.0.0.1:4566): name,
status, last change and status reason, newest first.

Options:
  --all        deleted stacks too
  -h, --help   show this help
`;

const RESET = `Usage: overcast reset

Wipes all state of a running Overcast (AWS_ENDPOINT_URL, default http://127.0.0.1:4566) —
stacks, buckets, objects, table buckets, parameters — while it keeps running.

Options:
  -h, --help   show this help
`;

const CLOCK = `Usage: overcast clock [advance DURATION]

Shows the clock of a running Overcast (AWS_ENDPOINT_URL, default http://127.0.0.1:4566), or
moves it forward for every age-based table maintenance rule. DURATION: 72h, 10d, 1d12h, 90m, 30s.

Options:
  -h, --help   show this help
`;

const MAINTENANCE = `Usage: overcast maintenance run [--table TABLE_ARN] [--json]

Runs every enabled table maintenance job of a running Overcast now (compaction, snapshot
management, unreferenced file removal, then replication) and shows what each did.

Options:
  --table ARN  only this table
  --json       the whole report as JSON
  -h, --help   show this help
`;

export const COMMAND_HELP: Record<string, string> = {
  start: START,
  env: ENV,
  deploy: DEPLOY,
  diff: DIFF,
  destroy: DESTROY,
  stacks: STACKS,
  reset: RESET,
  clock: CLOCK,
  maintenance: MAINTENANCE,
};

export const HELP = `overcast ${VERSION} — local Amazon S3 Tables, S3 and CloudFormation on one port

Usage: overcast <command> [options]

Commands:
  start              start the server (default http://127.0.0.1:4566, state in ./.overcast)
                       [--port PORT] [--host HOST] [--data-dir DIR | --in-memory]
                       [--log-level LEVEL] [--log-format text|json] …
  env                print the exports that point AWS clients at it: eval "$(overcast env)"

  These talk to a running Overcast at AWS_ENDPOINT_URL (default http://127.0.0.1:4566):
  deploy TEMPLATE    create or update a stack, showing what changes, its events, then its outputs
  diff TEMPLATE      show how a template (or cdk.out) differs from a deployed stack
  destroy NAME       delete a stack, showing its events
  stacks             list stacks and their statuses
  reset              wipe all state of the running server
  clock [advance DURATION]
                     show Overcast's clock, or move it forward for maintenance rules
  maintenance run    run every enabled table maintenance job now

Options:
  -h, --help         show this help; \`overcast <command> --help\` for a command's options
  -v, --version      show the version
`;

/** The known option nearest to a mistyped one (one it begins, or at most two edits away), for "did you mean". */
function nearestOption(typed: string, known: readonly string[]): string | undefined {
  const extended = known.filter((o) => typed.length > 3 && o.startsWith(typed));
  if (extended.length === 1) return extended[0];
  const distance = (a: string, b: string): number => {
    const row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      let diagonal = row[0]!;
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const above = row[j]!;
        row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
        diagonal = above;
      }
    }
    return row[b.length]!;
  };
  let best: string | undefined;
  let bestDistance = 3;
  for (const option of known) {
    const d = distance(typed, option);
    if (d < bestDistance) [best, bestDistance] = [option, d];
  }
  return best;
}

/**
 * One line for a command line the command cannot take: node's parseArgs errors shortened to their
 * first sentence (an unknown option with the nearest known one), and where to read more.
 */
export function usageLine(command: string, err: unknown, options: readonly string[] = []): string {
  const e = err as { code?: string; message?: string };
  const message = e.message ?? String(err);
  let what = message.split(/\.(\s|$)/)[0]!;
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const typed = /'(-[^']*)'/.exec(message)?.[1] ?? '';
    const near = nearestOption(typed.replace(/=.*/, ''), options);
    what = `unknown option ${typed}${near ? ` (did you mean ${near}?)` : ''}`;
  } else if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    what = `unexpected argument ${/'([^']*)'/.exec(message)?.[1] ?? ''}`.trim();
  }
  return `overcast ${command}: ${what.charAt(0).toLowerCase()}${what.slice(1)}. See: overcast ${command} --help`;
}
