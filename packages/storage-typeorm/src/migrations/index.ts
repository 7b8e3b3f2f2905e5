import { FormloomInitial1732000000000 } from './1732000000000-initial';

/** Formloom's migrations in order, for a host that builds its own DataSource (add them to `migrations`). */
export const formloomMigrations = [FormloomInitial1732000000000];
