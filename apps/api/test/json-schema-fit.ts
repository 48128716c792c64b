/**
 * Whether a value fits a JSON Schema of the OpenAPI document, for the keywords our request
 * schemas use. Lengths count code points, as JSON Schema does.
 */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  $ref?: string;
}

function typeOf(value: unknown): string[] {
  if (value === null) return ['null'];
  if (Array.isArray(value)) return ['array'];
  if (typeof value === 'number') return Number.isInteger(value) ? ['number', 'integer'] : ['number'];
  return [typeof value];
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

export function fitsSchema(
  schema: JsonSchema,
  value: unknown,
  components: Record<string, JsonSchema>,
): boolean {
  if (schema.$ref) {
    const target = components[schema.$ref.split('/').at(-1) ?? ''];
    if (!target || !fitsSchema(target, value, components)) return false;
  }
  if (schema.allOf && !schema.allOf.every((part) => fitsSchema(part, value, components))) return false;
  if (schema.anyOf && !schema.anyOf.some((part) => fitsSchema(part, value, components))) return false;
  if (schema.oneOf && schema.oneOf.filter((part) => fitsSchema(part, value, components)).length !== 1)
    return false;
  if (schema.const !== undefined && JSON.stringify(schema.const) !== JSON.stringify(value)) return false;
  if (schema.enum && !schema.enum.some((option) => JSON.stringify(option) === JSON.stringify(value)))
    return false;
  if (schema.type !== undefined) {
    const allowed = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!typeOf(value).some((kind) => allowed.includes(kind))) return false;
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if (schema.minLength !== undefined && length < schema.minLength) return false;
    if (schema.maxLength !== undefined && length > schema.maxLength) return false;
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) return false;
    if (schema.format === 'date-time' && !(ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)))) {
      return false;
    }
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return false;
    if (schema.maximum !== undefined && value > schema.maximum) return false;
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) return false;
    if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) return false;
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return false;
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return false;
    if (schema.uniqueItems && new Set(value.map((item) => JSON.stringify(item))).size !== value.length)
      return false;
    if (schema.items && !value.every((item) => fitsSchema(schema.items as JsonSchema, item, components)))
      return false;
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    if (schema.required?.some((key) => !(key in record))) return false;
    for (const [key, child] of Object.entries(record)) {
      const property = schema.properties?.[key];
      if (property) {
        if (!fitsSchema(property, child, components)) return false;
      } else if (schema.additionalProperties === false) {
        return false;
      } else if (typeof schema.additionalProperties === 'object') {
        if (!fitsSchema(schema.additionalProperties, child, components)) return false;
      }
    }
  }
  return true;
}
