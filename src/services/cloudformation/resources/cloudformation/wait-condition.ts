/**
 * `AWS::CloudFormation::WaitCondition`. Overcast delivers no signals, so a wait condition
 * completes at once — with or without Handle and Count — and its `Data` attribute is the JSON of
 * the signals received: `{}`. Templates that use one to wait for an instance therefore deploy
 * without waiting (nothing would ever signal in an emulator).
 */
import { validateProperties } from '../property-schema.js';
import type { ResourceProvider } from '../types.js';

export const waitCondition: ResourceProvider = {
  type: 'AWS::CloudFormation::WaitCondition',
  async create(rc, props) {
    validateProperties(rc.logicalId, rc.resourceType, props);
    const id = `${rc.stackId}/${rc.logicalId}`;
    return { physicalId: id, attributes: { Data: '{}', Id: id } };
  },
  async update(rc, props, previous) {
    validateProperties(rc.logicalId, rc.resourceType, props);
    return previous.state;
  },
  async delete() {},
};
