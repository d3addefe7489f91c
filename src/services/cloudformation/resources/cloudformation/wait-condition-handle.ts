/**
 * `AWS::CloudFormation::WaitConditionHandle`: its Ref is a presigned-looking S3 URL, as on AWS
 * (where cfn-signal PUTs to it). Overcast delivers no signals (see wait-condition.ts).
 */
import { createHash, randomBytes } from 'node:crypto';
import { formatAmzDate } from '../../../../wire/sigv4.js';
import { validateProperties } from '../property-schema.js';
import type { ResourceContext, ResourceProvider } from '../types.js';

function waitConditionUrl(rc: ResourceContext): string {
  const { region, account } = rc.ctx;
  const now = formatAmzDate(Date.now());
  const key = `AKIA${createHash('sha256').update(account).digest('hex').slice(0, 16).toUpperCase()}`;
  const query = [
    'X-Amz-Algorithm=AWS4-HMAC-SHA256',
    `X-Amz-Date=${now}`,
    'X-Amz-SignedHeaders=host',
    'X-Amz-Expires=86399',
    `X-Amz-Credential=${key}%2F${now.slice(0, 8)}%2F${region}%2Fs3%2Faws4_request`,
    `X-Amz-Signature=${randomBytes(32).toString('hex')}`,
  ].join('&');
  return `https://cloudformation-waitcondition-${region}.s3.amazonaws.com/${encodeURIComponent(rc.stackId)}/${rc.logicalId}?${query}`;
}

export const waitConditionHandle: ResourceProvider = {
  type: 'AWS::CloudFormation::WaitConditionHandle',
  async create(rc, props) {
    validateProperties(rc.logicalId, rc.resourceType, props);
    const url = waitConditionUrl(rc);
    return { physicalId: url, attributes: { Id: url } };
  },
  async update(_rc, _props, previous) {
    return previous.state;
  },
  async delete() {},
};
