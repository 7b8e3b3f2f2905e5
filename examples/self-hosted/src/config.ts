import { readConfig, type CliConfig, type Env } from '@formloom/cli';

export interface SelfHostedConfig extends CliConfig {
  /** 0 asks the system for a free port. */
  port: number;
  /** Base of shareable links; `null` means `http://localhost:<the port listened on>`. */
  publicUrl: string | null;
}

/** The operator variables of docs/configuration.md (the same reading as the `formloom` command). */
export function readSelfHostedConfig(env: Env, cwd = process.cwd()): SelfHostedConfig {
  const rawPort = env.PORT?.trim() || '3000';
  const port = /^\d+$/.test(rawPort) ? Number(rawPort) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new Error(`PORT: expected a port number, got ${JSON.stringify(env.PORT)}`);
  const publicUrl = env.FORMLOOM_PUBLIC_URL?.trim().replace(/\/+$/, '') || null;
  return { ...readConfig(env, cwd), port, publicUrl };
}
