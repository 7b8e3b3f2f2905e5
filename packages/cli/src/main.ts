import { runCli } from './run-cli';

runCli(process.argv.slice(2), process.env).then(
  ({ code, stdout, stderr }) => {
    process.stdout.write(stdout);
    process.stderr.write(stderr);
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`formloom: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
