/** A mistake in the command line; its message is shown as is. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
