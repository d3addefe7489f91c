/**
 * The hostile-input sweep over S3 (rest-xml): every operation S3 serves, with every required
 * member missing (bucket, key, upload id, copy source, XML payload), hostile header and query
 * values (NaN-like and huge numbers, bad dates, unicode, 8 KB values), path labels with
 * percent-encoding edge cases and 1025-byte keys, ill-typed XML payload members, and the XML
 * attacks of xml-attacks.ts (unknown roots, unclosed tags, billion laughs, external entities) —
 * each answered below 500 in S3's `<Error>` document with a documented code, changing nothing
 * when refused.
 */
import {
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { describe, expect, it } from '../helpers/fixture.js';
import { serviceModel } from '../../src/model/service-model.js';
import { routes } from '../../src/services/s3/routes.js';
import { runSweep } from './sweep.js';
import { xmlAttacks } from './xml-attacks.js';
import { servedOperations } from '../../src/services/service-routes.js';


describe('hostile-input sweep: S3', () => {
  it('every operation, every mutation, never a 500', async ({ server: t }) => {
    const s3 = new S3Client({ ...t.clientConfig, maxAttempts: 1 });
    const result = await runSweep(t, {
      service: { id: 's3', protocol: 'rest-xml', model: serviceModel('s3') },
      operations: servedOperations(routes).filter((op) => op !== 'PreflightCors'),
      seed: 505,
      budget: 26,
      strictModel: false,
      attacks: xmlAttacks(),
      setup: async () => {
        await s3.send(new CreateBucketCommand({ Bucket: 'robust-bucket' }));
        await s3.send(new PutObjectCommand({ Bucket: 'robust-bucket', Key: 'robust/key.txt', Body: 'hello' }));
        const upload = await s3.send(new CreateMultipartUploadCommand({ Bucket: 'robust-bucket', Key: 'robust/key.txt' }));
        const part = await s3.send(
          new UploadPartCommand({ Bucket: 'robust-bucket', Key: 'robust/key.txt', UploadId: upload.UploadId, PartNumber: 1, Body: 'part' }),
        );
        return {
          Bucket: 'robust-bucket',
          Key: 'robust/key.txt',
          UploadId: upload.UploadId,
          PartNumber: 1,
          CopySource: 'robust-bucket/robust/key.txt',
          MultipartUpload: { Parts: [{ PartNumber: 1, ETag: part.ETag }] },
        };
      },
    });
    expect(result.findings.report()).toBe('');
    expect(result.requests).toBeGreaterThan(1800);
  });
});
