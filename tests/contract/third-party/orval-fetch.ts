/**
 * The fetch function the orval client calls (orval's `override.mutator`, the documented way to give
 * its fetch client a base URL): the generated code names the reply type it expects, `{ data,
 * status, headers }` by status, so this hook only fills it in. JSON replies are parsed, files are
 * Blobs, replies without a body have no data.
 */
let baseUrl = '';

export function useBaseUrl(url: string): void {
  baseUrl = url;
}

export async function customFetch<T>(url: string, options: RequestInit): Promise<T> {
  const response = await fetch(`${baseUrl}${url}`, options);
  const type = response.headers.get('content-type') ?? '';
  const data = [204, 205, 304].includes(response.status)
    ? undefined
    : type.includes('json')
      ? await response.json()
      : await response.blob();
  const reply: unknown = { data, status: response.status, headers: response.headers };
  // the generated code declares T as the union of its replies by status; this is that shape
  return reply as T;
}
