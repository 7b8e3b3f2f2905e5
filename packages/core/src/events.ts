import { EventEmitter } from 'eventemitter3';
import type { Storage } from './ports/storage';

/** Domain events connecting services without coupling them. */
export interface FormloomEventMap {
  'form.created': [{ form_id: string; user_id: string }];
  'form.published': [{ form_id: string; version: number; user_id: string }];
  'form.unpublished': [{ form_id: string }];
  'form.deleted': [{ form_id: string }];
  'response.submitted': [{ form_id: string; response_id: string }];
  /** A durable outbox item was committed: wakes the instance's worker. */
  'outbox.enqueued': [{ kind: string }];
}

/** The events whose listeners may also run inside the transaction that records them (docs/plugins.md). */
export type TransactionalEventName = 'response.submitted';

/**
 * A listener inside the event's transaction: `tx` is the storage of that transaction. It may answer `false`
 * when it wrote nothing, so the outbox worker is not woken for nothing.
 */
export type TransactionalListener<E extends TransactionalEventName> = (payload: FormloomEventMap[E][0], tx: Storage) => Promise<void | boolean>;

export class FormloomEvents extends EventEmitter<FormloomEventMap> {
  private readonly within = new Map<TransactionalEventName, Array<TransactionalListener<TransactionalEventName>>>();

  /**
   * Runs `listener` inside the transaction that records `event`, before it commits: what it writes with
   * `tx` (an outbox item: `ctx.enqueue(kind, payload, tx)`) exists exactly when the event does. A listener
   * that throws rolls the whole change back, so keep it to writes that must not be lost.
   */
  withinTransaction<E extends TransactionalEventName>(event: E, listener: TransactionalListener<E>): void {
    const list = this.within.get(event) ?? [];
    list.push(listener as TransactionalListener<TransactionalEventName>);
    this.within.set(event, list);
  }

  /** Called by the service that records `event`, with its transaction; true when a listener ran and did not answer `false`. */
  async runWithinTransaction<E extends TransactionalEventName>(tx: Storage, event: E, payload: FormloomEventMap[E][0]): Promise<boolean> {
    const list = this.within.get(event) ?? [];
    let queued = false;
    // In order, one after the other: statements of one transaction are not sent concurrently.
    for (const listener of list) if ((await listener(payload, tx)) !== false) queued = true;
    return queued;
  }
}
