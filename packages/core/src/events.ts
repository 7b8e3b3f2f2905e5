import { EventEmitter } from 'eventemitter3';

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

export class FormloomEvents extends EventEmitter<FormloomEventMap> {}
