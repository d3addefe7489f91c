/**
 * A commit's requirements checked against the table's base metadata, as the Java reference's
 * `UpdateRequirement`s do: a requirement that no longer holds is a `CommitFailedError` (409) with
 * Java's text, which a retry with fresh metadata may fix.
 */
import type { TableMetadata } from './types.js';
import type { TableRequirement } from './updates.js';

export class CommitFailedError extends Error {}

/** Throws CommitFailedError unless `req` holds for `base` (undefined: the table does not exist). */
export function checkRequirement(base: TableMetadata | undefined, req: TableRequirement): void {
  if (req.type === 'assert-create') {
    if (base) throw new CommitFailedError('Requirement failed: table already exists');
    return;
  }
  if (!base) throw new CommitFailedError(`Requirement failed: table does not exist (${req.type})`);
  switch (req.type) {
    case 'assert-table-uuid':
      if (req.uuid.toLowerCase() !== base['table-uuid'].toLowerCase()) {
        throw new CommitFailedError(`Requirement failed: UUID does not match: expected ${base['table-uuid']} != ${req.uuid}`);
      }
      return;
    case 'assert-ref-snapshot-id': {
      const ref = base.refs?.[req.ref];
      const expected = req['snapshot-id'];
      if (ref) {
        if (expected === null) throw new CommitFailedError(`Requirement failed: ${ref.type} ${req.ref} was created concurrently`);
        if (expected !== ref['snapshot-id']) {
          throw new CommitFailedError(
            `Requirement failed: ${ref.type} ${req.ref} has changed: expected id ${expected} != ${ref['snapshot-id']}`,
          );
        }
      } else if (expected !== null) {
        throw new CommitFailedError(`Requirement failed: branch or tag ${req.ref} is missing, expected ${expected}`);
      }
      return;
    }
    case 'assert-last-assigned-field-id':
      if (base['last-column-id'] !== req['last-assigned-field-id']) {
        throw new CommitFailedError(
          `Requirement failed: last assigned field id changed: expected id ${req['last-assigned-field-id']} != ${base['last-column-id']}`,
        );
      }
      return;
    case 'assert-current-schema-id':
      if (base['current-schema-id'] !== req['current-schema-id']) {
        throw new CommitFailedError(
          `Requirement failed: current schema changed: expected id ${req['current-schema-id']} != ${base['current-schema-id']}`,
        );
      }
      return;
    case 'assert-last-assigned-partition-id':
      if (base['last-partition-id'] !== req['last-assigned-partition-id']) {
        throw new CommitFailedError(
          `Requirement failed: last assigned partition id changed: expected id ${req['last-assigned-partition-id']} != ${base['last-partition-id']}`,
        );
      }
      return;
    case 'assert-default-spec-id':
      if (base['default-spec-id'] !== req['default-spec-id']) {
        throw new CommitFailedError(
          `Requirement failed: default partition spec changed: expected id ${req['default-spec-id']} != ${base['default-spec-id']}`,
        );
      }
      return;
    case 'assert-default-sort-order-id':
      if (base['default-sort-order-id'] !== req['default-sort-order-id']) {
        throw new CommitFailedError(
          `Requirement failed: default sort order changed: expected id ${req['default-sort-order-id']} != ${base['default-sort-order-id']}`,
        );
      }
  }
}

/** Metadata with nothing in it yet, for a table created by a commit (`assert-create`). */
