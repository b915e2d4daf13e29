import { contract, type ValidateRequest, type ValidateResponse } from '@riff/contract';
import type { AppRoute } from '@ts-rest/core';
import type { ZodTypeAny } from 'zod';
import { invalidField } from '../../platform/errors/app-error.js';
import { issuesFrom } from '../../platform/errors/error-middleware.js';
import { summarize } from '../../platform/errors/validation-messages.js';

const titleOf = (schema: unknown) => (schema as { metaOpenApi?: { title?: unknown } } | null)?.metaOpenApi?.title;

/** Every named JSON request body of the contract, by its name in openapi.json. */
function namedRequestBodies(): Map<string, ZodTypeAny> {
  const bodies = new Map<string, ZodTypeAny>();
  const walk = (router: object) => {
    for (const value of Object.values(router)) {
      const route = value as AppRoute;
      if (typeof route.method !== 'string' || typeof route.path !== 'string') {
        walk(value as object);
        continue;
      }
      if (route.method === 'GET' || !('body' in route) || route.contentType === 'multipart/form-data') continue;
      const title = titleOf(route.body);
      if (typeof title === 'string') bodies.set(title, route.body as ZodTypeAny);
    }
  };
  walk(contract);
  return bodies;
}

/** POST /validate: a request body checked as its endpoint would check it, before it is sent. */
export class RequestValidatorService {
  private readonly bodies = namedRequestBodies();

  /** The names /validate knows, sorted (for the error message and the tests). */
  types(): string[] {
    return [...this.bodies.keys()].sort();
  }

  validate({ type, data }: ValidateRequest): ValidateResponse {
    const schema = this.bodies.get(type);
    if (!schema)
      throw invalidField('type', `is not a request schema of this API (one of ${this.types().join(', ')})`, type);
    let document: unknown;
    try {
      document = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(data)));
    } catch {
      throw invalidField('data', 'must be the UTF-8 bytes of a JSON document');
    }
    const result = schema.safeParse(document);
    if (result.success) return { valid: true, message: `Valid ${type}`, errors: [] };
    const errors = issuesFrom(result.error, document);
    return { valid: false, message: summarize(errors.map((issue) => issue.message)), errors };
  }
}
