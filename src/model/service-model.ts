/**
 * The AWS service models (botocore JSON, vendored in `models/` by scripts/vendor-models.mjs) that
 * drive Overcast's codecs and constraint validation: request binding, response serialization and
 * error status all come from the model rather than from hand-written tables. Models are read
 * lazily, on the first request for a service, so start-up stays light.
 */
import { readFileSync } from 'node:fs';
import { packagePath } from '../package-root.js';

export type ServiceId = 's3' | 's3tables' | 'cloudformation' | 'sts' | 'ssm' | 'lambda' | 'ecr' | 'stepfunctions';

export interface MemberRef {
  shape: string;
  location?: 'uri' | 'querystring' | 'header' | 'headers' | 'statusCode';
  locationName?: string;
  flattened?: boolean;
  xmlNamespace?: { uri: string; prefix?: string };
  xmlAttribute?: boolean;
  jsonvalue?: boolean;
  idempotencyToken?: boolean;
  hostLabel?: boolean;
  timestampFormat?: TimestampFormat;
  streaming?: boolean;
}

export type TimestampFormat = 'iso8601' | 'rfc822' | 'unixTimestamp';

export interface Shape {
  type:
    | 'structure'
    | 'list'
    | 'map'
    | 'string'
    | 'integer'
    | 'long'
    | 'boolean'
    | 'timestamp'
    | 'blob'
    | 'float'
    | 'double'
    | 'document';
  members?: Record<string, MemberRef>;
  required?: string[];
  member?: MemberRef;
  key?: MemberRef;
  value?: MemberRef;
  enum?: string[];
  min?: number;
  max?: number;
  pattern?: string;
  flattened?: boolean;
  locationName?: string;
  payload?: string;
  union?: boolean;
  exception?: boolean;
  error?: { code?: string; httpStatusCode?: number; senderFault?: boolean };
  timestampFormat?: TimestampFormat;
  streaming?: boolean;
  sensitive?: boolean;
  xmlNamespace?: { uri: string };
}

export interface Operation {
  name: string;
  http: { method: string; requestUri: string; responseCode?: number };
  input?: { shape: string; locationName?: string; xmlNamespace?: { uri: string } };
  output?: { shape: string; resultWrapper?: string };
  errors?: { shape: string }[];
}

export interface ServiceModel {
  metadata: {
    apiVersion: string;
    endpointPrefix: string;
    protocol: string;
    serviceId: string;
    signingName?: string;
    targetPrefix?: string;
    jsonVersion?: string;
    xmlNamespace?: string;
  };
  operations: Record<string, Operation>;
  shapes: Record<string, Shape>;
}

const cache = new Map<ServiceId, ServiceModel>();

/** The model of one service, parsed on first use. */
export function serviceModel(id: ServiceId): ServiceModel {
  let model = cache.get(id);
  if (!model) {
    model = JSON.parse(readFileSync(packagePath('models', `${id}.json`), 'utf8')) as ServiceModel;
    cache.set(id, model);
  }
  return model;
}

export function shapeOf(model: ServiceModel, name: string): Shape {
  const shape = model.shapes[name];
  if (!shape) throw new Error(`shape ${name} missing from model ${model.metadata.serviceId}`);
  return shape;
}
