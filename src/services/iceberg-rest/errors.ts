/**
 * The errors of the Iceberg REST catalog: Iceberg's exception types (the `type` of the
 * `{"error": {message, type, code}}` body clients switch on, REST spec `IcebergErrorResponse`)
 * carried as AwsErrors whose code is that type, the texts the Java reference server uses
 * ("Table does not exist: ns.t"), and the translation of the S3 Tables provider's errors, which
 * the catalog calls for every bookkeeping step, into those types.
 */
import { CommitFailedError } from '../../iceberg/metadata-builder.js';
import { InvalidMetadataError } from '../../iceberg/schema.js';
import { AwsError, isAwsError } from '../../wire/errors.js';
import { s3tErrors } from '../s3tables/errors.js';

type IcebergErrorType =
  | 'BadRequestException'
  | 'ForbiddenException'
  | 'NoSuchWarehouseException'
  | 'NoSuchNamespaceException'
  | 'NoSuchTableException'
  | 'AlreadyExistsException'
  | 'NamespaceNotEmptyException'
  | 'CommitFailedException'
  | 'UnknownOperationException'
  | 'NotModified';

const err = (type: IcebergErrorType, status: number) => (message: string) => new AwsError(type, message, status);

export const iceErrors = {
  badRequest: err('BadRequestException', 400),
  forbidden: err('ForbiddenException', 403),
  noSuchWarehouse: err('NoSuchWarehouseException', 404),
  noSuchNamespace: (ns: string) => new AwsError('NoSuchNamespaceException', `Namespace does not exist: ${ns}`, 404),
  noSuchTable: (ident: string) => new AwsError('NoSuchTableException', `Table does not exist: ${ident}`, 404),
  namespaceExists: (ns: string) => new AwsError('AlreadyExistsException', `Namespace already exists: ${ns}`, 409),
  tableExists: (ident: string) => new AwsError('AlreadyExistsException', `Table already exists: ${ident}`, 409),
  namespaceNotEmpty: (ns: string) => new AwsError('NamespaceNotEmptyException', `Namespace not empty: ${ns}`, 409),
  commitFailed: err('CommitFailedException', 409),
  /**
   * What S3 Tables answers for the REST operations it does not serve (views and the rest): a 404
   * UnknownOperationException (observed by a third-party conformance run of seven catalogs, 2026-09).
   */
  unknownOperation: (what: string) =>
    new AwsError('UnknownOperationException', `The operation ${what} is not supported by the S3 Tables Iceberg REST endpoint.`, 404),
  multipartNamespace: () => new AwsError('BadRequestException', 'Multipart namespaces are not supported', 400),
};

/** Names the resource a translated error is about. */
export interface Subject {
  namespace?: string;
  table?: string;
  /** For renames: the destination. */
  destination?: { namespace: string; table: string };
}

const same = (a: AwsError, b: AwsError) => a.code === b.code && a.message === b.message;

/** An S3 Tables provider error (or a library error) as the Iceberg type a REST client expects. */
export function translate(e: unknown, subject: Subject): unknown {
  if (e instanceof InvalidMetadataError) return iceErrors.badRequest(e.message);
  if (e instanceof CommitFailedError) return iceErrors.commitFailed(e.message);
  if (!isAwsError(e)) return e;
  const ns = subject.namespace ?? '';
  const ident = `${ns}.${subject.table ?? ''}`;
  if (same(e, s3tErrors.bucketNotFound())) return iceErrors.noSuchWarehouse(e.message);
  if (same(e, s3tErrors.namespaceNotFound())) return iceErrors.noSuchNamespace(ns);
  if (same(e, s3tErrors.destinationNamespaceNotFound())) return iceErrors.noSuchNamespace(subject.destination?.namespace ?? ns);
  if (same(e, s3tErrors.tableNotFound())) return iceErrors.noSuchTable(ident);
  if (same(e, s3tErrors.namespaceExists())) return iceErrors.namespaceExists(ns);
  if (same(e, s3tErrors.tableExists())) {
    const d = subject.destination;
    return iceErrors.tableExists(d ? `${d.namespace}.${d.table}` : ident);
  }
  if (same(e, s3tErrors.namespaceNotEmpty())) return iceErrors.namespaceNotEmpty(ns);
  if (same(e, s3tErrors.versionTokenMismatch())) return iceErrors.commitFailed(e.message);
  return e;
}
