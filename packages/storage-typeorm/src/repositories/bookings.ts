import { BOOKING_CELL_MINUTES, FormloomError, type BookingRecord, type BookingRepository, type CalendarConnectionRecord } from '@formloom/core';
import { BookingCellEntity, BookingEntity, bookingFromRow, type BookingRow, bookingToRow, CalendarConnectionEntity, type CalendarConnectionRow } from '../tables/bookings';
import { columnsOf } from '../tables/columns';
import type { Scope } from '../scope';
import type { Dialect } from '../sql/dialect';
import { tableOf } from '../sql/statements';

/** The cells (minutes since the epoch) a time takes: every 5-minute cell it touches. */
export function cellsOf(start: string, end: string): number[] {
  const step = BOOKING_CELL_MINUTES;
  const from = Math.floor(Date.parse(start) / 60_000 / step) * step;
  const to = Math.ceil(Date.parse(end) / 60_000 / step) * step;
  const out: number[] = [];
  for (let c = from; c < to; c += step) out.push(c);
  return out;
}

/** Thrown inside the transaction to roll a lost race back; never leaves this file. */
class Taken extends Error {}

const bookingStatements = (d: Dialect) => {
  const bookings = tableOf(d, BookingEntity);
  const cells = tableOf(d, BookingCellEntity);
  const connections = tableOf(d, CalendarConnectionEntity);
  const cols = columnsOf(BookingEntity);
  return {
    insert: `INSERT INTO ${bookings} (${cols.join(', ')}) VALUES (${cols.map((_, i) => d.p(i + 1)).join(', ')})`,
    /** Lapsed holds of the owner that hold any cell in [from, to): they lose their cells and become expired. */
    lapsed:
      `SELECT DISTINCT b.id FROM ${bookings} b JOIN ${cells} c ON c.booking_id = b.id ` +
      `WHERE c.owner_id = ${d.p(1)} AND c.cell >= ${d.p(2)} AND c.cell < ${d.p(3)} AND b.status = 'held' AND b.held_until < ${d.p(4)}`,
    expire: `UPDATE ${bookings} SET status = 'expired', updated_at = ${d.p(1)} WHERE id = ${d.p(2)} AND status = 'held'`,
    freeCells: `DELETE FROM ${cells} WHERE booking_id = ${d.p(1)}`,
    byId: `SELECT * FROM ${bookings} WHERE id = ${d.p(1)}`,
    confirm: `UPDATE ${bookings} SET status = 'confirmed', response_id = ${d.p(1)}, manage_token_hash = ${d.p(2)}, held_until = NULL, updated_at = ${d.p(3)} WHERE id = ${d.p(4)} AND status = 'held'`,
    cancel: `UPDATE ${bookings} SET status = 'cancelled', held_until = NULL, updated_at = ${d.p(1)} WHERE id = ${d.p(2)} AND status IN ('held', 'confirmed')`,
    taken:
      `SELECT starts_at, ends_at FROM ${bookings} WHERE owner_id = ${d.p(1)} AND starts_at < ${d.p(2)} AND ends_at > ${d.p(3)} ` +
      `AND (status = 'confirmed' OR (status = 'held' AND held_until >= ${d.p(4)}))`,
    putConnection:
      `INSERT INTO ${connections} (${columnsOf(CalendarConnectionEntity).join(', ')}) VALUES (${columnsOf(CalendarConnectionEntity).map((_, i) => d.p(i + 1)).join(', ')}) ` +
      `ON CONFLICT (user_id) DO UPDATE SET url = excluded.url, username = excluded.username, password_sealed = excluded.password_sealed, ` +
      `calendar_url = excluded.calendar_url, calendar_name = excluded.calendar_name, updated_at = excluded.updated_at`,
    connectionOf: `SELECT * FROM ${connections} WHERE user_id = ${d.p(1)}`,
    deleteConnection: `DELETE FROM ${connections} WHERE user_id = ${d.p(1)}`,
    cellsTable: cells,
  };
};

export class SqlBookingRepository implements BookingRepository {
  constructor(private readonly scope: Scope) {}

  private get st() {
    return this.scope.statements(bookingStatements);
  }

  async take(booking: BookingRecord, now: string): Promise<boolean> {
    const cells = cellsOf(booking.start, booking.end);
    if (!cells.length) throw new FormloomError('BAD_REQUEST', 'A booking must last more than nothing');
    const d = this.scope.d;
    try {
      return await this.scope.atomic(async (db) => {
        for (const { id } of await db.all<{ id: string }>(this.st.lapsed, [booking.owner_id, cells[0], cells[cells.length - 1]! + 1, now])) {
          await db.run(this.st.expire, [now, id]);
          await db.run(this.st.freeCells, [id]);
        }
        const row = bookingToRow(booking);
        await db.run(this.st.insert, columnsOf(BookingEntity).map((c) => row[c as keyof BookingRow]));
        // In ascending order, so two takers never wait on each other's cells crosswise (no deadlock). A taken
        // cell inserts nothing and raises nothing (an error would abort a PostgreSQL transaction); on
        // PostgreSQL a cell another transaction is inserting waits for it to commit, then counts as taken.
        const values = cells.map((_, i) => `(${d.p(i * 3 + 1)}, ${d.p(i * 3 + 2)}, ${d.p(i * 3 + 3)})`).join(', ');
        const params = cells.flatMap((c) => [booking.owner_id, c, booking.id]);
        const n = await db.run(`INSERT INTO ${this.st.cellsTable} (owner_id, cell, booking_id) VALUES ${values} ON CONFLICT DO NOTHING`, params);
        if (n !== cells.length) throw new Taken();
        return true;
      });
    } catch (e) {
      if (e instanceof Taken) return false;
      throw e;
    }
  }

  async findById(id: string): Promise<BookingRecord | null> {
    const [row] = await this.scope.db.all<BookingRow>(this.st.byId, [id]);
    return row ? bookingFromRow(row) : null;
  }

  async confirm(id: string, p: { response_id: string; manage_token_hash: string; updated_at: string }): Promise<boolean> {
    return (await this.scope.db.run(this.st.confirm, [p.response_id, p.manage_token_hash, p.updated_at, id])) > 0;
  }

  async cancel(id: string, at: string): Promise<boolean> {
    return this.scope.atomic(async (db) => {
      if ((await db.run(this.st.cancel, [at, id])) === 0) return false;
      await db.run(this.st.freeCells, [id]);
      return true;
    });
  }

  async taken(ownerId: string, range: { start: string; end: string }, now: string) {
    const rows = await this.scope.db.all<{ starts_at: string; ends_at: string }>(this.st.taken, [ownerId, range.end, range.start, now]);
    return rows.map((r) => ({ start: r.starts_at, end: r.ends_at }));
  }

  forResponses(responseIds: readonly string[]): Promise<BookingRecord[]> {
    return this.ofResponses(responseIds, `status = 'confirmed' AND `);
  }

  forResponsesAnyState(responseIds: readonly string[]): Promise<BookingRecord[]> {
    return this.ofResponses(responseIds, '');
  }

  private async ofResponses(responseIds: readonly string[], where: string): Promise<BookingRecord[]> {
    const out: BookingRecord[] = [];
    for (let i = 0; i < responseIds.length; i += 500) {
      const slice = responseIds.slice(i, i + 500);
      const sql = `SELECT * FROM ${tableOf(this.scope.d, BookingEntity)} WHERE ${where}response_id IN (${slice.map((_, j) => this.scope.d.p(j + 1)).join(', ')})`;
      out.push(...(await this.scope.db.all<BookingRow>(sql, slice)).map(bookingFromRow));
    }
    return out;
  }

  async putConnection(c: CalendarConnectionRecord): Promise<void> {
    const row: CalendarConnectionRow = c;
    await this.scope.db.run(this.st.putConnection, columnsOf(CalendarConnectionEntity).map((k) => row[k as keyof CalendarConnectionRow]));
  }

  async connectionOf(userId: string): Promise<CalendarConnectionRecord | null> {
    const [row] = await this.scope.db.all<CalendarConnectionRow>(this.st.connectionOf, [userId]);
    return row ?? null;
  }

  async deleteConnection(userId: string): Promise<boolean> {
    return (await this.scope.db.run(this.st.deleteConnection, [userId])) > 0;
  }
}
