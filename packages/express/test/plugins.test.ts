/*
 * Plugins (docs/plugins.md), one process for all its parts: each part in plugins/ declares its tests when it is
 * imported and keeps the apps its plugins need; they share the process and its loaded modules (docs/testing.md,
 * "What it costs").
 */
import './plugins/routes-and-events';
import './plugins/contracts';
import './plugins/route-warnings';
