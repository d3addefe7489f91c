/**
 * The explicit list of emulated services: the SigV4 signing name each answers to, and a loader
 * for its routes module (codec + operation handlers), imported on the service's first request so
 * start-up stays light.
 */
import type { ServiceRoutes } from './service-routes.js';
import type { Runtime } from '../runtime/runtime.js';
import type { ServiceId } from '../model/service-model.js';

export interface ServiceDefinition<Id extends string = ServiceId> {
  id: Id;
  signingName: string;
  load: () => Promise<ServiceRoutes>;
  /**
   * Optional start-up recovery (after migrations, once listening): resume work a previous run left
   * unfinished. Keep it cheap when there is nothing to do; import heavy modules only when needed.
   */
  onStart?: (rt: Runtime) => Promise<void>;
}

export const SERVICES: readonly ServiceDefinition[] = [
  { id: 's3', signingName: 's3', load: async () => (await import('./s3/routes.js')).routes },
  {
    id: 's3tables',
    signingName: 's3tables',
    load: async () => (await import('./s3tables/routes.js')).routes,
    onStart: async (rt) => (await import('./s3tables/on-start.js')).onStart(rt),
  },
  {
    id: 'cloudformation',
    signingName: 'cloudformation',
    load: async () => (await import('./cloudformation/routes.js')).routes,
    onStart: async (rt) => (await import('./cloudformation/on-start.js')).onStart(rt),
  },
  { id: 'sts', signingName: 'sts', load: async () => (await import('./sts/routes.js')).routes },
  { id: 'ssm', signingName: 'ssm', load: async () => (await import('./ssm/routes.js')).routes },
  { id: 'lambda', signingName: 'lambda', load: async () => (await import('./lambda/routes.js')).routes },
  { id: 'ecr', signingName: 'ecr', load: async () => (await import('./ecr/routes.js')).routes },
  {
    id: 'stepfunctions',
    signingName: 'states',
    load: async () => (await import('./stepfunctions/routes.js')).routes,
    onStart: async (rt) => (await import('./stepfunctions/on-start.js')).onStart(rt),
  },
];

/**
 * The S3 Tables Iceberg REST catalog: requests signed for `s3tables` whose path is under
 * `/iceberg/` (AWS serves it at `https://s3tables.<region>.amazonaws.com/iceberg`; no S3 Tables API
 * operation has such a path), and unsigned ones under `/_overcast/iceberg/`.
 */
export const ICEBERG_CATALOG: ServiceDefinition<'iceberg'> = {
  id: 'iceberg',
  signingName: 's3tables',
  load: async () => (await import('./iceberg-rest/routes.js')).routes,
};

const CATALOG_PATH = '/iceberg/';

const bySigningName = new Map(SERVICES.map((s) => [s.signingName, s]));

export function serviceForSigningName(name: string): ServiceDefinition | undefined {
  return bySigningName.get(name);
}

/** The service a request signed with `name` for `rawPath` goes to. */
export function serviceForRequest(name: string, rawPath: string): ServiceDefinition<ServiceId | 'iceberg'> | undefined {
  if (name === 's3tables' && (rawPath.startsWith(CATALOG_PATH) || rawPath === '/iceberg')) return ICEBERG_CATALOG;
  return bySigningName.get(name);
}
