import type { ParseArgsConfig } from 'node:util';
import type { AccountService, Formloom, Storage } from '@formloom/core';

export type Options = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** One `formloom` command: its words, its flags, its help, and what it does with the account service (or the storage). */
export interface Command {
  name: string;
  usage: string;
  /** One line for the command lists of `--help`. */
  summary: string;
  options: Options;
  /**
   * Names of the arguments after the flags' words, in order, all required (e.g. `form retention <form>`); their
   * values reach `run` under these names. Absent: the command takes none.
   */
  positionals?: string[];
  /** The command reads the instance's files (`FORMLOOM_BLOB_STORE`): the Formloom it gets has the blob store. */
  readsFiles?: boolean;
  /** What each flag means, for `formloom <command> --help`. */
  flags: Record<string, string>;
  run(accounts: AccountService, values: Values, storage: Storage, formloom: Formloom): Promise<Record<string, unknown>>;
}
