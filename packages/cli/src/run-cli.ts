import { parseArgs } from 'node:util';
import { createFormloom, isFormloomError } from '@formloom/core';
import { findCommand, type Command } from './commands';
import type { Values } from './command';
import { instanceBlobStore } from './instance-files';
import { readConfig, type Env } from './config';
import { openMigratedStorage } from '@formloom/storage-typeorm';
import { checkSqliteFolder, describeDatabase } from './describe-database';
import { helpFor } from './help';
import { UsageError } from './usage-error';
import { cliVersion } from './version';
import { signingVerify } from './signing-verify';
import { runBackupCommand } from './backup-commands';

export interface CliResult {
  /** 0 on success, 2 for a bad command line, 1 for any other failure. */
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs one `formloom` command in-process. Never throws: the outcome is the exit code and the text for
 * each stream: one JSON object on stdout; on stderr the database opened, then on failure one line with
 * the error (docs/cli.md).
 */
export async function runCli(argv: string[], env: Env = process.env): Promise<CliResult> {
  let stderr = '';
  try {
    if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
      return { code: 0, stdout: `${cliVersion()}\n`, stderr: '' };
    }
    const help = helpFor(argv, cliVersion());
    if (help !== null) {
      return { code: 0, stdout: `${help}\n`, stderr: '' };
    }
    if (argv[0] === 'signing' && argv[1] === 'verify') {
      // A report either way; the exit code says whether the document is valid (for scripts).
      const { valid, report, database } = await signingVerify(argv.slice(2), env);
      return { code: valid ? 0 : 1, stdout: `${JSON.stringify(report)}\n`, stderr: `formloom: database ${database}\n` };
    }
    // Backups read the database file themselves, and a restore must not create one first.
    const backup = await runBackupCommand(argv, env);
    if (backup) return { code: 0, stdout: `${JSON.stringify(backup.output)}\n`, stderr: backup.stderr };
    const { command, rest } = findCommand(argv);
    const values = parseFlags(command, rest);
    const config = readConfig(env);
    const { databaseUrl } = config;
    checkSqliteFolder(databaseUrl, (env.FORMLOOM_DATABASE_URL ?? '').trim() !== '');
    stderr = `formloom: database ${describeDatabase(databaseUrl)}\n`;
    const storage = await openMigratedStorage(databaseUrl);
    try {
      // Only commands that read files get the blob store: the others never touch the data folder's files.
      const formloom = createFormloom({ storage, ...(command.readsFiles ? { blobStore: instanceBlobStore(env, config, storage) } : {}) });
      const output = await command.run(formloom.accounts, values, storage, formloom);
      return { code: 0, stdout: `${JSON.stringify(output)}\n`, stderr };
    } finally {
      await storage.close();
    }
  } catch (e) {
    return { code: e instanceof UsageError ? 2 : 1, stdout: '', stderr: `${stderr}formloom: ${oneLine(e)}\n` };
  }
}

/** The flags, and the command's arguments under their names (`Command.positionals`). */
function parseFlags(command: Command, args: string[]): Values {
  const names = command.positionals ?? [];
  let parsed;
  try {
    parsed = parseArgs({ args, options: command.options, strict: true, allowPositionals: names.length > 0 });
  } catch (e) {
    // node:util reports unknown flags and missing values as TypeError with an ERR_PARSE_ARGS_* code.
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  if (parsed.positionals.length !== names.length) throw new UsageError(`usage: formloom ${command.usage}`);
  const values: Values = { ...parsed.values };
  names.forEach((name, i) => {
    if (parsed.positionals[i]!.trim() === '') throw new UsageError(`<${name}> must not be empty`);
    values[name] = parsed.positionals[i];
  });
  return values;
}

function oneLine(e: unknown): string {
  const message = isFormloomError(e) || e instanceof Error ? e.message : String(e);
  return (message.split('\n').find((l) => l.trim() !== '') ?? 'failed').trim();
}
