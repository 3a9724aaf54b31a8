// Body checks for the resource routes, the seed's split: a body that is not the schema's JSON
// shape (wrong type, required field missing) is a 400 "Invalid input"; a well-typed value the
// service cannot use (unknown id, bad enum value, bad phone number) is a 422 "Validation exception".
import { badRequest, unprocessable } from './errors.js';

export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'string[]';

export interface FieldSpec {
  type: FieldType;
  required?: boolean;
  /** `null` is accepted (and kept) when true. */
  nullable?: boolean;
  /** Allowed values of a string field (422 otherwise). */
  oneOf?: readonly string[];
}

export type Body = Record<string, unknown>;

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

/**
 * Checks `body` against `spec` and returns it as a record. `partial` (updates) makes every field
 * optional. Fields not in the spec are kept: the seed's schemas are open beyond what it shows.
 */
export function checkBody(
  body: unknown,
  spec: Record<string, FieldSpec>,
  options: { partial?: boolean; where?: string } = {},
): Body {
  const where = options.where ? `${options.where}.` : '';
  if (!isObject(body))
    throw badRequest(options.where ? `${options.where} must be an object` : 'the body must be a JSON object');
  for (const [name, field] of Object.entries(spec)) {
    const value = body[name];
    if (value === undefined || (value === null && field.nullable)) {
      if (field.required && !options.partial) throw badRequest(`${where}${name} is required`);
      continue;
    }
    if (!checks[field.type](value))
      throw badRequest(`${where}${name} must be ${typeNames[field.type]}${field.nullable ? ' or null' : ''}`);
    if (field.oneOf && !field.oneOf.includes(value as string)) {
      throw unprocessable(`${where}${name} must be one of ${field.oneOf.join(', ')}`);
    }
  }
  return body;
}

export const E164 = /^\+[1-9]\d{1,14}$/;

export function requireE164(value: string, name: string): void {
  if (!E164.test(value)) throw unprocessable(`${name} must be in E.164 format, e.g. +11234567890`);
}

export function requireNonEmpty(value: unknown, name: string): void {
  if (typeof value === 'string' && value.trim() === '') throw unprocessable(`${name} must not be empty`);
}

/** Copies the fields of `body` named in `names` that are present (not undefined). */
export function pick(body: Body, names: readonly string[]): Body {
  const out: Body = {};
  for (const name of names) if (body[name] !== undefined) out[name] = structuredClone(body[name]);
  return out;
}
