// The one method of negotiator used here, with the `preferred` option its published types lack.
declare module 'negotiator' {
  export default class Negotiator {
    constructor(request: { headers: Record<string, string | string[] | undefined> });
    /** The client's most weighed of `available`; ties go to the first of `preferred`. */
    encoding(available: string[], options?: { preferred?: string[] }): string | undefined;
  }
}
