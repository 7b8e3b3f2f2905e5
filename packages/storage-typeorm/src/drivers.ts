/** The database drivers Formloom can use; each is an optional peer dependency of this package. */
export type DriverName = 'sqlite3' | 'pg';

/** How a driver module is loaded: `require` unless a host (or a test) passes its own. */
export type RequireDriver = (name: DriverName) => unknown;

const NEEDED_FOR: Record<DriverName, string> = { sqlite3: 'a sqlite: database URL', pg: 'a postgres:// database URL' };

/**
 * Loads a driver, turning "module not found" into a message that names the package to install: a host on
 * PostgreSQL only does not install (or compile) sqlite3, and one on SQLite only does not install pg
 * (docs/embedding.md). Other load failures (a sqlite3 built for another Node) keep their own message.
 */
export function loadDriver(name: DriverName, requireDriver: RequireDriver = defaultRequire): unknown {
  try {
    return requireDriver(name);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err?.code === 'MODULE_NOT_FOUND' && typeof err.message === 'string' && err.message.includes(`'${name}'`)) {
      throw new Error(`The ${name} driver is not installed; ${NEEDED_FOR[name]} needs it: npm install ${name}`);
    }
    throw e;
  }
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const defaultRequire: RequireDriver = (name) => require(name);
