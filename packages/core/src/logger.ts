/** Where the instance and its plugins report (`createFormloom({ logger })`); plugins' lines carry their name. */
export interface Logger {
  info(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
  error(message: string, details?: Record<string, unknown>): void;
}
