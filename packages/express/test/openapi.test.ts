/*
 * The OpenAPI document (`GET /api/v1/openapi.json`, docs/embedding.md "Typed clients"): what it says and that the
 * server does what it says, one process for both parts: each part in openapi/ declares its tests when it is imported
 * and keeps its own app; they share the process and its loaded modules (docs/testing.md, "What it costs").
 */
import './openapi/document';
import './openapi/precision';
