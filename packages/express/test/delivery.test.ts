/*
 * What the outbox delivers (docs/responses-and-webhooks.md, docs/notifications.md, docs/integrations.md): items
 * leased at birth, the worker through a storage outage, the wake-up of another instance's worker, the mails about
 * responses and the integrations framework. One process for what were five files: each paid about 1.5
 * CPU-seconds before its first request (docs/testing.md, "Merged test files"). Every part starts the worker of
 * apps of its own, so each declares its tests when it is imported; the mails' and the birth leases' run one at
 * a time, before the others.
 */
import './delivery/outbox-birth-lease';
import './delivery/outbox-outage';
import './delivery/outbox-wake-multi-instance';
import './delivery/notification-mails';
import './delivery/integrations';
