/** The slice a page asks for. An explicit offset wins over page. */
export interface PageWindow {
  page: number;
  limit: number;
  offset: number;
}

export function pageWindow(page: number, limit: number, offset?: number): PageWindow {
  const start = offset ?? (page - 1) * limit;
  return { page: offset === undefined ? page : Math.floor(offset / limit) + 1, limit, offset: start };
}

/** The pagination object of every list: {page, limit, total, total_pages}. */
export function paginate(window: PageWindow, total: number) {
  return { page: window.page, limit: window.limit, total, total_pages: Math.ceil(total / window.limit) };
}
