/**
 * Whether the machine can run Lambda's Python runtimes as Overcast does: `python3` with `boto3`.
 * Tests of Python handlers run only where it can.
 */
import { execFileSync } from 'node:child_process';

export const hasPythonWithBoto3 = (() => {
  try {
    execFileSync('python3', ['-c', 'import boto3'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
