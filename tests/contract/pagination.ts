/** Checks that a page of a list agrees with its pagination. */

/** What is wrong with a `{ <items>: [...], pagination }` page (empty when it is consistent). */
export function paginationProblems(page: Record<string, unknown>): string[] {
  const { page: number, limit, total, total_pages } = page['pagination'] as Record<string, number>;
  const list = Object.entries(page).find(([key, value]) => key !== 'pagination' && Array.isArray(value))?.[1] as
    | unknown[]
    | undefined;
  const problems: string[] = [];
  if (!list) return ['no list beside pagination'];
  if (total_pages !== Math.ceil(total! / limit!))
    problems.push(`total_pages ${total_pages} for total ${total} and limit ${limit}`);
  const expected = Math.max(0, Math.min(limit!, total! - (number! - 1) * limit!));
  if (list.length !== expected)
    problems.push(`${list.length} items on page ${number} of total ${total} with limit ${limit}, expected ${expected}`);
  return problems;
}
