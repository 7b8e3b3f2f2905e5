// TypeORM and @formloom/core (tsyringe) both need the Reflect metadata polyfill before they load.
import 'reflect-metadata';
export { createTypeormStorage, type TypeormStorage } from './storage';
export { createDataSource, parseDatabaseUrl, pendingMigrations, runMigrations, type CreateDataSourceOptions, type DatabaseUrl } from './data-source';
export { formloomEntities } from './tables';
export { formloomMigrationNames } from './migrations/names';
import type * as Migrations from './migrations';
/** Formloom's migrations in order, for a host that builds its own DataSource (add them to `migrations`). */
export declare const formloomMigrations: typeof Migrations.formloomMigrations;
// Their code loads at the first read of `formloomMigrations`, not with the package: a server whose database
// another process migrated never loads it (docs/operations.md, "Memory"). CommonJS caches the module after.
Object.defineProperty(exports, 'formloomMigrations', {
  enumerable: true,
  get: () => (require('./migrations') as typeof Migrations).formloomMigrations,
});
export { createPostgresBlobStore, type PostgresBlobStoreOptions } from './postgres-blob-store';
export { loadDriver, type DriverName, type RequireDriver } from './drivers';
export {
  DEFAULT_DATABASE_URL,
  openMigratedStorage,
  prepareSqliteFile,
  resolveDatabaseUrl,
  sqliteFile,
  type ClosableStorage,
  type OpenMigratedStorageOptions,
} from './open-storage';
