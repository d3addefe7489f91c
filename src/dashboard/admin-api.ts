/**
 * The dashboard's actions on Overcast itself and its context: the page's defaults and the
 * accounts and regions that hold data, resetting all state, Overcast's clock (read and advanced)
 * and running table maintenance now — the same functions as `/_overcast/reset`, `/_overcast/clock`
 * and `/_overcast/maintenance/run`.
 */
import { advanceClock, clockState, maintenanceRun } from '../services/s3tables/maintenance/admin.js';
import { knownPlaces } from '../store/dashboard-repo.js';
import { DEFAULT_ACCOUNT, DEFAULT_REGION } from '../wire/sigv4.js';
import { VERSION } from '../version.js';
import { badRequest, type DashboardRequest, type JsonAnswer } from './http.js';

export function context(r: DashboardRequest): JsonAnswer {
  return {
    body: {
      version: VERSION,
      defaultAccount: DEFAULT_ACCOUNT,
      defaultRegion: DEFAULT_REGION,
      places: knownPlaces(r.rt.meta),
      clock: clockState(r.rt),
      store: r.rt.meta.inMemory ? 'memory' : 'disk',
    },
  };
}

export function getClock(r: DashboardRequest): JsonAnswer {
  return { body: clockState(r.rt) };
}

export function postClock(r: DashboardRequest): JsonAnswer {
  try {
    return { body: advanceClock(r.rt, r.body.advance) };
  } catch (err) {
    if (err instanceof RangeError) throw badRequest(err.message);
    throw err;
  }
}

export async function runMaintenance(r: DashboardRequest): Promise<JsonAnswer> {
  const tableArn = r.body.tableArn;
  if (tableArn !== undefined && typeof tableArn !== 'string') throw badRequest('tableArn must be a string.');
  try {
    return { body: await maintenanceRun(r.rt, tableArn) };
  } catch (err) {
    if (err instanceof RangeError) throw badRequest(err.message);
    throw err;
  }
}

export async function reset(r: DashboardRequest, resetAll: () => Promise<void>): Promise<JsonAnswer> {
  if (r.body.confirm !== true) throw badRequest('Resetting deletes all state: send {"confirm": true}.');
  await resetAll();
  return { body: { reset: true } };
}
