/**
 * s3tables's tables (filled in by the s3tables work).
 */
import type { Migration } from '../database.js';

export const s3tablesMigrations: Migration[] = [];
