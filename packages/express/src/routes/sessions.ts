import type { RouteSpec } from '../route-table';
import type { SessionMount } from '../session-auth';
import { accountRoutes } from './account';
import { authRoutes } from './auth';
import { adminRoutes } from './admin';

/** Every endpoint of people who sign in (docs/accounts.md), served when the router has `sessions` options. */
export const sessionRoutes = (mount: SessionMount): RouteSpec[] => [...authRoutes(mount), ...accountRoutes(mount), ...adminRoutes(mount)];
