/**
 * Deleting what is already gone succeeds, as CloudFormation's handlers do (a resource deleted
 * outside the stack must not block the stack's deletion): the service's not-found errors, named by
 * code, are swallowed; anything else is the deletion's failure.
 */

export function hasErrorCode(err: unknown, codes: readonly string[]): boolean {
  return codes.includes((err as { code?: string } | undefined)?.code ?? '');
}

/** Runs `action`, ignoring the errors whose code is one of `codes`. */
export function unlessGone(codes: readonly string[], action: () => void): void {
  try {
    action();
  } catch (err) {
    if (!hasErrorCode(err, codes)) throw err;
  }
}
