/**
 * Every store migration, in the order they apply. Each service keeps its tables in its own file
 * here; a new table or column is a new migration appended to that file, never an edit.
 */
import type { Migration } from '../database.js';
import { blobMigrations } from '../blobs.js';
import { cloudformationMigrations } from './cloudformation.js';
import { lambdaMigrations } from './lambda.js';
import { ecrMigrations } from './ecr.js';
import { s3Migrations } from './s3.js';
import { maintenanceMigrations } from './maintenance.js';
import { s3tablesMigrations } from './s3tables.js';
import { ssmMigrations } from './ssm.js';
import { stsMigrations } from './sts.js';
import { stepfunctionsMigrations } from './stepfunctions.js';

export const MIGRATIONS: readonly Migration[] = [
  ...blobMigrations,
  ...s3Migrations,
  ...s3tablesMigrations,
  ...maintenanceMigrations,
  ...ssmMigrations,
  ...stsMigrations,
  ...cloudformationMigrations,
  ...lambdaMigrations,
  ...ecrMigrations,
  ...stepfunctionsMigrations,
];
