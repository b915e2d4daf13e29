/** A small fetch wrapper for tests: JSON in, status, headers and parsed JSON out. */
export interface HttpReply<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  rawBody?: string;
  token?: string;
  headers?: Record<string, string>;
}

export async function request<T = any>(baseUrl: string, method: string, path: string, options: RequestOptions = {}): Promise<HttpReply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

export const api = (baseUrl: string) => ({
  get: <T = any>(path: string, options?: RequestOptions) => request<T>(baseUrl, 'GET', `/api/v1${path}`, options),
  post: <T = any>(path: string, options?: RequestOptions) => request<T>(baseUrl, 'POST', `/api/v1${path}`, options),
  put: <T = any>(path: string, options?: RequestOptions) => request<T>(baseUrl, 'PUT', `/api/v1${path}`, options),
  delete: <T = any>(path: string, options?: RequestOptions) => request<T>(baseUrl, 'DELETE', `/api/v1${path}`, options),
});
