/**
 * `AWS::CloudFormation::CustomResource` and every `Custom::*` type: the custom resource protocol
 * with a Lambda function behind the ServiceToken. Create, Update and Delete each send the
 * function the request CloudFormation sends (RequestType, ResponseURL, StackId, RequestId,
 * ResourceType, LogicalResourceId, PhysicalResourceId but on Create, ResourceProperties — every
 * leaf a string, as CloudFormation passes them — and OldResourceProperties on Update) as an
 * asynchronous invocation, then wait for the response PUT to the ResponseURL, at most
 * ServiceTimeout seconds (default 3600). SUCCESS gives the physical id (a new one on Update means
 * replacement: the engine deletes the old one in cleanup) and `Data` for Fn::GetAtt; FAILED fails
 * the resource with AWS's reason text. Where AWS would wait out the hour, Overcast does not: a
 * function that fails (error, timeout, crash) without having responded fails the resource at once,
 * with what the function said. An SNS ServiceToken, or a function that does not exist, fails with
 * a message saying so. Changing the ServiceToken is refused, as on AWS.
 */
import { randomUUID } from 'node:crypto';
import { isValidName, parseFunctionArn, runFunction } from '../../../lambda/provider.js';
import { isAwsError } from '../../../../wire/errors.js';
import { validateProperties } from '../property-schema.js';
import { ResourceFailure, type ResolvedProperties, type ResourceContext, type ResourceProvider, type ResourceState } from '../types.js';
import { awaitResponse, ResponseRejected, type CustomResourceResponse } from './custom-resource-responses.js';

const DEFAULT_TIMEOUT_S = 3600;
/** How long after a failed invocation a response may still arrive (a sender retrying). */
const GRACE_MS = 1500;

/** Every leaf as a string: CloudFormation hands providers `"5"` and `"true"`, never 5 or true. */
export function stringified(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stringified);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, stringified(v)]));
  }
  return value === null || value === undefined ? value : String(value);
}

interface LambdaTarget {
  name: string;
  qualifier?: string;
}

function serviceTarget(rc: ResourceContext, token: unknown): LambdaTarget {
  const text = String(token);
  const fn = parseFunctionArn(rc.ctx, text);
  if (fn && isValidName(fn.name)) {
    if (fn.foreign) {
      throw new ResourceFailure(`Overcast sends custom resource requests only to functions of the stack's own account and region, not to ${text}`);
    }
    return { name: fn.name, ...(fn.qualifier ? { qualifier: fn.qualifier } : {}) };
  }
  if (/^arn:aws[a-zA-Z-]*:sns:/.test(text)) {
    throw new ResourceFailure(`Overcast does not deliver custom resource requests to SNS topics (ServiceToken ${text}): use a Lambda function`);
  }
  throw new ResourceFailure(`Invalid service token: ${text} is not the ARN of a Lambda function`);
}

function timeoutMs(props: ResolvedProperties): number {
  const raw = props.ServiceTimeout;
  if (raw === undefined) return DEFAULT_TIMEOUT_S * 1000;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 3600) {
    throw new ResourceFailure(`ServiceTimeout must be an integer between 1 and 3600 seconds, got ${String(raw)}`);
  }
  return n * 1000;
}

type RequestType = 'Create' | 'Update' | 'Delete';

interface Exchange {
  type: RequestType;
  props: ResolvedProperties;
  physicalId?: string;
  oldProps?: ResolvedProperties;
}

function missingResponse(requestId: string, why?: string): ResourceFailure {
  const base =
    `CloudFormation did not receive a response from your Custom Resource. Please check your logs for requestId [${requestId}]. ` +
    'If you are using the Python cfn-response module, you may need to update your Lambda function code so that CloudFormation can attach the updated version.';
  return new ResourceFailure(why ? `${base} (Overcast: ${why})` : base);
}

/** Sends one request to the function and returns its checked response. */
async function exchange(rc: ResourceContext, x: Exchange): Promise<CustomResourceResponse & { PhysicalResourceId: string }> {
  const target = serviceTarget(rc, x.props.ServiceToken);
  const limit = timeoutMs(x.props);
  if (!rc.ctx.rt.endpoint) throw new ResourceFailure('Custom resources need a listening Overcast server (their ResponseURL is on its port)');
  const requestId = randomUUID();
  const wait = awaitResponse(rc.ctx.rt, requestId);
  const event = {
    RequestType: x.type,
    ServiceToken: String(x.props.ServiceToken),
    ResponseURL: wait.url,
    StackId: rc.stackId,
    RequestId: requestId,
    LogicalResourceId: rc.logicalId,
    ...(x.physicalId !== undefined ? { PhysicalResourceId: x.physicalId } : {}),
    ResourceType: rc.resourceType,
    ResourceProperties: stringified(x.props),
    ...(x.oldProps ? { OldResourceProperties: stringified(x.oldProps) } : {}),
  };
  let timer: NodeJS.Timeout | undefined;
  try {
    const ran = runFunction(rc.ctx, target.name, target.qualifier, JSON.stringify(event)).then(
      async (run) => {
        if (!run.functionError) return new Promise<never>(() => {});
        await new Promise((r) => setTimeout(r, GRACE_MS));
        throw missingResponse(requestId, `the function failed without responding: ${run.payload.toString('utf8').slice(0, 2000)}`);
      },
      (err: unknown) => {
        if (isAwsError(err) && err.code === 'ResourceNotFoundException') {
          throw new ResourceFailure(`The custom resource's function does not exist: ${err.message}`);
        }
        throw err;
      },
    );
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(missingResponse(requestId)), limit);
    });
    const response = await Promise.race([wait.response, ran, expired]);
    if (response.Status === 'FAILED') {
      throw new ResourceFailure(
        `Received response status [FAILED] from custom resource. Message returned: ${response.Reason ?? ''} (RequestId: ${requestId})`,
      );
    }
    if (!response.PhysicalResourceId) throw new ResourceFailure('Invalid PhysicalResourceId');
    return { ...response, PhysicalResourceId: response.PhysicalResourceId };
  } catch (err) {
    if (err instanceof ResponseRejected) throw new ResourceFailure(err.message);
    throw err;
  } finally {
    wait.cancel();
    clearTimeout(timer);
  }
}

function stateOf(response: CustomResourceResponse & { PhysicalResourceId: string }): ResourceState {
  const masked = response.NoEcho === true || response.NoEcho === 'true';
  return { physicalId: response.PhysicalResourceId, attributes: { ...(response.Data ?? {}) }, ...(masked ? { masked: true } : {}) };
}

export const customResource: ResourceProvider = {
  type: 'AWS::CloudFormation::CustomResource',

  async create(rc, props) {
    validateProperties(rc.logicalId, rc.resourceType, props);
    return stateOf(await exchange(rc, { type: 'Create', props }));
  },

  async update(rc, props, previous) {
    validateProperties(rc.logicalId, rc.resourceType, props);
    if (String(props.ServiceToken) !== String(previous.props.ServiceToken)) throw new ResourceFailure('Modifying service token is not allowed.');
    return stateOf(await exchange(rc, { type: 'Update', props, physicalId: previous.state.physicalId, oldProps: previous.props }));
  },

  async delete(rc, props, state) {
    await exchange(rc, { type: 'Delete', props, physicalId: state.physicalId });
  },
};
