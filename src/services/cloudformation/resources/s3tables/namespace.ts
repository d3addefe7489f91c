/**
 * `AWS::S3Tables::Namespace` through the S3 Tables provider: created in its table bucket; every
 * property is create-only, so a change is a replacement the engine makes. Ref is
 * `<TableBucketARN>|<Namespace>`, as CloudFormation joins the parts of a composite identifier —
 * the same two properties an import names it by.
 */
import * as s3t from '../../../s3tables/provider.js';
import { unlessGone } from '../already-gone.js';
import { readOptional } from './properties.js';
import { createOnlyUpdate, typedProperties } from '../typed-properties.js';
import type { ResourceProvider } from '../types.js';

const TYPE = 'AWS::S3Tables::Namespace';

export const namespace: ResourceProvider = {
  type: TYPE,

  async create(rc, props) {
    const p = typedProperties(rc, TYPE, props);
    s3t.createNamespace(rc.ctx, { tableBucketARN: p.TableBucketARN, namespace: [p.Namespace] });
    return { physicalId: `${p.TableBucketARN}|${p.Namespace}`, attributes: {} };
  },

  update: createOnlyUpdate(TYPE),

  async delete(rc, _props, state) {
    const at = state.physicalId.lastIndexOf('|');
    unlessGone(['NotFoundException'], () =>
      s3t.deleteNamespace(rc.ctx, { tableBucketARN: state.physicalId.slice(0, at), namespace: state.physicalId.slice(at + 1) }),
    );
  },

  async read(rc, state) {
    const at = state.physicalId.lastIndexOf('|');
    const arn = state.physicalId.slice(0, at);
    const ns = s3t.getNamespace(rc.ctx, { tableBucketARN: arn, namespace: state.physicalId.slice(at + 1) });
    return { TableBucketARN: arn, Namespace: ns.namespace![0] };
  },

  async adopt(rc, identifier) {
    const arn = identifier.TableBucketARN!;
    const name = identifier.Namespace!;
    const found = readOptional(() => s3t.getNamespace(rc.ctx, { tableBucketARN: arn, namespace: name }));
    return found ? { physicalId: `${arn}|${name}`, attributes: {} } : undefined;
  },
};
