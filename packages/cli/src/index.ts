export { runCli, type CliResult } from './run-cli';
export { readConfig, sqliteFile, DEFAULT_DATABASE_URL, DEFAULT_DATA_DIR, type CliConfig, type Env } from './config';
/** Moved to @formloom/storage-typeorm; re-exported for hosts that imported it from here. */
export { openMigratedStorage, type ClosableStorage } from '@formloom/storage-typeorm';
export { COMMANDS } from './commands';
export { HELP_ENTRIES, type HelpEntry } from './help';
export { describeDatabase } from './describe-database';
