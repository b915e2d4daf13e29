import type { ZodIssue } from 'zod';

/**
 * Turns a zod issue into a sentence a person can act on: it names the field and says what was
 * expected ("limit (query parameter) must be a whole number from 1 to 100", not "Expected number,
 * received nan"). Messages written in the contract as "must …" keep their words, after the field.
 */

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

const TYPE_NAMES: Record<string, string> = {
  string: 'string',
  number: 'number',
  integer: 'whole number',
  bigint: 'whole number',
  boolean: 'boolean (true or false)',
  object: 'JSON object',
  array: 'array',
  date: 'date',
};

const typeName = (type: string) => article(TYPE_NAMES[type] ?? type);

/** How the field is named in a message: `email`, `limit (query parameter)`, `the body`. */
export function fieldLabel(field: string): string {
  if (field === '' || field === 'body') return 'the body';
  if (field.startsWith('query.')) return `${field.slice('query.'.length)} (query parameter)`;
  if (field.startsWith('headers.')) return `header ${field.slice('headers.'.length)}`;
  return field;
}

const quoteAll = (values: readonly unknown[]) =>
  values.map((value) => (typeof value === 'string' ? `"${value}"` : String(value))).join(', ');

function sizeLimit(issue: ZodIssue & { code: 'too_small' | 'too_big' }): string {
  const small = issue.code === 'too_small';
  const bound = Number(small ? issue.minimum : issue.maximum);
  const inclusive = issue.inclusive;
  switch (issue.type) {
    case 'string':
      return issue.exact
        ? `must be exactly ${bound} characters long`
        : small
          ? `must be at least ${bound} character${bound === 1 ? '' : 's'} long`
          : `must be at most ${bound} characters long`;
    case 'array':
    case 'set':
      return issue.exact
        ? `must have exactly ${bound} items`
        : small
          ? `must have at least ${bound} item${bound === 1 ? '' : 's'}`
          : `must have at most ${bound} items`;
    case 'number':
    case 'bigint':
      if (small) return inclusive ? `must be at least ${bound}` : `must be greater than ${bound}`;
      return inclusive ? `must be at most ${bound}` : `must be less than ${bound}`;
    default:
      return small ? `must be at least ${bound}` : `must be at most ${bound}`;
  }
}

const STRING_FORMATS: Record<string, string> = {
  email: 'must be an email address such as name@example.com',
  uuid: 'must be a UUID such as 3f2b8c1e-5d4a-4e6b-9c7d-1a2b3c4d5e6f',
  url: 'must be an absolute URL',
  datetime: 'must be a timestamp such as 2026-11-21T10:00:00.000Z',
  date: 'must be a date as YYYY-MM-DD',
  regex: 'has characters or a form that is not allowed',
};

/** Options a union accepts, from the issues of its members (e.g. `true, false` for a query boolean). */
function unionOptions(issue: ZodIssue & { code: 'invalid_union' }): string[] {
  const options = new Set<string>();
  for (const member of issue.unionErrors) {
    for (const inner of member.issues) {
      if (inner.path.length !== issue.path.length) continue;
      if (inner.code === 'invalid_enum_value') inner.options.forEach((option) => options.add(String(option)));
      else if (inner.code === 'invalid_literal') options.add(String(inner.expected));
      else if (inner.code === 'invalid_type' && inner.expected !== 'boolean') options.add(typeName(inner.expected));
      else if (inner.code === 'invalid_type') ['true', 'false'].forEach((option) => options.add(option));
    }
  }
  return [...options];
}

/** The words after the field's label. */
function predicate(issue: ZodIssue, present: boolean): string {
  const custom = /^(must|may|at most|at least|is|are|does|should) /.test(issue.message) ? issue.message : undefined;
  switch (issue.code) {
    case 'invalid_type':
      if (!present || issue.received === 'undefined') return `is required: ${typeName(issue.expected)}`;
      if (issue.received === 'nan') return `must be a number`;
      return `must be ${typeName(issue.expected)}, not ${issue.received === 'null' ? 'null' : article(TYPE_NAMES[issue.received] ?? issue.received)}`;
    case 'invalid_enum_value':
      return custom ?? `must be one of ${quoteAll(issue.options)}`;
    case 'invalid_literal':
      return custom ?? `must be ${quoteAll([issue.expected])}`;
    case 'invalid_union': {
      const options = unionOptions(issue);
      return options.length > 0 ? `must be one of ${options.join(', ')}` : 'is not in an accepted form';
    }
    case 'too_small':
    case 'too_big':
      return custom ?? sizeLimit(issue);
    case 'invalid_string':
      return (
        custom ??
        STRING_FORMATS[typeof issue.validation === 'string' ? issue.validation : 'regex'] ??
        'is not in an accepted form'
      );
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.multipleOf)}`;
    case 'invalid_date':
      return 'must be a valid date';
    default:
      return custom ?? `is not valid: ${issue.message.charAt(0).toLowerCase()}${issue.message.slice(1)}`;
  }
}

export function describeIssue(issue: ZodIssue, field: string, present: boolean): string {
  // z.coerce.number() turns a missing query value into NaN
  if (issue.code === 'invalid_type' && issue.received === 'nan' && !present)
    return `${fieldLabel(field)} is required: ${typeName(issue.expected)}`;
  if (issue.code === 'invalid_type' && (field === '' || field === 'body')) {
    const received = issue.received === 'null' ? 'null' : typeName(issue.received);
    return present
      ? `The body must be ${typeName(issue.expected)}, not ${received}`
      : `A body is required: ${typeName(issue.expected)}`;
  }
  return `${fieldLabel(field)} ${predicate(issue, present)}`;
}

/** The top-level message of a validation failure: its first problem, and how many more there are. */
export function summarize(messages: readonly string[]): string {
  const [first] = messages;
  if (first === undefined) return 'The request is not valid';
  return messages.length === 1 ? first : `${first} (and ${messages.length - 1} more: see details)`;
}
