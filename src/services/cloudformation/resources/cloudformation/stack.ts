/**
 * `AWS::CloudFormation::Stack`: a nested stack, created, updated and deleted as a real stack by
 * the engine (engine/nested.ts), which this provider loads on first use.
 */
import type { ResourceProvider } from '../types.js';

const nested = () => import('../../engine/nested.js');

export const cloudformationStack: ResourceProvider = {
  type: 'AWS::CloudFormation::Stack',
  async create(rc, props) {
    return (await nested()).createNestedStack(rc, props);
  },
  async update(rc, props, previous) {
    return (await nested()).updateNestedStack(rc, props, previous);
  },
  async delete(rc, props, state) {
    await (await nested()).deleteNestedStack(rc, props, state);
  },
};
