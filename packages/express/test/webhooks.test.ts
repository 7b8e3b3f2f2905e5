/*
 * Webhooks (docs/responses-and-webhooks.md), one process for all its parts: each part in webhooks/ declares its
 * tests when it is imported; they share the process and its loaded modules (docs/testing.md, "What it costs").
 */
import './webhooks/deliveries';
import './webhooks/test-send';
