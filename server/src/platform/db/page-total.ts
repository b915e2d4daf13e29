import { sql, type SelectQueryBuilder } from 'kysely';

/** Selected beside a page's rows: the number of rows matching before LIMIT/OFFSET, in the same statement. */
export const totalCount = () => sql<number>`count(*) over ()`.as('total_count');

/**
 * A page and its total from one statement (rows selected with totalCount()). A page past the end
 * has no row to carry the total: only then is it counted apart.
 */
export async function pageWithTotal<Row extends { total_count: number }>(
  rows: Row[],
  countApart: () => Promise<number>,
): Promise<{ rows: Omit<Row, 'total_count'>[]; total: number }> {
  const total = rows.length > 0 ? Number(rows[0]!.total_count) : await countApart();
  return { rows: rows.map(({ total_count: _total, ...row }) => row), total };
}

/** How many rows `query` matches: the total of a page past the end, counted apart. */
export async function countOf<DB, TB extends keyof DB>(query: SelectQueryBuilder<DB, TB, object>): Promise<number> {
  const row = await query.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return Number((row as { count: number | string }).count);
}
