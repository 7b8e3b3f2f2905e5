import { COMMANDS, type Command } from './commands';
import { SIGNING_VERIFY_HELP } from './signing-verify';
import { BACKUP_HELP } from './backup-commands';
import { UsageError } from './usage-error';

/** What `--help` shows of a command: the database commands, and `signing verify`, which takes a file. */
export type HelpEntry = Pick<Command, 'name' | 'usage' | 'summary' | 'flags'> & { notes?: string[] };

/** Every command `--help` lists, in order. */
export const HELP_ENTRIES: HelpEntry[] = [...COMMANDS, SIGNING_VERIFY_HELP, ...BACKUP_HELP];

const HELP_FLAGS = new Set(['--help', '-h']);

/**
 * The help text `argv` asks for, or `null` when it asks for none: `formloom --help`, `formloom help`,
 * `formloom <group> --help` (e.g. `key`), `formloom <command> --help` or `formloom help <command>`.
 * @throws UsageError when the help is for a command that does not exist.
 */
export function helpFor(argv: string[], version: string): string | null {
  let words: string[];
  if (argv[0] === 'help') words = argv.slice(1);
  else if (argv.some((a) => HELP_FLAGS.has(a))) words = argv.slice(0, argv.findIndex((a) => HELP_FLAGS.has(a)));
  else return null;
  words = words.filter((w) => !w.startsWith('-')).slice(0, 2);
  if (words.length === 0) return overview(version);
  // `migrate --email x -h` has a flag's value among its words: the longest leading words naming a command win.
  const command = HELP_ENTRIES.find((c) => c.name === words.join(' ')) ?? HELP_ENTRIES.find((c) => c.name === words[0]);
  if (command) return commandHelp(command);
  const group = HELP_ENTRIES.filter((c) => c.name.split(' ')[0] === words[0]);
  if (words.length === 1 && group.length > 0) return groupHelp(words[0]!, group);
  throw new UsageError(`unknown command: ${words.join(' ')} (try: formloom --help)`);
}

function overview(version: string): string {
  return [
    `formloom ${version}: operator commands on the database of a Formloom installation (docs/cli.md)`,
    '',
    'usage: formloom <command> [flags]',
    '       formloom <command> --help    flags of one command, e.g. formloom key create --help',
    '       formloom --version',
    '',
    'commands:',
    ...list(HELP_ENTRIES),
    '',
    'environment:',
    '  FORMLOOM_DATABASE_URL  sqlite:<path> (default: sqlite:$FORMLOOM_DATA_DIR/formloom.sqlite) or',
    '                         postgres://user:password@host:5432/db; another schema than public:',
    '                         postgres://...?options=-c%20search_path%3D<schema>',
    '  FORMLOOM_DATA_DIR      the data directory (default: ./data), as for npm start',
    '',
    'Prints one JSON object on stdout. On stderr: the database it opens, and any error as its last line.',
    'Exit status: 0 done, 1 failed (unknown user, database unreachable...), 2 wrong command line.',
  ].join('\n');
}

function groupHelp(group: string, commands: HelpEntry[]): string {
  const subs = commands.map((c) => c.name.split(' ')[1]).join('|');
  return [`usage: formloom ${group} <${subs}> [flags]`, '', 'commands:', ...list(commands), '', `formloom ${group} <command> --help lists its flags.`].join('\n');
}

function commandHelp(command: HelpEntry): string {
  const flags = Object.entries(command.flags).map(([name, text]) => [`--${name}`, text] as const);
  flags.push(['--help', 'show this help']);
  const width = Math.max(...flags.map(([f]) => f.length));
  return [
    `usage: formloom ${command.usage}`,
    '',
    `${command.summary[0]!.toUpperCase()}${command.summary.slice(1)}.`,
    '',
    'flags:',
    ...flags.map(([f, text]) => `  ${f.padEnd(width)}  ${text}`),
    ...(command.notes ? ['', ...command.notes] : []),
  ].join('\n');
}

function list(commands: HelpEntry[]): string[] {
  const width = Math.max(...commands.map((c) => c.name.length));
  return commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
}
