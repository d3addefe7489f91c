/**
 * The error an SDK call failed with, for assertions on AWS's answer: its name (the error code),
 * message, HTTP status and the whole error object (S3's extra XML elements, `$fault`, …). Fails
 * the test when the call succeeds.
 */
export interface Failure {
  name: string;
  message: string;
  status?: number;
  error: Record<string, unknown>;
}

export async function failure(p: Promise<unknown>): Promise<Failure> {
  try {
    await p;
  } catch (err) {
    const e = err as Error & { $metadata?: { httpStatusCode?: number } };
    return { name: e.name, message: e.message, status: e.$metadata?.httpStatusCode, error: e as unknown as Record<string, unknown> };
  }
  throw new Error('expected the call to fail');
}
