/** Longest speaker name (characters) a tag or a converted line may carry. */
export const MAX_SPEAKER_LENGTH = 64;
/** Longest single pause, and the most silence one request may hold (docs/decisions.md, "Voice scripts"). */
export const MAX_PAUSE_MS = 60_000;
export const MAX_TOTAL_PAUSE_MS = 300_000;
