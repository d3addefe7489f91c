/**
 * A function's code package as CreateFunction and UpdateFunctionCode take it: the zip bytes
 * (`ZipFile`) or an object of Overcast's own S3 (`S3Bucket`/`S3Key`/`S3ObjectVersion`, where the
 * CDK publishes its asset zips), or an `ImageUri` (stored, never run). The zip must open (its
 * central directory is read) or the request fails as AWS's does; its SHA-256 (base64) and size
 * become CodeSha256 and CodeSize, and the bytes are stored once per distinct package.
 */
import { createHash } from 'node:crypto';
import type * as L from '@aws-sdk/client-lambda';
import type { Ctx } from '../../runtime/runtime.js';
import { lambdaRepo } from './lookup.js';
import { isAwsError } from '../../wire/errors.js';
import { getObjectBytes } from '../s3/provider.js';
import { lambdaErrors } from './errors.js';
import { zipProblem } from './runner/code-dir.js';

/** The largest package Overcast accepts (Lambda: 50 MB zipped upload, 250 MB unzipped). */
const MAX_ZIP = 250 * 1024 * 1024;

interface CodePackage {
  sha: string;
  size: number;
  imageUri?: string;
}

async function fromS3(ctx: Ctx, bucket: string, key: string, version: string | undefined): Promise<Buffer> {
  try {
    return await getObjectBytes(ctx, { Bucket: bucket, Key: key, ...(version ? { VersionId: version } : {}) });
  } catch (err) {
    if (isAwsError(err) && (err.code === 'NoSuchKey' || err.code === 'NoSuchBucket' || err.code === 'NoSuchVersion')) {
      throw lambdaErrors.codeFromS3(bucket, key, err.code);
    }
    throw err;
  }
}

/** Stores the package `code` describes and returns its hash and size. */
export async function storeCode(
  ctx: Ctx,
  code: Pick<L.FunctionCode, 'ZipFile' | 'S3Bucket' | 'S3Key' | 'S3ObjectVersion' | 'ImageUri'>,
): Promise<CodePackage> {
  if (code.ImageUri !== undefined) {
    return { sha: createHash('sha256').update(code.ImageUri).digest('base64'), size: 0, imageUri: code.ImageUri };
  }
  let zip: Buffer;
  if (code.ZipFile !== undefined) zip = Buffer.from(code.ZipFile);
  else if (code.S3Bucket !== undefined && code.S3Key !== undefined) zip = await fromS3(ctx, code.S3Bucket, code.S3Key, code.S3ObjectVersion);
  else throw lambdaErrors.invalidParameter('Please provide a source for function code.');
  if (zip.length > MAX_ZIP) throw lambdaErrors.invalidParameter(`Unzipped size must be smaller than ${MAX_ZIP} bytes`);
  const problem = zipProblem(zip);
  if (problem) throw lambdaErrors.invalidZip(problem);
  const sha = createHash('sha256').update(zip).digest('base64');
  const repo = lambdaRepo(ctx);
  if (!repo.hasCode(sha)) repo.putCode(sha, zip);
  return { sha, size: zip.length };
}
