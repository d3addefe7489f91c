/**
 * `AWS::CDK::Metadata`: the CDK's analytics resource. It does nothing on AWS either; it exists so
 * stacks synthesized by the CDK deploy unchanged.
 */
import { randomUUID } from 'node:crypto';
import type { ResourceProvider } from '../types.js';

export const cdkMetadata: ResourceProvider = {
  type: 'AWS::CDK::Metadata',
  async create() {
    return { physicalId: randomUUID(), attributes: {} };
  },
  async update(_rc, _props, previous) {
    return previous.state;
  },
  async delete() {},
};
