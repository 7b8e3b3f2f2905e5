/**
 * A form's integrations (docs/integrations.md): one record per configured connection of a form to an
 * outside service (a Slack channel, a sheet, a REST Hooks subscription...), and its delivery log.
 */

export type IntegrationStatus = 'active' | 'paused';

/** A question sent to an integration, under the name the receiver sees (a column, a property, a key). */
export interface IntegrationFieldMapping {
  question_id: string;
  name: string;
}

export interface IntegrationRecord {
  /** `int_...` */
  id: string;
  form_id: string;
  /** The integration type (`slack`, `rest-hooks`...), provided by a plugin of the instance. */
  type: string;
  /** The owner's label for it ("Sales channel"). */
  name: string;
  status: IntegrationStatus;
  /** Why it was paused when the instance paused it (a receiver that said it wants no more); null otherwise. */
  paused_reason: string | null;
  /** The plugin-described settings that are not secret, as given. */
  config: Record<string, string | boolean>;
  /** The secret settings as one JSON object sealed with the instance's SecretBox; null when there are none. */
  secrets: string | null;
  /** The questions sent and their names, in order; null: every question, named by its title. */
  fields: IntegrationFieldMapping[] | null;
  created_by: string;
  created_at: string;
  updated_at: string;
}

export type IntegrationDeliveryEvent = 'response.submitted' | 'integration.test';

/** One delivery of a response (or a test) to one integration, with the outcome of its last attempt. */
export interface IntegrationDeliveryRecord {
  /** `ind_...`: the same on every attempt, so receivers can de-duplicate on it. */
  id: string;
  integration_id: string;
  form_id: string;
  response_id: string | null;
  event: IntegrationDeliveryEvent;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status_code: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  /** The start of what the receiver answered to the last attempt (at most 500 characters). */
  last_response_excerpt: string | null;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

export type IntegrationPatch = Partial<Pick<IntegrationRecord, 'name' | 'status' | 'paused_reason' | 'config' | 'secrets' | 'fields' | 'updated_at'>>;
export type IntegrationDeliveryPatch = Partial<Omit<IntegrationDeliveryRecord, 'id' | 'integration_id' | 'form_id' | 'response_id' | 'event' | 'created_at'>>;

/**
 * Stores integrations and their deliveries. Deleting a form deletes its integrations, and deleting an
 * integration deletes its deliveries (foreign-key cascades).
 */
export interface IntegrationRepository {
  /** A taken id is a CONFLICT. */
  insert(record: IntegrationRecord): Promise<void>;
  findById(id: string): Promise<IntegrationRecord | null>;
  /** The form's integrations, oldest first. */
  listByForm(formId: string): Promise<IntegrationRecord[]>;
  /** Changes the fields given; the updated record, or null when it does not exist. */
  update(id: string, patch: IntegrationPatch): Promise<IntegrationRecord | null>;
  /** Deletes it and its deliveries; false when it did not exist. */
  delete(id: string): Promise<boolean>;
  /** A taken id is a CONFLICT. */
  insertDelivery(delivery: IntegrationDeliveryRecord): Promise<void>;
  findDelivery(id: string): Promise<IntegrationDeliveryRecord | null>;
  updateDelivery(id: string, patch: IntegrationDeliveryPatch): Promise<void>;
  /** The newest `limit` deliveries of an integration, newest first. */
  listDeliveries(integrationId: string, limit: number): Promise<IntegrationDeliveryRecord[]>;
  /** Deletes at most `limit` settled (delivered or failed) deliveries created before `before`; how many went. */
  deleteSettledBefore(before: string, limit: number): Promise<number>;
}
