/**
 * `AWS::S3Tables::Namespace` through the S3 Tables provider: created in its table bucket; every
 * property is create-only, so a change is a replacement the engine makes. Ref is
 * `<TableBucketARN>|<Namespace>`, as CloudFormation joins the parts of a composite identifier.
 */
import * as s3t from '../../../s3tables/provider.js';
import { unlessGone } from '../already-gone.js';
import type { ResourceProvider } from '../types.js';
import { str, validateProperties } from '../property-schema.js';

export const namespace: ResourceProvider = {
  type: 'AWS::S3Tables::Namespace',

  async create(rc, props) {
    validateProperties(rc.logicalId, rc.resourceType, props);
    const bucketArn = str(props.TableBucketARN)!;
    const name = str(props.Namespace)!;
    s3t.createNamespace(rc.ctx, { tableBucketARN: bucketArn, namespace: [name] });
    // The primary identifier is composite; CloudFormation joins its parts with `|` for Ref.
    return { physicalId: `${bucketArn}|${name}`, attributes: {} };
  },

  // Every property is create-only: the engine replaces instead of calling this with a change.
  async update(rc, props, previous) {
    validateProperties(rc.logicalId, rc.resourceType, props);
    return previous.state;
  },

  async delete(rc, _props, state) {
    const at = state.physicalId.lastIndexOf('|');
    unlessGone(['NotFoundException'], () =>
      s3t.deleteNamespace(rc.ctx, { tableBucketARN: state.physicalId.slice(0, at), namespace: state.physicalId.slice(at + 1) }),
    );
  },
};
