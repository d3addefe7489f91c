/**
 * ssm's tables (filled in by the ssm work).
 */
import type { Migration } from '../database.js';

export const ssmMigrations: Migration[] = [];
