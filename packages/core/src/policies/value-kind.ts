/** How an error message names what a client sent: "a string", "an object", "null" (docs/decisions.md "Errors"). */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'an array';
  switch (typeof v) {
    case 'string':
      return 'a string';
    case 'number':
      return Number.isFinite(v) ? (Number.isInteger(v) ? 'a number' : 'a fractional number') : 'a non-finite number';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'an object';
    default:
      return `a ${typeof v}`;
  }
}
