/**
 * The store of drift detections and stack refactors (one per metadata store), as `cfnRepo` is
 * for stacks.
 */
import type { Ctx } from '../../../runtime/runtime.js';
import { CloudFormationRecords } from '../../../store/cloudformation-records-repo.js';

const records = new WeakMap<object, CloudFormationRecords>();

export function cfnRecords(ctx: Pick<Ctx, 'rt'>): CloudFormationRecords {
  let r = records.get(ctx.rt.meta);
  if (!r) {
    r = new CloudFormationRecords(ctx.rt.meta);
    records.set(ctx.rt.meta, r);
  }
  return r;
}
