import type { DeliveryAttempt, WebhookDelivery } from '../../domain/types';
import type { Page } from './page';

/** Form webhook deliveries and their attempts. They go with their form (`FormRepository.delete`). */
export interface DeliveryRepository {
  /**
   * Inserts a delivery.
   * @throws `FormloomError` CONFLICT when the id is taken; nothing is written.
   */
  insert(delivery: WebhookDelivery): Promise<void>;
  /** The delivery, or `null` when there is none. */
  findById(id: string): Promise<WebhookDelivery | null>;
  /** Applies the patch (absent fields stay); an unknown id or an empty patch changes nothing. */
  update(id: string, patch: Partial<Omit<WebhookDelivery, 'id'>>): Promise<void>;
  /** The form's deliveries, newest `created_at` first (ties by id descending), with the total before paging. */
  listByForm(formId: string, offset: number, limit: number): Promise<Page<WebhookDelivery>>;
  /**
   * Records one attempt of a delivery.
   * @throws `FormloomError` CONFLICT when the id is taken; nothing is written.
   */
  insertAttempt(attempt: DeliveryAttempt): Promise<void>;
  /** A delivery's attempts, oldest first (by `created_at`, then `attempt`); `[]` when none. */
  listAttempts(deliveryId: string): Promise<DeliveryAttempt[]>;
  /** Deletes the form's deliveries of these responses with their attempts (they carry the answers); how many. */
  deleteByResponses(formId: string, responseIds: string[]): Promise<number>;
}
