/**
 * The explicit list of emulated services: the SigV4 signing name each answers to, and a loader
 * for its routes module (codec + operation handlers), imported on the service's first request so
 * start-up stays light.
 */
import type { ServiceRoutes } from './service-routes.js';
import type { Runtime } from '../server/runtime.js';
import type { ServiceId } from '../model/service-model.js';

export interface ServiceDefinition {
  id: ServiceId;
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
];

const bySigningName = new Map(SERVICES.map((s) => [s.signingName, s]));

export function serviceForSigningName(name: string): ServiceDefinition | undefined {
  return bySigningName.get(name);
}
