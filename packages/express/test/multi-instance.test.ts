/*
 * Several instances on one database, and the PostgreSQL connections they use (docs/scaling.md), one process for
 * all its parts: each part in multi-instance/ declares its tests when it is imported and starts its own instances;
 * they share the process and its loaded modules (docs/testing.md, "What it costs").
 */
import './multi-instance/pg-one-query-at-a-time';
import './multi-instance/two-instances';
import './multi-instance/read-caches';
