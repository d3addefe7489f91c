/**
 * The one error type every provider throws and every protocol renders: an AWS error code, the
 * message, the HTTP status, and (for S3's XML errors) extra fields such as BucketName or Key.
 * `fault: 'server'` marks internal failures (rendered as 500 InternalError / InternalFailure).
 */
interface AwsErrorOptions {
  /** Extra elements S3 puts in its XML error body (`<BucketName>`, `<Key>`, …). */
  fields?: Record<string, string | number | undefined>;
  /** Extra response headers (e.g. `x-amz-delete-marker`). */
  headers?: Record<string, string>;
  fault?: 'client' | 'server';
  /** Query-protocol `<Type>`: Sender (default) or Receiver. */
}

export class AwsError extends Error {
  readonly code: string;
  readonly status: number;
  readonly fields: Record<string, string | number | undefined>;
  readonly headers: Record<string, string>;
  readonly fault: 'client' | 'server';

  constructor(code: string, message: string, status = 400, options: AwsErrorOptions = {}) {
    super(message);
    this.name = code;
    this.code = code;
    this.status = status;
    this.fields = options.fields ?? {};
    this.headers = options.headers ?? {};
    this.fault = options.fault ?? (status >= 500 ? 'server' : 'client');
  }
}

export function isAwsError(err: unknown): err is AwsError {
  return err instanceof AwsError;
}

/** A request the router can place in no emulated service; `emulated` lists the signing names served. */
export function serviceNotEmulated(service: string, emulated: readonly string[]): AwsError {
  return new AwsError(
    'NotImplemented',
    `The service '${service}' is not emulated by Overcast. Emulated services: ${emulated.join(', ')}.`,
    501,
  );
}

export function operationNotImplemented(service: string, operation: string): AwsError {
  return new AwsError(
    'NotImplemented',
    `The operation ${operation} of service ${service} is not implemented by Overcast.`,
    501,
  );
}
