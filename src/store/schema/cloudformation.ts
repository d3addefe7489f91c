/**
 * cloudformation's tables (filled in by the cloudformation work).
 */
import type { Migration } from '../database.js';

export const cloudformationMigrations: Migration[] = [];
