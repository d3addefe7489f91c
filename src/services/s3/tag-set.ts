/**
 * S3 tag sets: the `x-amz-tagging` header (URL-encoded query form) parsed, and the rules every
 * tag set meets — at most 50 bucket tags or 10 object tags, unique keys, no `aws:` prefix, keys
 * up to 128 and values up to 256 characters — with S3's error codes and messages.
 */
import type * as S3 from '@aws-sdk/client-s3';
import { AwsError } from '../../wire/errors.js';
import { s3Errors } from './errors.js';

/** `x-amz-tagging: k1=v1&k2=v2` (URL-encoded query form). */
export function parseTaggingHeader(header: string): S3.Tag[] {
  const tags: S3.Tag[] = [];
  const seen = new Set<string>();
  for (const [k, v] of new URLSearchParams(header)) {
    if (seen.has(k)) {
      throw s3Errors.invalidArgument(
        "The header 'x-amz-tagging' shall be encoded as UTF-8 then URLEncoded URL query parameters without tag name duplicates.",
        'x-amz-tagging',
        header,
      );
    }
    seen.add(k);
    tags.push({ Key: k, Value: v });
  }
  validateTagSet(tags, 'object');
  return tags;
}

export function validateTagSet(tags: readonly S3.Tag[], kind: 'bucket' | 'object'): void {
  const max = kind === 'bucket' ? 50 : 10;
  if (tags.length > max) {
    throw new AwsError('BadRequest', kind === 'bucket' ? 'Bucket tag count cannot be greater than 50' : 'Object tags cannot be greater than 10', 400);
  }
  const keys = new Set<string>();
  for (const tag of tags) {
    if (tag.Key === undefined || tag.Value === undefined) throw s3Errors.malformedXml();
    if (keys.has(tag.Key)) throw s3Errors.invalidTag('Cannot provide multiple Tags with the same key', tag.Key);
    keys.add(tag.Key);
    if (tag.Key.startsWith('aws:')) {
      throw s3Errors.invalidTag(
        kind === 'bucket' ? 'System tags cannot be added/updated by requester' : 'Your TagKey cannot be prefixed with aws:',
        tag.Key,
      );
    }
    if (tag.Key.length < 1 || [...tag.Key].length > 128) throw s3Errors.invalidTag('The TagKey you have provided is invalid', tag.Key);
    if ([...tag.Value].length > 256) throw s3Errors.invalidTag('The TagValue you have provided is invalid', tag.Key);
  }
}
