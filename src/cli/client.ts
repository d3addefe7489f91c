/**
 * What every `overcast` command that talks to a running Overcast shares: its endpoint
 * (AWS_ENDPOINT_URL), a CloudFormation client with the environment's credentials, the error a
 * command reports, and one readable line for the SDK's failures.
 */
import type { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { DEFAULT_HOST, DEFAULT_PORT } from '../config.js';

/** A failure the command reports as `overcast <command>: message` with exit code 1. */
export class CliError extends Error {}

export function endpointOf(env: NodeJS.ProcessEnv = process.env): string {
  return (env.AWS_ENDPOINT_URL || `http://${DEFAULT_HOST}:${DEFAULT_PORT}`).replace(/\/+$/, '');
}

/** SDK client settings for the running Overcast (credentials from the environment, else test/test). */
export function clientSettings(env: NodeJS.ProcessEnv) {
  // The SDK's notice about future Node versions is noise in a local tool's output.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const hasKeys = Boolean(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY);
  return {
    endpoint: endpointOf(env),
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
    credentials: {
      accessKeyId: hasKeys ? env.AWS_ACCESS_KEY_ID! : 'test',
      secretAccessKey: hasKeys ? env.AWS_SECRET_ACCESS_KEY! : 'test',
      ...(hasKeys && env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}),
    },
    maxAttempts: 2,
  };
}

/** A CloudFormation client for the running Overcast. */
export async function cloudFormationClient(env: NodeJS.ProcessEnv = process.env): Promise<CloudFormationClient> {
  const { CloudFormationClient } = await import('@aws-sdk/client-cloudformation');
  const settings = clientSettings(env);
  return new CloudFormationClient({ ...settings, endpoint: env.AWS_ENDPOINT_URL_CLOUDFORMATION || settings.endpoint });
}

/** Turns the SDK's errors into one readable line (connection refused → is Overcast running?). */
export function explain(err: unknown, env: NodeJS.ProcessEnv = process.env): string {
  const e = err as { name?: string; message?: string; code?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code;
  if (code === 'ECONNREFUSED' || /ECONNREFUSED/.test(e.message ?? '')) {
    return `cannot reach Overcast at ${endpointOf(env)} (start it with: overcast start)`;
  }
  return e.message ?? String(err);
}
