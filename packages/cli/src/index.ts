export { runCli, type CliResult } from './run-cli';
export { readConfig, sqliteFile, DEFAULT_DATABASE_URL, DEFAULT_DATA_DIR, type CliConfig, type Env } from './config';
export { openMigratedStorage, type ClosableStorage } from './open-storage';
export { COMMANDS } from './commands';
export { describeDatabase } from './describe-database';
