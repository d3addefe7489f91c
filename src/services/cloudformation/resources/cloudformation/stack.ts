/**
 * `AWS::CloudFormation::Stack`: a nested stack, created, updated and deleted as a real stack by
 * the engine, which hands its stack operations to the resource through its context.
 */
import type { ResourceProvider } from '../types.js';

export const cloudformationStack: ResourceProvider = {
  type: 'AWS::CloudFormation::Stack',
  create: (rc, props) => rc.nestedStacks.create(rc, props),
  update: (rc, props, previous) => rc.nestedStacks.update(rc, props, previous),
  delete: (rc, _props, state) => rc.nestedStacks.delete(rc, state),
};
