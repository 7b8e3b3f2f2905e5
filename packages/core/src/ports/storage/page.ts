/** A page of a list, with the total before paging. */
export interface Page<T> {
  /** The page's items, in the order the listing method documents. */
  items: T[];
  /** How many items match the query in all (ignoring offset and limit). */
  total: number;
}
