/**
 * Overcast's programmatic entry point. (The in-process test API, startOvercast, lands with the
 * CDK and IaC-testing work; for now the server can be started directly.)
 */
export { startServer, type RunningServer } from './server/server.js';
export { configFromEnv, type OvercastConfig } from './config.js';
