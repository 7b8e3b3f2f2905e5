/*
 * The HTTP layer a host mounts (docs/embedding.md, docs/security.md): headers, CORS and framing, request limits,
 * logging, compression, mounting, server classes, shutdown and spam protection, one process for all its parts:
 * each part in http/ declares its tests when it is imported and keeps its own apps; they share the process and its
 * loaded modules (docs/testing.md, "What it costs").
 */
import './http/security-headers';
import './http/cors';
import './http/page-framing';
import './http/method-not-allowed';
import './http/request-hardening';
import './http/request-log';
import './http/json-compression';
import './http/download-listeners';
import './http/host-mount';
import './http/server-classes';
import './http/graceful-shutdown';
import './http/spam-protection';
