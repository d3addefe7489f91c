/**
 * Semantic checks several operations share, beyond the model's constraints: encryption settings
 * (`aws:kms` needs a key ARN, `AES256` takes none) and tags (AWS's character set, no `aws:`
 * prefix, at most 50 per resource).
 */
import { s3tErrors } from './errors.js';

/** `aws:kms` needs a key ARN; `AES256` takes none. */
export function checkEncryption(config: { sseAlgorithm?: string; kmsKeyArn?: string } | undefined): void {
  if (!config) return;
  if (config.sseAlgorithm === 'aws:kms' && !config.kmsKeyArn) {
    throw s3tErrors.badRequest('A KMS key ARN (kmsKeyArn) must be specified when the SSE algorithm is aws:kms.');
  }
  if (config.sseAlgorithm === 'AES256' && config.kmsKeyArn) {
    throw s3tErrors.badRequest('A KMS key ARN (kmsKeyArn) can only be specified when the SSE algorithm is aws:kms.');
  }
}

export function encryptionJson(config: { sseAlgorithm?: string; kmsKeyArn?: string }): string {
  return JSON.stringify(
    config.sseAlgorithm === 'aws:kms' ? { sseAlgorithm: 'aws:kms', kmsKeyArn: config.kmsKeyArn } : { sseAlgorithm: 'AES256' },
  );
}

export const MAX_TAGS = 50;
// AWS tagging rules (Tagging best practices): letters, digits, spaces and _ . : / = + - @.
const TAG_TEXT = /^[\p{L}\p{Z}\p{N}_.:/=+\-@]*$/u;

/** Tag keys and values: AWS's character set, no `aws:` prefix on keys. */
export function checkTags(tags: Record<string, string> | undefined): void {
  if (!tags) return;
  for (const [key, value] of Object.entries(tags)) {
    if (key.toLowerCase().startsWith('aws:')) {
      throw s3tErrors.badRequest(`The tag key '${key}' uses the reserved prefix 'aws:'.`);
    }
    if (!TAG_TEXT.test(key)) throw s3tErrors.badRequest(`The tag key '${key}' contains characters that are not allowed.`);
    if (!TAG_TEXT.test(value ?? '')) {
      throw s3tErrors.badRequest(`The tag value for key '${key}' contains characters that are not allowed.`);
    }
  }
  if (Object.keys(tags).length > MAX_TAGS) throw tooManyTags();
}

export function tooManyTags() {
  return s3tErrors.badRequest(`A resource can have at most ${MAX_TAGS} tags.`);
}
