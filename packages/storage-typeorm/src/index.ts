// TypeORM and @formloom/core (tsyringe) both need the Reflect metadata polyfill before they load.
import 'reflect-metadata';
export { createTypeormStorage, type TypeormStorage } from './storage';
export { createDataSource, parseDatabaseUrl, runMigrations, type CreateDataSourceOptions, type DatabaseUrl } from './data-source';
export { formloomEntities } from './tables';
export { formloomMigrations } from './migrations';
export { createPostgresBlobStore, type PostgresBlobStoreOptions } from './postgres-blob-store';
export { loadDriver, type DriverName, type RequireDriver } from './drivers';
export {
  DEFAULT_DATABASE_URL,
  openMigratedStorage,
  prepareSqliteFile,
  resolveDatabaseUrl,
  sqliteFile,
  type ClosableStorage,
} from './open-storage';
