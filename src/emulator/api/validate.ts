// The one body validator of the REST half: every route's body, `POST /dials`' CreateDialInput
// included, is a `Schema` checked by `checkBody`. The seed's split: a body that is not the
// schema's JSON shape (wrong type, required field missing) is a 400 "Invalid input"; a well-typed
// value the service cannot use (bad enum value here; unknown id, bad phone number in the route's
// own checks after this one) is a 422 "Validation exception".
import { badRequest, unprocessable } from './errors.js';

export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'string[]';

export interface FieldSpec {
  type: FieldType;
  required?: boolean;
  /** `null` is accepted (and kept) when true. */
  nullable?: boolean;
  /** Allowed values of a string field (422 otherwise). */
  oneOf?: readonly string[];
  /** For an `array`: every item is an object whose fields of these names are strings (400 otherwise). */
  stringFields?: readonly string[];
}

/** A body's fields by name. Declare one `as const satisfies Schema`, so `checkBody` can type what it answers. */
export type Schema = Readonly<Record<string, FieldSpec>>;

export type Body = Record<string, unknown>;

interface FieldTypes {
  string: string;
  integer: number;
  number: number;
  boolean: boolean;
  object: Body;
  array: unknown[];
  'string[]': string[];
}

/** The value of a field that passed its spec. */
type ValueOf<F extends FieldSpec> = F extends { oneOf: readonly (infer Value)[] }
  ? Value
  : F extends { stringFields: readonly (infer Name extends string)[] }
    ? { [K in Name]: string }[]
    : FieldTypes[F['type']];

type Absent<F extends FieldSpec> = ValueOf<F> | undefined | (F extends { nullable: true } ? null : never);

type RequiredNames<S extends Schema> = {
  [Name in keyof S]: S[Name] extends { required: true } ? Name : never;
}[keyof S];

/** A checked body: the schema's fields typed (its required ones present), fields it does not name kept as sent. */
export type Checked<S extends Schema> = Body & { [Name in RequiredNames<S>]: ValueOf<S[Name]> } & {
  [Name in Exclude<keyof S, RequiredNames<S>>]?: Absent<S[Name]>;
};
/** A checked update (`checkPatch`): every field may be absent. */
export type CheckedPatch<S extends Schema> = Body & { [Name in keyof S]?: Absent<S[Name]> };

const checks: Record<FieldType, (value: unknown) => boolean> = {
  string: (value) => typeof value === 'string',
  integer: (value) => typeof value === 'number' && Number.isInteger(value),
  number: (value) => typeof value === 'number' && Number.isFinite(value),
  boolean: (value) => typeof value === 'boolean',
  object: (value) => isObject(value),
  array: (value) => Array.isArray(value),
  'string[]': (value) => Array.isArray(value) && value.every((item) => typeof item === 'string'),
};

const typeNames: Record<FieldType, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  'string[]': 'an array of strings',
};

export function isObject(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fits(value: unknown, field: FieldSpec): boolean {
  if (!checks[field.type](value)) return false;
  const names = field.stringFields;
  return (
    names === undefined ||
    (Array.isArray(value) &&
      value.every((item) => isObject(item) && names.every((name) => typeof item[name] === 'string')))
  );
}

function typeName(field: FieldSpec): string {
  return field.stringFields ? `an array of {${field.stringFields.join(', ')}} strings` : typeNames[field.type];
}

/**
 * Checks `body` against `schema` and returns it, typed. `where` names the body in messages (e.g.
 * `agentOverrides`). Fields not in the schema are kept: the seed's schemas are open beyond what it shows.
 */
export function checkBody<S extends Schema>(body: unknown, schema: S, options: { where?: string } = {}): Checked<S> {
  return check(body, schema, false, options.where) as Checked<S>;
}

/** `checkBody` for an update: every field is optional. */
export function checkPatch<S extends Schema>(
  body: unknown,
  schema: S,
  options: { where?: string } = {},
): CheckedPatch<S> {
  return check(body, schema, true, options.where) as CheckedPatch<S>;
}

function check(body: unknown, schema: Schema, partial: boolean, where: string | undefined): Body {
  const prefix = where ? `${where}.` : '';
  if (!isObject(body)) throw badRequest(where ? `${where} must be an object` : 'the body must be a JSON object');
  for (const [name, field] of Object.entries(schema)) {
    const value = body[name];
    if (value === undefined || (value === null && field.nullable)) {
      if (field.required && !partial) throw badRequest(`${prefix}${name} is required`);
      continue;
    }
    if (!fits(value, field))
      throw badRequest(`${prefix}${name} must be ${typeName(field)}${field.nullable ? ' or null' : ''}`);
    if (field.oneOf && !field.oneOf.includes(String(value))) {
      throw unprocessable(`${prefix}${name} must be one of ${field.oneOf.join(', ')}`);
    }
  }
  return body;
}

export const E164 = /^\+[1-9]\d{1,14}$/;

/** A 422 unless `value` is an E.164 number; `field` is answered as `error.field`. */
export function requireE164(value: string, name: string, field?: string): void {
  if (!E164.test(value)) throw unprocessable(`${name} must be in E.164 format, e.g. +11234567890`, field);
}

export function requireNonEmpty(value: unknown, name: string): void {
  if (typeof value === 'string' && value.trim() === '') throw unprocessable(`${name} must not be empty`);
}
